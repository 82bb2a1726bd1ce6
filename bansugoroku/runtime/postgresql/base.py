"""Django's PostgreSQL backend, with its connection's health check made without a query
and its timestamps read by psycopg's own loader.

With `conn_health_checks`, Django sends `SELECT 1` before the first query of every
request that reuses a connection, so that a request after a database restart does not
fail: a round trip per request, 4% of a move request's CPU in the web process and as
much again in PostgreSQL's (measured). An idle connection has nothing to read, while a
server that ended it (a restart, `pg_terminate_backend`, an idle timeout) has sent its
goodbye or closed the socket: either makes the socket readable. So the check first asks
the socket, which costs a system call; only a readable one gets Django's `SELECT 1`,
which reads what arrived and says whether the connection still works. The MySQL driver
of Go's database/sql checks its connections the same way.

Django reads every `timestamptz` through a loader of its own: psycopg's pure-Python
parser, then the time zone put on the result. psycopg's compiled loader does the same
at a sixteenth of the cost (0.2 against 3.2 µs a value, measured); the table's query of
every move and GET reads fourteen timestamps, the table's and the game's once per seat,
and took 197 instead of 229 µs of CPU. When Django's zone for the connection is UTC,
which it makes the session's own (`TIME_ZONE` "UTC" with `USE_TZ`), the compiled
loader's results are exactly Django's: aware, in `datetime.UTC`.
"""

from __future__ import annotations

import datetime
import functools
import select
from typing import Any

import psycopg
from django.db.backends.postgresql import base
from psycopg import abc, adapt, postgres, pq

TIMESTAMPTZ_OID = postgres.types["timestamptz"].oid


class UtcTimestamptzLoader(adapt.Loader):
    """psycopg's own `timestamptz` loader (compiled, with psycopg's binary package),
    under the `timezone` name Django's cursors check against the connection's zone
    (`create_cursor`): a connection in UTC needs no loader of Django's."""

    timezone = datetime.UTC

    def __init__(self, oid: int, context: abc.AdaptContext | None = None) -> None:
        super().__init__(oid, context)
        compiled = psycopg.adapters.get_loader(TIMESTAMPTZ_OID, pq.Format.TEXT)
        assert compiled is not None
        self.compiled = compiled(oid, context)
        # psycopg's row loader calls `load` of the instance: the compiled loader's own
        # bound method, with no Python frame of ours in between.
        self.load = self.compiled.load  # type: ignore[method-assign]

    def load(self, data: Any) -> datetime.datetime:
        return self.compiled.load(data)  # type: ignore[no-any-return]


@functools.cache
def utc_adapters(template: adapt.AdaptersMap) -> adapt.AdaptersMap:
    """Django's adapters for a connection, with `UtcTimestamptzLoader` for timestamps."""
    adapters = adapt.AdaptersMap(template)
    adapters.register_loader(TIMESTAMPTZ_OID, UtcTimestamptzLoader)
    return adapters


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self) -> dict[str, Any]:
        params: dict[str, Any] = super().get_connection_params()
        if self.timezone is datetime.UTC and self.timezone_name == "UTC":
            params["context"] = utc_adapters(params["context"])
        return params

    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None or connection.closed or connection.broken:
            return False
        poll = select.poll()
        poll.register(connection.fileno(), select.POLLIN)
        if not poll.poll(0):
            return True
        return bool(super().is_usable())
