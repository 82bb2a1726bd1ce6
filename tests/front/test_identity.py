"""The web page's identity: the player's token in an HttpOnly cookie, accepted by the API
for reads, and for changes only with Django's CSRF token."""

import pytest
from django.test import Client

from bansugoroku.front.identity import COOKIE

pytestmark = pytest.mark.django_db


def browser(token: str, *, enforce_csrf_checks: bool = True) -> Client:
    client = Client(enforce_csrf_checks=enforce_csrf_checks)
    client.cookies[COOKIE] = token
    return client


def test_the_cookie_names_the_player(host):
    answer = browser(host.token).get("/api/v1/players/me")
    assert answer.status_code == 200
    assert answer.json()["name"] == "Aiko"


def test_a_change_without_the_csrf_token_is_refused(host):
    answer = browser(host.token).post("/api/v1/tables", {}, content_type="application/json")
    assert answer.status_code == 403
    assert "CSRF" in answer.json()["detail"]


def test_a_change_with_the_csrf_token_goes_through(host):
    client = browser(host.token)
    client.cookies["csrftoken"] = "k" * 32
    answer = client.post(
        "/api/v1/tables", {}, content_type="application/json", headers={"X-CSRFToken": "k" * 32}
    )
    assert answer.status_code == 201, answer.json()


def test_a_stale_cookie_is_no_one(db):
    assert browser("no-such-token").get("/api/v1/players/me").status_code == 401


def test_a_bearer_token_needs_no_csrf_token(host):
    """The apps send no cookie, so the check does not apply to them."""
    client = Client(enforce_csrf_checks=True)
    answer = client.post(
        "/api/v1/tables",
        {},
        content_type="application/json",
        headers={"Authorization": f"Bearer {host.token}"},
    )
    assert answer.status_code == 201


def test_the_state_read_with_the_cookie_varies_with_it(host):
    """Both seats see the same ETag: a browser cache must not answer one player's
    revalidation with the other's view, after a device link changed the cookie."""
    code = host.post("tables").body["code"]
    answer = browser(host.token).get(f"/api/v1/tables/{code}")
    assert answer.status_code == 200
    assert {"authorization", "cookie"} <= {
        value.strip().lower() for value in answer["Vary"].split(",")
    }
