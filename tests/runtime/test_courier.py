"""Tasks sent by `bansugoroku.runtime.courier` are the messages Celery's `send_task` sends, on
the broker the tests run with (Redis in CI, else kombu's in-memory one)."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from kombu import Connection
from kombu.exceptions import OperationalError
from kombu.simple import SimpleQueue

from bansugoroku.celery import app
from bansugoroku.runtime import courier

ASSIGNED = {"id", "root_id", "origin"}
"""What differs from one message to the next: the task's id (the root of a task sent
outside a task) and the sending host and process."""


@pytest.fixture
def queue() -> Iterator[SimpleQueue]:
    """Celery's default queue, emptied before and after."""
    with app.connection_for_read() as connection:
        queue = connection.SimpleQueue(app.amqp.default_queue)
        queue.clear()
        yield queue
        queue.clear()
        queue.close()


def received(queue: SimpleQueue) -> dict[str, Any]:
    message = queue.get(timeout=5)
    message.ack()
    properties = dict(message.properties)
    return {
        "headers": {k: v for k, v in message.headers.items() if k not in ASSIGNED},
        "ids": (message.headers["id"], message.headers["root_id"], properties["correlation_id"]),
        "payload": message.decode(),
        "content": (message.content_type, message.content_encoding),
        "delivery_mode": properties.get("delivery_mode"),
        "routing": (message.delivery_info.get("exchange"), message.delivery_info["routing_key"]),
    }


def test_a_couriered_task_is_the_message_send_task_sends(queue):
    app.send_task("games.deliver_events", args=(7, 1, 3), retry=False)
    celerys = received(queue)
    courier.send("games.deliver_events", (7, 1, 3))
    ours = received(queue)

    task_id, root_id, correlation_id = ours.pop("ids")
    assert task_id == root_id == correlation_id != celerys.pop("ids")[0]
    assert ours == celerys
    assert ours["headers"]["argsrepr"] == "(7, 1, 3)"


def test_a_broken_channel_is_dropped_and_the_next_send_connects_again(queue):
    """The channel held is one to a broker that went away (a closed port): the send
    fails, and the next one connects to the broker again."""
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    gone = Connection(
        f"redis://127.0.0.1:{port}/0", transport_options={"max_retries": 1, "interval_start": 0}
    )
    courier._held.connection, courier._held.pid = gone, os.getpid()

    with pytest.raises(OperationalError):
        courier.send("games.deliver_events", (2, 2, 2))
    assert courier._held.connection is None

    courier.send("games.deliver_events", (3, 3, 3))
    assert received(queue)["payload"][0] == [3, 3, 3]
