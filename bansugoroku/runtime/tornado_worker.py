"""gunicorn's tornado worker with limits fit for serving clients directly.

A sync worker reads a request's headers itself, so a client that sends them slowly holds
the worker: three such clients stopped a three-worker server. The tornado worker reads
requests on an event loop, each one whole before the WSGI application runs it (one at a
time, as a sync worker does); a slow client costs a socket.
gunicorn builds tornado's HTTPServer with tornado's defaults, which suit a server behind
a buffering proxy: a body of up to 100 MB read into memory, and an hour for a client to
send its headers. These bound both.

Django writes each Set-Cookie value with a leading space (`cookie.output(header="")`),
which tornado 6.6 refuses as an invalid header value: it then drops the request with no
answer at all, so every page that sets a cookie (the CSRF token, the player) timed out
in production. The application's headers are trimmed on their way to tornado.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from gunicorn.workers.gtornado import (  # type: ignore[import-untyped]
    TornadoWorker as GunicornTornadoWorker,
)
from tornado.httpserver import HTTPServer
from tornado.wsgi import WSGIContainer

LIMITS = {
    # Above Django's own DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB), which answers for itself.
    "max_body_size": 4 * 1024 * 1024,
    # Seconds for a client to send a request's headers (and to come back on a kept-alive
    # connection), then its body.
    "idle_connection_timeout": 30.0,
    "body_timeout": 30.0,
}


def trimmed_headers(application: Callable[..., Iterable[bytes]]) -> Callable[..., Iterable[bytes]]:
    """The WSGI application, its response header values without surrounding whitespace
    (which HTTP ignores there, RFC 9110 section 5.5, and tornado refuses)."""

    def trimmed(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            return start_response(
                status, [(name, value.strip()) for name, value in headers], exc_info
            )

        return application(environ, start)

    return trimmed


class TornadoWorker(GunicornTornadoWorker):  # type: ignore[misc]
    wsgi: Any  # set by gunicorn's load_wsgi

    def load_wsgi(self) -> None:
        super().load_wsgi()
        # The application runs in one thread of its own, one request at a time as in a
        # sync worker: Django keeps its database connection per thread (and context), so
        # it is reused from request to request; run on the loop, each request would get a
        # context, and a connection, of its own. The loop meanwhile reads other requests.
        application: Any = self.wsgi
        self.wsgi = WSGIContainer(
            trimmed_headers(application), executor=ThreadPoolExecutor(1, "wsgi")
        )

    def run(self) -> None:
        initialize = HTTPServer.initialize

        def limited(server: HTTPServer, *args: Any, **kwargs: Any) -> None:
            initialize(server, *args, **(LIMITS | kwargs))

        HTTPServer.initialize = limited  # type: ignore[method-assign,assignment]
        super().run()  # (patched in this worker process only)
