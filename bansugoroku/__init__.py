"""Ban-sugoroku correspondence-play server: the Django project.

Its root holds only the wiring: settings (read from the environment by `env`), URLs,
the WSGI/ASGI entry points and the Celery app. Each floor is a folder named for what it
holds (docs/architecture.md): the games in `games/`, the clients in `api/` and `front/`,
the limits in `limits/`, who a player is in `players/`, what every floor may use in
`lib/`, the adapters to the framework in `runtime/`, and what only a developer's machine
runs in `development/`.
"""

# Load the Celery app whenever Django starts so that @shared_task uses it.
from .celery import app as celery_app

__all__ = ("celery_app",)
