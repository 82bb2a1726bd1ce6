from datetime import timedelta

import pytest
from django.core.exceptions import ImproperlyConfigured

from bansugoroku.env import (
    env_bool,
    env_choice,
    env_duration,
    env_int,
    env_list,
    env_prefixed,
    env_required,
    env_url,
)
from tests.production_settings import PRODUCTION_ENV, load_settings, run_python

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("value", ["1", "true", "True", "YES", "on", " 1 "])
def test_env_bool_true(monkeypatch, value):
    monkeypatch.setenv("FLAG", value)
    assert env_bool("FLAG", default=False) is True


@pytest.mark.parametrize("value", ["0", "false", "FALSE", "no", "off"])
def test_env_bool_false(monkeypatch, value):
    monkeypatch.setenv("FLAG", value)
    assert env_bool("FLAG", default=True) is False


@pytest.mark.parametrize("value", ["maybe", "2", "tru", "none"])
def test_env_bool_rejects_other_values(monkeypatch, value):
    monkeypatch.setenv("FLAG", value)
    with pytest.raises(ImproperlyConfigured, match="FLAG"):
        env_bool("FLAG", default=False)


@pytest.mark.parametrize("value", [None, "", "  "])
def test_unset_or_empty_means_default(monkeypatch, value):
    if value is None:
        monkeypatch.delenv("FLAG", raising=False)
    else:
        monkeypatch.setenv("FLAG", value)
    assert env_bool("FLAG", default=True) is True
    assert env_int("FLAG", 7) == 7
    assert env_list("FLAG", ["a"]) == ["a"]


def test_env_int(monkeypatch):
    monkeypatch.setenv("N", "42")
    assert env_int("N", 0) == 42
    monkeypatch.setenv("N", "4x")
    with pytest.raises(ImproperlyConfigured, match="not an integer"):
        env_int("N", 0)
    monkeypatch.setenv("N", "-1")
    with pytest.raises(ImproperlyConfigured, match="at least 0"):
        env_int("N", 0, minimum=0)
    monkeypatch.setenv("N", "129")
    with pytest.raises(ImproperlyConfigured, match="at most 128"):
        env_int("N", 0, maximum=128)


def test_env_list(monkeypatch):
    monkeypatch.setenv("HOSTS", " example.com, ,www.example.com ")
    assert env_list("HOSTS") == ["example.com", "www.example.com"]


def test_env_required(monkeypatch):
    monkeypatch.delenv("SECRET", raising=False)
    with pytest.raises(ImproperlyConfigured, match="SECRET must be set"):
        env_required("SECRET")


def test_env_choice(monkeypatch):
    monkeypatch.setenv("LEVEL", "LOUD")
    with pytest.raises(ImproperlyConfigured, match="must be one of"):
        env_choice("LEVEL", "INFO", ["INFO", "DEBUG"])


def test_env_url(monkeypatch):
    monkeypatch.setenv("URL", "https://example.com/")
    assert env_url("URL") == "https://example.com"
    monkeypatch.setenv("URL", "example.com")
    with pytest.raises(ImproperlyConfigured, match="http"):
        env_url("URL")


# The settings module itself, loaded in a fresh interpreter with a controlled environment.


@pytest.mark.parametrize(
    ("value", "seconds"),
    [("90", 90), ("90s", 90), ("5m", 300), ("3h", 10800), ("1d", 86400), ("0", 0), ("2 H", 7200)],
)
def test_env_duration(monkeypatch, value, seconds):
    monkeypatch.setenv("WAIT", value)
    assert env_duration("WAIT", timedelta(hours=1)) == timedelta(seconds=seconds)


@pytest.mark.parametrize("value", ["-5m", "3 hours", "1.5h", "h", "5w"])
def test_env_duration_refuses_other_values(monkeypatch, value):
    monkeypatch.setenv("WAIT", value)
    with pytest.raises(ImproperlyConfigured, match="not a duration"):
        env_duration("WAIT", timedelta(0))


def test_env_prefixed_takes_the_set_variables_by_the_rest_of_their_name(monkeypatch):
    monkeypatch.setenv("ANYMAIL_POSTMARK_SERVER_TOKEN", "abc")
    monkeypatch.setenv("ANYMAIL_WEBHOOK_SECRET", "u:p")
    monkeypatch.setenv("ANYMAIL_EMPTY", " ")
    monkeypatch.setenv("ANYMAIL_", "nameless")
    assert env_prefixed("ANYMAIL_") == {"POSTMARK_SERVER_TOKEN": "abc", "WEBHOOK_SECRET": "u:p"}


def test_anymail_is_configured_from_the_environment_alone():
    env = {
        **PRODUCTION_ENV,
        "EMAIL_BACKEND": "anymail.backends.postmark.EmailBackend",
        "ANYMAIL_POSTMARK_SERVER_TOKEN": "token",
        "ANYMAIL_POSTMARK_API_URL": "http://127.0.0.1:9/",
    }
    result = load_settings(env, "settings.EMAIL_BACKEND, sorted(settings.ANYMAIL.items())")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (
        "anymail.backends.postmark.EmailBackend "
        "[('POSTMARK_API_URL', 'http://127.0.0.1:9/'), ('POSTMARK_SERVER_TOKEN', 'token'), "
        "('REQUESTS_TIMEOUT', 15.0)]"
    )


def test_one_timeout_bounds_every_request_to_a_provider():
    env = {**PRODUCTION_ENV, "NOTICE_SEND_TIMEOUT": "5s", "ANYMAIL_REQUESTS_TIMEOUT": "60"}
    expression = (
        "settings.NOTICE_SEND_TIMEOUT.total_seconds(), settings.EMAIL_TIMEOUT, "
        "settings.ANYMAIL['REQUESTS_TIMEOUT']"
    )
    result = load_settings(env, expression)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "5.0 5.0 5.0"
    refused = load_settings({**PRODUCTION_ENV, "NOTICE_SEND_TIMEOUT": "0"})
    assert "ImproperlyConfigured: NOTICE_SEND_TIMEOUT='0' must be at least" in refused.stderr


def test_production_settings_load():
    result = load_settings(
        PRODUCTION_ENV,
        "settings.SECURE_SSL_REDIRECT, settings.SESSION_COOKIE_SECURE, settings.SITE_URL",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True True https://example.com"


def test_the_wsgi_application_is_loaded_whole_and_frozen_out_of_the_collectors_sight():
    code = (
        "import gc, sys; from bansugoroku import wsgi; "
        "print(gc.get_threshold()[0] == wsgi.YOUNG_OBJECTS_BEFORE_COLLECTING > 700, "
        "gc.get_freeze_count() > 0, 'bansugoroku.api.views' in sys.modules)"
    )
    result = run_python(["-c", code], PRODUCTION_ENV)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True", "True"]


def test_bad_debug_value_is_an_error():
    result = load_settings({**PRODUCTION_ENV, "DEBUG": "maybe"})
    assert result.returncode != 0
    assert "ImproperlyConfigured: DEBUG='maybe' is not a boolean" in result.stderr


@pytest.mark.parametrize("name", ["SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL"])
def test_required_when_debug_is_off(name):
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != name}
    result = load_settings(env)
    assert result.returncode != 0
    assert f"ImproperlyConfigured: {name} must be set when DEBUG is off" in result.stderr


def test_database_must_be_postgresql():
    result = load_settings({**PRODUCTION_ENV, "DATABASE_URL": "sqlite:///db.sqlite3"})
    assert result.returncode != 0
    assert "must point to PostgreSQL" in result.stderr


def test_check_deploy_is_clean():
    result = run_python(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"], PRODUCTION_ENV
    )
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def test_prepared_statements_keep_the_url_options():
    url = PRODUCTION_ENV["DATABASE_URL"] + "?sslmode=require"
    result = load_settings(
        {**PRODUCTION_ENV, "DATABASE_URL": url},
        "sorted(settings.DATABASES['default']['OPTIONS'].items())",
    )
    assert result.returncode == 0, result.stderr
    expected = [("prepare_threshold", 2), ("server_side_binding", True), ("sslmode", "require")]
    assert result.stdout.strip() == repr(expected)


def test_prepared_statements_can_be_turned_off():
    env = {**PRODUCTION_ENV, "DATABASE_PREPARED_STATEMENTS": "0"}
    result = load_settings(env, "settings.DATABASES['default'].get('OPTIONS', {})")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "{}"


def test_no_proxy_is_trusted_with_forwarded_addresses_unless_set():
    """A client's own X-Forwarded-For must not pick its address for the rate limits."""
    expression = "settings.BEHIND_HTTPS_PROXY, settings.REST_FRAMEWORK['NUM_PROXIES']"
    result = load_settings(PRODUCTION_ENV, expression)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True 0"
    result = load_settings({**PRODUCTION_ENV, "NUM_PROXIES": "1"}, expression)
    assert result.stdout.strip() == "True 1"


def test_the_ipv6_limit_prefix_is_read_strictly():
    expression = "settings.IPV6_LIMIT_PREFIX"
    assert load_settings(PRODUCTION_ENV, expression).stdout.strip() == "64"
    assert load_settings({**PRODUCTION_ENV, "IPV6_LIMIT_PREFIX": "56"}, expression).stdout == "56\n"
    for value in ("0", "129", "/64"):
        result = load_settings({**PRODUCTION_ENV, "IPV6_LIMIT_PREFIX": value}, expression)
        assert result.returncode != 0 and "ImproperlyConfigured: IPV6_LIMIT_PREFIX" in result.stderr


def test_development_mail_goes_to_the_console_and_to_files_unless_a_backend_is_set():
    development = {"DEBUG": "1", "DATABASE_URL": PRODUCTION_ENV["DATABASE_URL"]}
    expression = "settings.EMAIL_BACKEND"
    assert load_settings(development, expression).stdout.strip() == (
        "bansugoroku.development.mail_backend.ConsoleAndFilesBackend"
    )
    chosen = {**development, "EMAIL_BACKEND": "anymail.backends.postmark.EmailBackend"}
    assert load_settings(chosen, expression).stdout.strip() == chosen["EMAIL_BACKEND"]
    assert load_settings(PRODUCTION_ENV, expression).stdout.strip() == (
        "django.core.mail.backends.console.EmailBackend"
    )


def test_idle_close_settings_are_read_strictly():
    expression = "settings.IDLE_CLOSE_DAYS, settings.IDLE_SWEEP_BATCH"
    assert load_settings(PRODUCTION_ENV, expression).stdout.strip() == "45 1000"
    env = {**PRODUCTION_ENV, "IDLE_CLOSE_DAYS": "30", "IDLE_SWEEP_BATCH": "200"}
    assert load_settings(env, expression).stdout.strip() == "30 200"
    for name, value in [("IDLE_CLOSE_DAYS", "0"), ("IDLE_SWEEP_BATCH", "many")]:
        result = load_settings({**PRODUCTION_ENV, name: value}, expression)
        assert result.returncode != 0 and f"ImproperlyConfigured: {name}=" in result.stderr


def test_the_cpu_turns_are_recovered_as_often_as_they_may_wait():
    expression = "settings.CELERY_BEAT_SCHEDULE['recover-cpu-turns']['schedule']"
    assert load_settings(PRODUCTION_ENV, expression).stdout.strip() == "60.0"
    env = {**PRODUCTION_ENV, "CPU_TURN_RETRY_AFTER": "2s"}
    assert load_settings(env, expression).stdout.strip() == "2.0"
    result = load_settings({**PRODUCTION_ENV, "CPU_TURN_RETRY_AFTER": "0"}, expression)
    assert result.returncode != 0 and "ImproperlyConfigured: CPU_TURN_RETRY_AFTER" in result.stderr


def test_the_settings_take_loopback_only_in_development_alone():
    development = {"DEBUG": "1", "DATABASE_URL": PRODUCTION_ENV["DATABASE_URL"]}
    for env, expected in [
        (development, "False"),
        ({**development, "LOOPBACK_ONLY": "1"}, "True"),
        ({**PRODUCTION_ENV, "LOOPBACK_ONLY": "1"}, "False"),
    ]:
        result = load_settings(env, "settings.LOOPBACK_ONLY")
        assert result.stdout.strip() == expected, result.stderr


def test_celery_is_configured_by_every_celery_setting():
    from django.conf import settings

    from bansugoroku.celery import app

    conf = app.conf
    assert conf.broker_url == settings.CELERY_BROKER_URL
    assert conf.broker_transport_options == settings.CELERY_BROKER_TRANSPORT_OPTIONS
    assert conf.beat_schedule == settings.CELERY_BEAT_SCHEDULE
    assert conf.timezone == settings.TIME_ZONE
    assert conf.task_ignore_result is True and conf.task_always_eager is False
