"""The scratch database a benchmark makes, migrates and drops: on the server of
`DATABASE_URL` (else the embedded PostgreSQL), named after the benchmark and that
database, so checkouts benchmarked at once on one server do not share it; Django set
up on it with production settings (`harness.serving.server_env`)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import unquote, urlsplit

import psycopg
from psycopg import sql

from harness.serving import server_env


def scratch_url(base: str, bench: str) -> str:
    """A database of the bench's own beside `base`'s."""
    parts = urlsplit(base)
    name = unquote(parts.path.lstrip("/")) or "postgres"
    return parts._replace(path=f"/{name}_{bench}").geturl()


def recreate(url: str, *, drop_only: bool = False) -> None:
    parts = urlsplit(url)
    name = unquote(parts.path.lstrip("/"))
    with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        if not drop_only:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


@contextmanager
def scratch_database(bench: str, env: dict[str, str] | None = None) -> Iterator[None]:
    """Django on a fresh, migrated scratch database for the bench, with `env` over the
    production settings; the database is dropped after, whatever happened."""
    base = os.environ.get("DATABASE_URL")
    if not base:
        from bansugoroku.development.embedded_db import database_url

        base = database_url()
    url = scratch_url(base, bench)
    recreate(url)
    os.environ.update(server_env(url) | (env or {}))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bansugoroku.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    try:
        call_command("migrate", verbosity=0)
        yield
    finally:
        connections.close_all()
        recreate(url, drop_only=True)
