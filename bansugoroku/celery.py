"""Celery application: `celery -A bansugoroku worker` / `celery -A bansugoroku beat`."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bansugoroku.settings")

app = Celery("bansugoroku")
# Every CELERY_* Django setting configures Celery (CELERY_BROKER_URL -> broker_url, ...),
# copied into a dict when Celery first reads them (bansugoroku/runtime/celery_settings.py).
app.config_from_object("bansugoroku.runtime.celery_settings:CELERY", namespace="CELERY")
app.autodiscover_tasks()
