"""The load harness (``make load``): a compressed tournament day against a private stack on this machine.

``stack`` starts private PostgreSQL and Redis instances on free ports, gunicorn with the production
settings, a Celery worker and beat; ``client`` is the recording HTTP client and the API calls;
``checks`` proves nothing was lost, doubled or mis-scored; ``run`` is the scenario and the report. The
fault drills (``benchmarks/drills``) reuse ``stack``, ``client`` and ``checks``.
"""
