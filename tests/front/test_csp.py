"""Content-Security-Policy: every HTML page says where its scripts and styles may come
from; nothing runs inline, and inline styles need the request's nonce."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.staticfiles import finders
from django.test import Client

from tests.client import Api
from tests.front.pages import policy


def assert_inline_code_is_covered(response) -> None:
    """No inline <script>; every inline <style> carries the nonce the policy names."""
    html = response.content.decode()
    directives = policy(response)
    assert directives["script-src"] == ["'self'"]
    assert "'unsafe-inline'" not in directives["style-src"]
    # A JSON data block (the table page's state and sentences) is read, never run.
    code = r'<script(?![^>]*\b(?:src=|type="application/json"))[^>]*>'
    assert not re.search(code, html), "an inline script"
    nonces = {f"'nonce-{n}'" for n in re.findall(r'<style nonce="([^"]+)"', html)}
    assert len(re.findall(r"<style\b", html)) == len(re.findall(r"<style nonce=", html))
    assert nonces <= set(directives["style-src"])
    assert re.search(r"\son\w+=", html) is None, "an inline event handler"


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/admin/login/"])
def test_html_pages_send_a_tight_policy(client, path):
    page = client.get(path)
    assert page.status_code == 200
    directives = policy(page)
    assert directives["default-src"] == ["'none'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert_inline_code_is_covered(page)


@pytest.mark.django_db
def test_an_invitation_page_sends_the_policy(client):
    code = Api().new_player("Aiko").post("tables", {}).body["code"]
    page = client.get(f"/t/{code}")
    assert page.status_code == 200
    assert_inline_code_is_covered(page)


@pytest.mark.django_db
def test_the_table_page_sends_the_policy(client):
    from bansugoroku.front.identity import COOKIE

    host = Api().new_player("Aiko")
    code = host.post("tables", {}).body["code"]
    client.cookies[COOKIE] = host.token
    page = client.get(f"/tables/{code}")
    assert page.status_code == 200
    assert_inline_code_is_covered(page)
    assert '<script id="state" type="application/json">' in page.content.decode()


@pytest.mark.django_db
def test_the_admin_works_under_the_policy():
    get_user_model().objects.create_superuser("root", "root@example.com", None)
    staff = Client()
    staff.force_login(get_user_model().objects.get())
    for path in ["/admin/", "/admin/games/table/", "/admin/auth/user/add/"]:
        page = staff.get(path)
        assert page.status_code == 200, path
        assert_inline_code_is_covered(page)


@pytest.mark.django_db
def test_swagger_ui_loads_its_start_up_script_from_the_site(client):
    page = client.get("/api/docs/")
    assert page.status_code == 200
    assert_inline_code_is_covered(page)
    html = page.content.decode()
    sources = re.findall(r'<script src="([^"]+)"', html)
    assert len(sources) == 3 and all(src.startswith("/") for src in sources), sources
    stylesheet = re.search(r'rel="stylesheet" href="([^"]+)"', html)[1]
    for src in [*sources[:2], stylesheet]:  # Swagger UI itself, from our static files
        assert finders.find(src.removeprefix("/static/")), src
    script = client.get(sources[2].replace("&amp;", "&"))
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    assert b"SwaggerUIBundle" in script.content and b"/api/schema/" in script.content


@pytest.mark.django_db
def test_api_answers_carry_no_policy(client):
    assert "Content-Security-Policy" not in Api().get("players/me").headers
    assert "Content-Security-Policy" not in client.get("/api/schema/")
