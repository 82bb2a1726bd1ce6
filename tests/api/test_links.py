"""Links that leave the site: SITE_URL when it is set, else the host that served the
request (development: a phone on the same network gets links it can open). The API
schema names SITE_URL as its server."""

from __future__ import annotations

import json

import pytest

from bansugoroku.lib.site import DEVELOPMENT_URL, site_url
from tests.production_settings import PRODUCTION_ENV, load_settings, run_python

LAN_HOST = "192.168.1.23:8000"


@pytest.fixture
def lan(settings):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "192.168.1.23"]


def test_without_site_url_an_invitation_names_the_host_that_served_it(settings, lan, host):
    settings.SITE_URL = None
    state = host.post("tables", {}, Host=LAN_HOST).body
    assert state["invite_url"] == f"http://{LAN_HOST}/t/{state['code']}"
    again = host.get(f"tables/{state['code']}", Host="localhost:8000").body
    assert again["invite_url"] == f"http://localhost:8000/t/{state['code']}"


def test_without_site_url_a_secure_request_gets_an_https_link(settings, host):
    settings.SITE_URL = None
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    state = host.post("tables", {}, Host="localhost", **{"X-Forwarded-Proto": "https"}).body
    assert state["invite_url"] == f"https://localhost/t/{state['code']}"


def test_site_url_wins_over_the_request_host(settings, lan, host):
    settings.SITE_URL = "https://play.example.com"
    state = host.post("tables", {}, Host=LAN_HOST).body
    assert state["invite_url"] == f"https://play.example.com/t/{state['code']}"


def test_outside_a_request_links_use_site_url_or_the_development_address(settings):
    settings.SITE_URL = None
    assert site_url() == DEVELOPMENT_URL
    settings.SITE_URL = "https://play.example.com"
    assert site_url() == "https://play.example.com"


@pytest.mark.slow
def test_without_debug_site_url_is_set_or_derived_from_allowed_hosts():
    derived = load_settings(PRODUCTION_ENV, "settings.SITE_URL")
    assert derived.stdout.strip() == "https://example.com", derived.stderr
    given = load_settings({**PRODUCTION_ENV, "SITE_URL": "https://play.example.com/"})
    assert given.returncode == 0, given.stderr
    wildcard = load_settings({**PRODUCTION_ENV, "ALLOWED_HOSTS": "*"})
    assert wildcard.returncode != 0
    assert "SITE_URL must be set when DEBUG is off and ALLOWED_HOSTS starts with '*'" in (
        wildcard.stderr
    )


def schema_servers(env: dict[str, str]) -> list[dict[str, str]] | None:
    result = run_python(["manage.py", "spectacular", "--format", "openapi-json"], env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout).get("servers")


@pytest.mark.slow
def test_the_schema_names_site_url_as_its_server():
    servers = schema_servers({**PRODUCTION_ENV, "SITE_URL": "https://play.example.com"})
    assert servers == [{"url": "https://play.example.com"}]


@pytest.mark.slow
def test_without_site_url_in_development_the_schema_names_no_server():
    """Clients then resolve the paths against the schema's own address."""
    env = {"DEBUG": "1", "DATABASE_URL": PRODUCTION_ENV["DATABASE_URL"]}
    assert schema_servers(env) is None
