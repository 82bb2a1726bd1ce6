"""The connection's health check (bansugoroku.runtime.postgresql): no round trip while the
connection is well, and a connection the server ended is found out and replaced."""

from __future__ import annotations

import datetime

import pytest
from django.db import close_old_connections, connection

from tests.second_connection import second_connection, terminate_backend

pytestmark = pytest.mark.django_db(transaction=True)  # the test closes the connection


def last_query(pid: int) -> str:
    """The last statement the backend `pid` ran, as another connection sees it."""
    with second_connection(autocommit=True) as other:
        row = other.execute("SELECT query FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone()
    assert row is not None
    return str(row[0])


def test_the_backend_is_ours():
    assert connection.vendor == "postgresql"
    assert connection.settings_dict["ENGINE"] == "bansugoroku.runtime.postgresql"
    assert connection.health_check_enabled


def test_a_well_connection_is_checked_without_a_query():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 'before the check'")
    pid = connection.connection.info.backend_pid

    assert connection.is_usable()
    assert last_query(pid) == "SELECT 'before the check'"


def test_a_connection_the_server_ended_is_not_usable():
    connection.ensure_connection()
    terminate_backend(connection.connection.info.backend_pid)

    assert not connection.is_usable()
    connection.close()  # as Django does with a connection that is not usable


def test_a_request_after_the_server_ended_the_connection_gets_a_new_one():
    connection.ensure_connection()
    old = connection.connection.info.backend_pid
    terminate_backend(old)

    # What Django does at the start of each request, then the request's first query.
    close_old_connections()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (new,) = cursor.fetchone()

    assert new != old


def test_timestamps_are_read_by_psycopg_own_loader_in_django_utc():
    """The compiled loader gives what Django's own gives: aware, in `timezone.utc`."""
    from django.db.backends.postgresql.psycopg_any import BaseTzLoader

    from bansugoroku.runtime.postgresql.base import TIMESTAMPTZ_OID, UtcTimestamptzLoader

    texts = ["2026-06-01 12:00:00+02", "1999-12-31 23:59:59.999999-08", "2027-03-28 01:30:00+00"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(["%s::timestamptz"] * len(texts)), texts)
        ours = cursor.fetchone()
        loader = cursor.cursor.adapters.get_loader(TIMESTAMPTZ_OID, 0)

    class DjangosLoader(BaseTzLoader):
        timezone = datetime.UTC

    with connection.cursor() as cursor:
        cursor.cursor.adapters.register_loader(TIMESTAMPTZ_OID, DjangosLoader)
        cursor.execute("SELECT " + ", ".join(["%s::timestamptz"] * len(texts)), texts)
        djangos = cursor.fetchone()

    assert loader is UtcTimestamptzLoader
    assert ours == djangos
    assert [value.tzinfo for value in ours] == [datetime.UTC] * len(texts)
    assert ours[0] == datetime.datetime(2026, 6, 1, 10, 0, tzinfo=datetime.UTC)
