"""An invitation link shows a preview in a chat app (OpenGraph), and opens the app when
one is configured (Android App Links, iOS universal links)."""

from __future__ import annotations

import html
import re

import pytest

from tests.factories import PlayerFactory, SeatFactory, TableFactory
from tests.production_settings import PRODUCTION_ENV, load_settings

FINGERPRINT = ":".join(["AB"] * 32)


def og(content: str) -> dict[str, str]:
    found = re.findall(r'<meta property="og:(\w+)" content="([^"]*)">', content)
    return {name: html.unescape(value) for name, value in found}


@pytest.mark.django_db
def test_an_invitation_page_has_a_preview(client, settings):
    settings.SITE_URL = "https://play.example.com"
    table = TableFactory(host__name="Aiko <3")
    content = client.get(f"/t/{table.code.lower()}").content.decode()
    tags = og(content)
    assert tags["title"] == "Aiko <3 invites you to Ban-sugoroku"
    assert tags["description"] == f"A seat is free at table {table.code}. Join it in the browser."
    shown = re.sub(r"<[^>]*>", " ", content.split("</head>", 1)[1])  # what a reader sees
    assert not re.search(r"\bapps?\b", shown, re.IGNORECASE), "no app is configured"
    assert tags["url"] == f"https://play.example.com/t/{table.code}"
    assert tags["type"] == "website"
    assert f'<meta name="description" content="{html.escape(tags["description"])}">' in content
    assert "Aiko &lt;3" in content


@pytest.mark.django_db
def test_the_invitation_mentions_the_app_only_where_there_is_one(client, settings):
    table = TableFactory(host=PlayerFactory(name="Aiko"))
    settings.ANDROID_APP_PACKAGE, settings.IOS_APP_ID = None, None
    assert "the Ban-sugoroku app" not in client.get(f"/t/{table.code}").content.decode()
    settings.IOS_APP_ID = "ABCDE12345.com.example.bansugoroku"
    content = client.get(f"/t/{table.code}").content.decode()
    assert "the Ban-sugoroku app" in content
    assert og(content)["description"].endswith("Join it in the browser or the app.")


@pytest.mark.django_db
def test_a_full_table_says_so_and_a_missing_one_has_no_preview(client, settings):
    settings.SITE_URL = None
    table = SeatFactory().table
    tags = og(client.get(f"/t/{table.code}", headers={"Host": "localhost:8000"}).content.decode())
    assert tags["description"] == f"Both seats at table {table.code} are taken."
    assert tags["url"] == f"http://localhost:8000/t/{table.code}"
    assert og(client.get("/t/ZZZZZZ").content.decode()) == {}


def test_without_apps_there_are_no_association_files(client, settings):
    settings.ANDROID_APP_PACKAGE, settings.ANDROID_CERT_SHA256, settings.IOS_APP_ID = None, [], None
    assert client.get("/.well-known/assetlinks.json").status_code == 404
    assert client.get("/.well-known/apple-app-site-association").status_code == 404


def test_the_android_app_opens_invitation_links(client, settings):
    settings.ANDROID_APP_PACKAGE = "com.example.bansugoroku"
    settings.ANDROID_CERT_SHA256 = [FINGERPRINT]
    answer = client.get("/.well-known/assetlinks.json")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
    assert answer.json() == [
        {
            "relation": ["delegate_permission/common.handle_all_urls"],
            "target": {
                "namespace": "android_app",
                "package_name": "com.example.bansugoroku",
                "sha256_cert_fingerprints": [FINGERPRINT],
            },
        }
    ]


def test_the_ios_app_opens_invitation_links_and_the_table_links_of_mails(client, settings):
    settings.IOS_APP_ID = "ABCDE12345.com.example.bansugoroku"
    answer = client.get("/.well-known/apple-app-site-association")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
    (detail,) = answer.json()["applinks"]["details"]
    assert detail["appIDs"] == ["ABCDE12345.com.example.bansugoroku"]
    assert detail["components"] == [
        {"/": "/t/*"},
        {"/": "/tables/*/*", "exclude": True},
        {"/": "/tables/*"},
    ]
    assert detail["paths"] == ["/t/*", "NOT /tables/*/*", "/tables/*"]


@pytest.mark.slow
def test_the_app_settings_are_read_strictly():
    env = {
        **PRODUCTION_ENV,
        "ANDROID_APP_PACKAGE": "com.example.bansugoroku",
        "ANDROID_CERT_SHA256": FINGERPRINT.lower(),
        "IOS_APP_ID": "ABCDE12345.com.example.bansugoroku",
    }
    loaded = load_settings(env, "settings.ANDROID_CERT_SHA256 == [settings.ANDROID_CERT_SHA256[0]]")
    assert loaded.returncode == 0 and loaded.stdout.strip() == "True", loaded.stderr
    for name, bad in [
        ("ANDROID_CERT_SHA256", "AB:CD"),
        ("ANDROID_CERT_SHA256", ""),  # a package without its certificate
        ("ANDROID_APP_PACKAGE", "bansugoroku"),
        ("IOS_APP_ID", "com.example.bansugoroku"),
    ]:
        result = load_settings({**env, name: bad})
        assert result.returncode != 0, (name, bad)
        assert "ImproperlyConfigured" in result.stderr and name in result.stderr, result.stderr
