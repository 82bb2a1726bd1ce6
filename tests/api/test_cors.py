"""CORS: a web client served from another origin (a web app, Flutter's or Expo's
development server) may call the API when its origin is listed, and only the API."""

from __future__ import annotations

import pytest

from tests.client import Api
from tests.production_settings import PRODUCTION_ENV, load_settings

ALLOWED = "http://localhost:5173"
REFUSED = "https://evil.example"


@pytest.fixture(autouse=True)
def allowed_origins(settings):
    settings.CORS_ALLOWED_ORIGINS = [ALLOWED, "https://play.example.com"]


def preflight(api: Api, origin: str, path: str = "players"):
    return api.call(
        "OPTIONS",
        path,
        Origin=origin,
        **{
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type, if-none-match",
        },
    )


def test_a_preflight_from_an_allowed_origin_is_answered(api):
    answer = preflight(api, ALLOWED)
    assert answer.status == 200
    assert answer.headers["Access-Control-Allow-Origin"] == ALLOWED
    assert "POST" in answer.headers["Access-Control-Allow-Methods"]
    allowed_headers = answer.headers["Access-Control-Allow-Headers"]
    for header in ("authorization", "content-type", "if-none-match"):
        assert header in allowed_headers
    assert "Access-Control-Allow-Credentials" not in answer.headers


def test_a_preflight_from_another_origin_gets_no_permission(api):
    answer = preflight(api, REFUSED)
    assert "Access-Control-Allow-Origin" not in answer.headers


def test_a_request_from_an_allowed_origin_may_be_read_with_its_headers(api, host, table):
    created = api.post("players", {"name": "Aiko"}, Origin=ALLOWED)
    assert created.status == 201
    assert created.headers["Access-Control-Allow-Origin"] == ALLOWED
    state = host.get(f"tables/{table}", Origin=ALLOWED)
    assert state.headers["Access-Control-Allow-Origin"] == ALLOWED
    exposed = state.headers["Access-Control-Expose-Headers"]
    assert "ETag" in exposed and "Retry-After" in exposed
    assert "origin" in state.headers["Vary"].lower()
    # Errors too, so that the client can read the problem.
    missing = api.get("players/me", Origin=ALLOWED)
    assert missing.status == 401
    assert missing.headers["Access-Control-Allow-Origin"] == ALLOWED


def test_a_request_from_a_refused_origin_carries_no_permission(api):
    created = api.post("players", {"name": "Aiko"}, Origin=REFUSED)
    assert created.status == 201  # CORS is for the browser to enforce
    assert "Access-Control-Allow-Origin" not in created.headers


def test_only_the_api_answers_cross_origin(db, client):
    for path in ("/healthz", "/", "/admin/login/"):
        answer = client.get(path, headers={"Origin": ALLOWED})
        assert "Access-Control-Allow-Origin" not in answer, path


@pytest.mark.slow
def test_no_origin_is_allowed_by_default_and_the_list_is_read_strictly():
    result = load_settings(PRODUCTION_ENV, "settings.CORS_ALLOWED_ORIGINS")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
    listed = {**PRODUCTION_ENV, "CORS_ALLOWED_ORIGINS": f" {ALLOWED}, https://play.example.com "}
    result = load_settings(listed, "settings.CORS_ALLOWED_ORIGINS")
    assert result.stdout.strip() == repr([ALLOWED, "https://play.example.com"])
    bad_values = ["localhost:5173", "https://play.example.com/", "https://*.example.com", "*"]
    bad_values += ["https://play.example.com/app", "ftp://example.com", "http://host:port"]
    for bad in bad_values:
        result = load_settings({**PRODUCTION_ENV, "CORS_ALLOWED_ORIGINS": bad})
        assert result.returncode != 0, bad
        assert "CORS_ALLOWED_ORIGINS" in result.stderr and "is not an origin" in result.stderr
