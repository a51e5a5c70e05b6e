"""The Celery app: JSON only, settings from Django's CELERY_* (see config/settings/base.py)."""

import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("hangjack")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def connections_as_a_request(task: Any = None, **kwargs: Any) -> None:
    """Around each task on a worker, the database connections are treated as Django treats them around a
    request: closed when unusable (an error left them broken) or older than CONN_MAX_AGE, otherwise kept
    (Celery's fix-up no longer closes them every time: ``CELERY_DB_REUSE_MAX`` in config/settings/base.py).
    Not for an eager task, which runs inside its caller's request or transaction."""
    if task is not None and getattr(task.request, "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()
