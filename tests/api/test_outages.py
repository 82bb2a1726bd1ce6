"""While PostgreSQL is down, every API answer is a 503 problem+json, and service comes
back with the database. Real gunicorn with production settings, against a PostgreSQL of
the test's own that it stops and starts; the cache (Redis) is unreachable throughout.
"""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
from typing import Any

import pytest

from harness.serving import HOST, ROOT, free_port, gunicorn, server_env
from tests.throwaway_postgres import throwaway_postgres

pytestmark = pytest.mark.slow

PROBLEM = "application/problem+json"


def call(
    port: int, method: str, path: str, body: Any = None, token: str = ""
) -> tuple[int, Any, Any]:
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        conn.request(method, f"/api/v1/{path}", json.dumps(body) if body is not None else None,
                     headers)  # fmt: skip
        response = conn.getresponse()
        content = response.read()
        kind = response.getheader("Content-Type", "")
        return response.status, json.loads(content) if "json" in kind else content, response
    finally:
        conn.close()


def assert_unavailable(answer: tuple[int, Any, Any]) -> None:
    status, body, response = answer
    assert status == 503, body
    assert response.getheader("Content-Type") == PROBLEM
    assert body["code"] == "unavailable"
    assert int(response.getheader("Retry-After")) > 0


def test_database_down_is_503_problem_json_and_service_comes_back():
    with throwaway_postgres() as cluster:
        env = server_env(cluster.url) | {
            # The cache is unreachable too: rate limits fail open, requests go on.
            "CACHE_URL": f"redis://{HOST}:{free_port()}/0",
            "THROTTLE_PLAYER": "1200/min",
            "THROTTLE_ADDRESS": "6000/min",
        }
        migrate = [sys.executable, "manage.py", "migrate", "--noinput"]
        subprocess.run(migrate, cwd=ROOT, env=env, check=True, capture_output=True, timeout=120)
        with gunicorn(["--workers", "1"], env) as (port, _):
            status, created, _ = call(port, "POST", "players", {"name": "Aiko"})
            assert status == 201, created
            token = created["token"]
            assert call(port, "GET", "players/me", token=token)[0] == 200

            cluster.stop()
            assert_unavailable(call(port, "GET", "players/me", token=token))
            assert_unavailable(call(port, "GET", "tables", token=token))
            assert_unavailable(call(port, "POST", "players", {"name": "Ben"}))
            assert_unavailable(call(port, "POST", "tables", {"rules": {}}, token=token))
            assert_unavailable(call(port, "GET", "tables/ABCDEF/events", token=token))
            status, body, _ = call(port, "GET", "problems/unavailable")
            assert status == 200 and body["status"] == 503

            cluster.start()
            status, me, _ = call(port, "GET", "players/me", token=token)
            assert status == 200, me
            assert me["name"] == "Aiko"
            assert call(port, "POST", "tables", {"rules": {}}, token=token)[0] == 201
