"""The push keys from the environment: VAPID in each form it is given, the development key
made once, push off in production without a key, FCM's service account; the command that
makes a production key; and the admin pages of subscriptions and devices."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.test import Client

from notifications.channels.keys import (
    development_vapid_key,
    fcm_service_account,
    new_vapid_key,
    parse_vapid_key,
    raw_private_key,
    raw_public_key,
    vapid_subject,
)
from tests.factories import DeviceTokenFactory, PlayerFactory, PushSubscriptionFactory
from tests.production_settings import PRODUCTION_ENV, load_settings


def test_a_raw_key_and_its_pem_are_the_same_key():
    key = new_vapid_key()
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    one_line = pem.strip().replace("\n", "\\n")  # as an environment file may hold it
    for given in (raw_private_key(key), raw_private_key(key) + "=", pem, one_line):
        assert raw_public_key(parse_vapid_key(given)) == raw_public_key(key)


@pytest.mark.parametrize(
    "value",
    [
        "not a key",
        "AAAA",  # 3 bytes
        "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----",
    ],
)
def test_a_bad_vapid_key_stops_startup(value):
    with pytest.raises(ImproperlyConfigured, match="VAPID_PRIVATE_KEY"):
        parse_vapid_key(value)


def test_a_key_on_another_curve_is_refused():
    from cryptography.hazmat.primitives.asymmetric import ec

    pem = (
        ec.generate_private_key(ec.SECP384R1())
        .private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        .decode()
    )
    with pytest.raises(ImproperlyConfigured, match="P-256"):
        parse_vapid_key(pem)


def test_the_development_key_is_made_once_even_by_processes_starting_together(tmp_path: Path):
    folder = tmp_path / ".vapid"
    keys: list[str] = []
    threads = [
        threading.Thread(target=lambda: keys.append(raw_public_key(development_vapid_key(folder))))
        for _ in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(keys)) == 1
    assert [p.name for p in folder.iterdir()] == ["private_key.pem"]
    assert (folder / "private_key.pem").stat().st_mode & 0o077 == 0
    assert raw_public_key(development_vapid_key(folder)) == keys[0]


def test_the_vapid_subject_defaults_to_the_sender_and_must_be_a_contact():
    assert vapid_subject(None, "Ban-sugoroku <play@example.com>") == "mailto:play@example.com"
    assert vapid_subject("https://example.com/contact", "") == "https://example.com/contact"
    with pytest.raises(ImproperlyConfigured, match="VAPID_SUBJECT"):
        vapid_subject("admin@example.com", "")


ACCOUNT = {
    "type": "service_account",
    "project_id": "p",
    "private_key": "-----BEGIN PRIVATE KEY-----\n...",
    "client_email": "push@p.iam.gserviceaccount.com",
    "token_uri": "https://oauth2.googleapis.com/token",
}


def test_fcm_credentials_are_the_json_or_its_file(tmp_path: Path):
    path = tmp_path / "account.json"
    path.write_text(json.dumps(ACCOUNT))
    assert fcm_service_account(str(path)) == ACCOUNT
    assert fcm_service_account(json.dumps(ACCOUNT)) == ACCOUNT


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("/no/such/file.json", "cannot read"),
        ("{not json", "not JSON"),
        (json.dumps({**ACCOUNT, "type": "authorized_user"}), "service_account"),
        (json.dumps({k: v for k, v in ACCOUNT.items() if k != "private_key"}), "private_key"),
        ("[1, 2]", "service_account"),  # in a file
    ],
)
def test_bad_fcm_credentials_stop_startup(tmp_path: Path, value, message):
    if value.startswith("["):
        (tmp_path / "account.json").write_text(value)
        value = str(tmp_path / "account.json")
    with pytest.raises(ImproperlyConfigured, match=message):
        fcm_service_account(value)


@pytest.mark.slow
def test_production_without_a_key_starts_with_push_off():
    result = load_settings(PRODUCTION_ENV, "settings.VAPID_PUBLIC_KEY, settings.FCM_CREDENTIALS")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "None None"


@pytest.mark.slow
def test_production_derives_the_public_key_from_the_private_one():
    key = new_vapid_key()
    env = {**PRODUCTION_ENV, "VAPID_PRIVATE_KEY": raw_private_key(key)}
    result = load_settings(env, "settings.VAPID_PUBLIC_KEY")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == raw_public_key(key)


@pytest.mark.slow
def test_a_bad_key_in_production_stops_startup():
    result = load_settings({**PRODUCTION_ENV, "VAPID_PRIVATE_KEY": "oops"})
    assert result.returncode != 0
    assert "ImproperlyConfigured: VAPID_PRIVATE_KEY" in result.stderr


def test_the_command_prints_a_key_pair_that_works(capsys):
    call_command("vapid_keys")
    lines = capsys.readouterr().out.splitlines()
    private = lines[0].removeprefix("VAPID_PRIVATE_KEY=")
    assert lines[1].endswith(raw_public_key(parse_vapid_key(private)))


@pytest.mark.django_db
def test_the_admin_lists_subscriptions_and_devices():
    player = PlayerFactory(name="Aiko")
    PushSubscriptionFactory(player=player, label="Fx")
    DeviceTokenFactory(player=player)
    staff = Client()
    staff.force_login(get_user_model().objects.create_superuser("root", "r@example.com", None))
    for model in ("pushsubscription", "devicetoken"):
        page = staff.get(f"/admin/notifications/{model}/")
        assert page.status_code == 200
        assert b"Aiko" in page.content
        assert staff.get(f"/admin/notifications/{model}/add/").status_code == 403
