"""Ban-sugoroku correspondence-play server: the Django project's wiring.

Settings, URLs, the WSGI/ASGI entry points and the Celery app live here; the game in
`bansugoroku.games`, the REST API in `bansugoroku.api`, the HTML pages in
`bansugoroku.front`.
"""

# Load the Celery app whenever Django starts so that @shared_task uses it.
from .celery import app as celery_app

__all__ = ("celery_app",)
