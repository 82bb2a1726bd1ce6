"""A loopback HTTP server playing Postmark's send API, so anymail's real Postmark
backend runs end to end: it records every message posted and answers as Postmark does
(accepted, an inactive recipient, or down), at once or after holding the request, as a
slow or stalled provider does."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    at: float = field(default_factory=time.monotonic)

    @property
    def to(self) -> str:
        return str(self.body["To"])

    def header(self, name: str) -> str | None:
        """A header of the mail itself (Postmark's `Headers` list)."""
        for item in self.body.get("Headers", []):
            if item["Name"].lower() == name.lower():
                return str(item["Value"])
        return None


@dataclass
class FakePostmark:
    url: str
    received: list[Received] = field(default_factory=list)
    arrived: int = 0
    """Requests that reached the server, answered or not yet."""
    answer: str = "ok"
    """"ok", "inactive" (the recipient bounced before: 422, ErrorCode 406), "down" (500)."""
    delay: float = 0.0
    """Seconds each request is held before it is answered (and recorded in `received`),
    unless `release()` is called."""
    released: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def release(self) -> None:
        """Answer the requests being held now, and every later one at once."""
        self.released.set()

    def wait_for(self, count: int, timeout: float = 20) -> list[Received]:
        """The mails answered, once there are `count` of them."""
        self._wait(lambda: len(self.received) >= count, f"{count} mails answered", timeout)
        return list(self.received)

    def wait_for_arrival(self, count: int, timeout: float = 20) -> None:
        """Until `count` requests reached the server, answered or held."""
        self._wait(lambda: self.arrived >= count, f"{count} requests arrived", timeout)

    def _wait(self, done: Callable[[], bool], what: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if done():
                    return
            time.sleep(0.05)
        raise AssertionError(f"{what} expected; {self.arrived} arrived, {self.received}")


def _handler(fake: FakePostmark) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", 0))
            body = json.loads(self.rfile.read(length))
            with fake.lock:
                fake.arrived += 1
            fake.released.wait(fake.delay)
            with fake.lock:
                fake.received.append(Received(self.path, dict(self.headers), body))
            if fake.answer == "down":
                self._answer(500, {"ErrorCode": 500, "Message": "Internal server error"})
            elif fake.answer == "inactive":
                self._answer(
                    422,
                    {
                        "ErrorCode": 406,
                        "Message": "You tried to send to a recipient that has been marked as "
                        f"inactive.\nFound inactive addresses: {body['To'].lower()}.\n"
                        "Inactive recipients are ones that have generated a hard bounce or "
                        "a spam complaint.",
                    },
                )
            else:
                self._answer(
                    200,
                    {
                        "To": body["To"],
                        "SubmittedAt": "2026-12-01T00:00:00Z",
                        "MessageID": str(uuid.uuid4()),
                        "ErrorCode": 0,
                        "Message": "OK",
                    },
                )

        def _answer(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up or was killed while the request was held

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@contextmanager
def fake_postmark() -> Iterator[FakePostmark]:
    fake = FakePostmark(url="")
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(fake))
    fake.url = f"http://127.0.0.1:{server.server_address[1]}/"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        fake.release()
        server.shutdown()
        server.server_close()
