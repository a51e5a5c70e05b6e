"""Settings for the fault drills: production's, with the broker's recovery shortened to drill time.

Only what decides how fast a lost task comes back changes: the Redis visibility timeout (10 s instead of
the longest task's hard limit plus a minute) and how often a worker looks for unacknowledged messages to
restore (every second), and the outbox sweep runs every 3 s instead of 15. Everything else (acks_late,
reject on worker loss, JSON only, fail-open cache, 503 + Retry-After) is what production runs.
"""

from config.settings.production import *  # noqa: F401,F403
from config.settings.production import CELERY_BEAT_SCHEDULE, CELERY_BROKER_TRANSPORT_OPTIONS

VISIBILITY_TIMEOUT = 10

CELERY_BROKER_TRANSPORT_OPTIONS = {
    **CELERY_BROKER_TRANSPORT_OPTIONS,
    "visibility_timeout": VISIBILITY_TIMEOUT,
    "unacked_restore_interval": 1,
    "unacked_restore_throttle": 1,
}
CELERY_BEAT_SCHEDULE = {
    **CELERY_BEAT_SCHEDULE,
    "outbox-sweep": {**CELERY_BEAT_SCHEDULE["outbox-sweep"], "schedule": 3.0},
}

# The published results are on, as in production: each change renders its pages under the worker and the
# results group renders apart in slices of about a second (publishing/results.py), so a named task (a
# recomputation, a pairing) gets the worker between them. Until the results left the change's path, drill 2
# timed out with publishing on (round_pair waited behind the event's renders; 2026-12-01); with them apart,
# 8/8 drills pass with publishing on (86 s, 2026-12-01 21:53 UTC).
PUBLISH_ENABLED = True
PUBLISH_SERVE = True
