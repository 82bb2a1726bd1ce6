"""Celery's configuration: every CELERY_* Django setting, copied into a dict when Celery
first reads its configuration (`bansugoroku.celery` names `CELERY` here).

Celery reads its settings again for every message it sends, each under a few names in
turn (CELERY_TASK_DEFAULT_QUEUE, task_default_queue, ...) through each source it chains.
On Django's lazy settings object every name it lacks raised AttributeError through the
proxy; a dict answers at once. Celery meant to look past the proxy itself, but looks
for Django's LazySettings where Django does not define it, so it never does.
"""

from typing import Any

from django.conf import settings

CELERY: dict[str, Any] = {
    name: getattr(settings, name) for name in dir(settings) if name.startswith("CELERY_")
}
