"""The Celery app: JSON only, settings from Django's CELERY_* (see config/settings/base.py)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("hangjack")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
