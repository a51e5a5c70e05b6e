"""Fault drills (``make drills``): Redis stopped, the Celery worker killed, PostgreSQL restarted, a hand
resent 100 times, a replaced tablet, a refused game; each on a private stack, each printing PASS/FAIL."""
