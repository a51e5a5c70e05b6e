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

# The published results are on, as production runs them (PUBLISH_SERVE too: Django answers from the files,
# so the drills' public reads show what was published). The drills' stack runs a publisher beside the worker,
# as docker/compose.yml does: publish_event, publish_results and the publishing sweep have their own queue
# ("publish"), so the default queue's outbox sweep, recomputations and pairings never wait behind a render
# (drill 2's killed-worker task once never started within 30 s while the one worker rendered). Drill 1 failed
# once in a fresh clone (2026-12-01: the outbox still held its 35 rows 90 s after Redis came back), most likely
# because the only worker ended: Celery/kombu 5.7 stop a worker with "Unrecoverable error: AttributeError(...
# 'hostname')" when Redis goes away while it holds an unacknowledged message, which a worker busy with renders
# often does (the publisher, 4 of 9 runs on 2026-12-04). Now that process is the publisher; the stack starts
# it again as Docker's restart policy does, and drill 1 checks the published standings catch up
# (docs/operations.md, "Drills").
PUBLISH_ENABLED = True
PUBLISH_SERVE = True
