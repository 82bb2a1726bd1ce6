"""The DATABASE_URL the tests give the processes they start (`harness.databases`)
reaches the test database, on CI's server at 127.0.0.1 and on the embedded one of a
clean clone, whose host is a socket folder."""

from __future__ import annotations

import dj_database_url
import psycopg
import pytest
from django.db import connection

from harness.databases import database_url

pytestmark = pytest.mark.django_db


def test_the_url_reaches_the_database_this_process_uses():
    url = database_url(connection.settings_dict)

    with psycopg.connect(url) as other:
        row = other.execute("SELECT current_database()").fetchone()

    assert row == (connection.settings_dict["NAME"],)


@pytest.mark.parametrize(
    "host", ["127.0.0.1", "/home/ai ko/project/.pgdata/run", "/tmp/pg:sock"], ids=str
)
def test_the_url_names_the_same_server_whatever_its_host(host):
    settings = {"USER": "postgres", "PASSWORD": "p@ss:w/rd", "HOST": host, "PORT": 5433}

    parsed = dj_database_url.parse(database_url(settings, "test_bansugoroku"))

    assert (parsed["HOST"], parsed["PORT"], parsed["NAME"]) == (host, 5433, "test_bansugoroku")
    assert (parsed["USER"], parsed["PASSWORD"]) == ("postgres", "p@ss:w/rd")
