"""A PostgreSQL connection of the test's own, beside Django's: to hold a lock as another
process would, or to end Django's backend as a restart would."""

from __future__ import annotations

from typing import Any

import psycopg
from django.db import connection


def second_connection(*, autocommit: bool = False) -> psycopg.Connection[Any]:
    """A new connection to the database Django's connection uses."""
    s = connection.settings_dict
    return psycopg.connect(
        host=s["HOST"], port=s["PORT"] or None, user=s["USER"], password=s["PASSWORD"],
        dbname=s["NAME"], autocommit=autocommit,
    )  # fmt: skip


def terminate_backend(pid: int) -> None:
    """End the PostgreSQL backend `pid` from a second connection, and wait until it is
    gone."""
    with second_connection(autocommit=True) as other:
        killed = other.execute("SELECT pg_terminate_backend(%s, 10000)", [pid]).fetchone()
    assert killed == (True,)
