"""A real HTTP server on 127.0.0.1 (an ephemeral port) that plays an outside service in
the tests: a Web Push service, FCM, Google's token endpoint. It records every request
and answers what the test tells it to, so the real client libraries run end to end."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]
    """Names in lower case: HTTP header names are case-insensitive."""
    body: bytes


@dataclass
class Reply:
    status: int = 201
    body: Any = b""
    headers: dict[str, str] = field(default_factory=dict)


Route = Callable[[Received], Reply]


class Loopback:
    """Answers each request with the route whose path prefix matches it (the longest),
    else 404; `requests` lists what arrived, in order. A check that fails in a route
    fails the test, not only the request."""

    def __init__(self, server: ThreadingHTTPServer) -> None:
        self.server = server
        self.routes: dict[str, Route] = {}
        self.requests: list[Received] = []
        self.failures: list[BaseException] = []
        """What the routes' checks raised: raised again in the test when it ends."""

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def route(self, prefix: str, answer: Route | Reply) -> None:
        self.routes[prefix] = answer if callable(answer) else (lambda _request: answer)

    def answer(self, request: Received) -> Reply:
        self.requests.append(request)
        matches = [prefix for prefix in self.routes if request.path.startswith(prefix)]
        if not matches:
            return Reply(404)
        try:
            return self.routes[max(matches, key=len)](request)
        except Exception as failure:
            self.failures.append(failure)
            return Reply(599, b"the test server's check failed")


@contextmanager
def loopback_server() -> Iterator[Loopback]:
    loopback: Loopback

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            received = Received(
                self.command,
                self.path,
                {name.lower(): value for name, value in self.headers.items()},
                self.rfile.read(length),
            )
            reply = loopback.answer(received)
            body = reply.body
            if not isinstance(body, bytes):
                body = json.dumps(body).encode()
                reply.headers.setdefault("Content-Type", "application/json")
            self.send_response(reply.status)
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    loopback = Loopback(server)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield loopback
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
    if loopback.failures:
        raise loopback.failures[0]
