"""The site as an installable app, as served: the manifest in the reader's language, its
icons, the tags every page carries for it, and a policy that lets both load."""

from __future__ import annotations

import struct

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from tests.front.pages import policy


def png_size(path: str) -> tuple[int, int]:
    """Width and height from a PNG's header (its IHDR chunk)."""
    found = finders.find(path.removeprefix("/static/"))
    assert found, f"no static file {path}"
    with open(found, "rb") as png:
        header = png.read(24)
    assert header[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is no PNG"
    width, height = struct.unpack(">II", header[16:24])
    return width, height


def test_the_manifest_opens_the_players_tables_standalone_with_icons_of_every_size(db):
    answer = Client().get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/manifest+json"
    assert "max-age=86400" in answer["Cache-Control"]
    assert {"Accept-Language", "Cookie"} <= {v.strip() for v in answer["Vary"].split(",")}
    manifest = answer.json()
    assert manifest["start_url"] == "/me/tables"
    assert manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == manifest["background_color"] == "#f6f1e7"
    assert (manifest["name"], manifest["short_name"]) == (
        "Ban-sugoroku: old Japanese backgammon",
        "Ban-sugoroku",
    )
    icons = {(icon["sizes"], icon["purpose"]): icon["src"] for icon in manifest["icons"]}
    assert set(icons) == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for (sizes, _), src in icons.items():
        assert "x".join(map(str, png_size(src))) == sizes


@pytest.mark.parametrize(
    ("language", "short_name"),
    [("ja", "盤双六"), ("de", "Ban-sugoroku"), ("fr", "Ban-sugoroku"), ("ru", "Бан-сугороку")],
)
def test_the_manifest_is_in_the_readers_language(db, language, short_name):
    manifest = Client().get("/manifest.webmanifest", headers={"Accept-Language": language})
    assert manifest.json()["lang"] == language
    assert manifest.json()["short_name"] == short_name
    assert manifest.json()["name"] != "Ban-sugoroku: old Japanese backgammon"
    assert short_name.encode() in manifest.content  # as UTF-8, not \u escapes


def test_the_manifest_takes_no_post(db):
    assert Client().post("/manifest.webmanifest").status_code == 405


@pytest.mark.parametrize("path", ["/", "/me/tables", "/settings", "/rules"])
def test_every_page_names_the_manifest_the_ios_icon_and_the_app_script(db, path):
    page = Client().get(path)
    html = page.content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert '<meta name="apple-mobile-web-app-capable" content="yes">' in html
    assert '<meta name="theme-color" content="#f6f1e7">' in html
    assert 'src="/static/front/app.js"' in html
    assert png_size("/static/front/icons/board-maskable-180.png") == (180, 180)
    assert 'rel="apple-touch-icon" href="/static/front/icons/board-maskable-180.png"' in html
    directives = policy(page)
    assert directives["manifest-src"] == directives["worker-src"] == ["'self'"]


def test_the_settings_explain_installing_on_each_platform(db):
    html = Client().get("/settings").content.decode()
    for platform in ("ios", "android", "desktop"):
        assert f'data-platform="{platform}"' in html
    assert "Add to Home Screen" in html
    assert 'data-test="install"' in html
