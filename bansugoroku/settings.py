"""Django settings, read from environment variables (docs/configuration.md lists them).

DEBUG defaults to off, so a production process that forgets it is never in debug mode;
`make run` and `make test` set DEBUG=1. With DEBUG off, SECRET_KEY, ALLOWED_HOSTS and
DATABASE_URL are required and the HTTPS/HSTS settings default to their production values.
"""

import re
import warnings
from datetime import timedelta
from pathlib import Path
from typing import Any

import csp.constants
import dj_database_url
import django_stubs_ext
import orjson
from corsheaders.defaults import default_headers
from django.core.exceptions import ImproperlyConfigured

from bansugoroku.env import (
    env_bool,
    env_choice,
    env_duration,
    env_int,
    env_list,
    env_origins,
    env_pattern,
    env_prefixed,
    env_required,
    env_str,
    env_url,
)
from bansugoroku.lib import log_redaction
from bansugoroku.players.locales import DEFAULT_LOCALE, LOCALE_NAMES
from notifications.channels.keys import (
    development_vapid_key,
    fcm_service_account,
    parse_vapid_key,
    raw_private_key,
    raw_public_key,
    vapid_subject,
)

# Django's generic classes (ModelAdmin, ...) take type arguments at run time too, as
# the type checker wants them written: `admin.ModelAdmin[Player]`.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", default=False)

if DEBUG:
    SECRET_KEY = env_str("SECRET_KEY", "django-insecure-development-only-never-use-in-production")
else:
    SECRET_KEY = env_required("SECRET_KEY", "when DEBUG is off")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1"] if DEBUG else [])
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is off.")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

# Public base URL, used to build links that leave the site (invitations, exports,
# e-mails) and named in the API schema. Unset in development: links follow the host that
# served the request (bansugoroku/lib/site.py). With DEBUG off it is needed outside requests
# too, so it is set or derived from the first of ALLOWED_HOSTS.
SITE_URL = env_url("SITE_URL")
if SITE_URL is None and not DEBUG:
    if ALLOWED_HOSTS[0] == "*":
        raise ImproperlyConfigured(
            "SITE_URL must be set when DEBUG is off and ALLOWED_HOSTS starts with '*'."
        )
    SITE_URL = f"https://{ALLOWED_HOSTS[0].lstrip('.')}"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "corsheaders",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "csp",
    "bansugoroku.games.apps.GamesConfig",
    "bansugoroku.front.apps.FrontConfig",
    "notifications.apps.NotificationsConfig",
]

MIDDLEWARE = [
    # First, so that every answer under /api/, errors included, carries its CORS headers.
    "corsheaders.middleware.CorsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "bansugoroku.runtime.content_policy.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages are no-store unless the installed app keeps them (front/page_caching.py).
    "bansugoroku.front.page_caching.PageCachingMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The pages' language (the API stays English): the language cookie, else
    # Accept-Language, else English.
    "bansugoroku.front.languages.PageLocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The admin's messages, for the pages only (the API shows none).
    "bansugoroku.front.page_messages.PageMessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "bansugoroku.lib.site.RequestSiteMiddleware",
    # Last, as django-axes asks: it answers a locked-out login.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "bansugoroku.urls"
WSGI_APPLICATION = "bansugoroku.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "bansugoroku.front.waiting.waiting",
            ],
        },
    },
]

# Database: PostgreSQL only. Without DATABASE_URL (development and tests), an embedded
# PostgreSQL is started on demand in .pgdata/ (bansugoroku/development/embedded_db.py).
DATABASE_URL = env_str("DATABASE_URL")
if DATABASE_URL is None:
    if not DEBUG:
        raise ImproperlyConfigured("DATABASE_URL must be set when DEBUG is off.")
    from bansugoroku.development.embedded_db import database_url

    DATABASE_URL = database_url()
DATABASES = {
    "default": dj_database_url.parse(DATABASE_URL, conn_max_age=60, conn_health_checks=True)
}
if env_bool("DATABASE_PREPARED_STATEMENTS", default=True):
    # The same few statements run on every request; prepared once per connection, they
    # skip PostgreSQL's parse and plan and psycopg's quoting of values (a move request
    # cost half the database CPU, measured). Turn this off behind a connection pooler
    # that cannot keep prepared statements (PgBouncer before 1.21 in transaction mode).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        server_side_binding=True, prepare_threshold=2
    )
if DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
    raise ImproperlyConfigured("DATABASE_URL must point to PostgreSQL (postgres://...).")
# Django's backend, with a health check that asks the socket before the server.
DATABASES["default"]["ENGINE"] = "bansugoroku.runtime.postgresql"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Admin logins: django-axes counts failed passwords per username and address (the one the
# rate limits use, so NUM_PROXIES applies) and refuses the pair, even with the right
# password, for 15 minutes after 5 failures. Its backend must come first. The API's
# bearer tokens don't go through Django's authentication and are not affected.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "bansugoroku.limits.throttles.client_address"

# The pages come in the five languages players may choose (bansugoroku/players/locales.py).
# English is the source language of every string; the others' catalogues are the .po
# files under locale/, compiled to .mo when stale by `bansugoroku.lib.translations`.
LANGUAGE_CODE = DEFAULT_LOCALE
LANGUAGES = list(LOCALE_NAMES.items())
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_SECURE = not DEBUG
LANGUAGE_COOKIE_AGE = 400 * 24 * 3600  # as long as browsers keep a cookie
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# Static files, served by WhiteNoise; `manage.py collectstatic` fills STATIC_ROOT.
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
if DEBUG:
    # WhiteNoise serves from the app folders in DEBUG; STATIC_ROOT exists only after
    # collectstatic, which development does not need.
    warnings.filterwarnings(
        "ignore", message=r"No directory at: .*staticfiles", category=UserWarning
    )

# The REST API: bearer tokens, one error shape, rate limits per token and per address.
REST_FRAMEWORK: dict[str, Any] = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "bansugoroku.api.auth.BearerTokenAuthentication",
        "bansugoroku.front.identity.CookieTokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["bansugoroku.api.auth.HasPlayer"],
    # JSON only, refused over API_MAX_BODY_SIZE and when nested too deep to parse.
    "DEFAULT_PARSER_CLASSES": ["bansugoroku.api.parsers.JSONParser"],
    # orjson writes the same compact UTF-8 JSON as DRF's renderer, in a tenth of the
    # time: the table state was 3.6% of a move request's CPU with the standard library.
    "DEFAULT_RENDERER_CLASSES": ["drf_orjson_renderer.renderers.ORJSONRenderer"],
    # DRF keys a list field's errors by the item's index, an int: orjson refuses such
    # keys (a 500 in place of the 400) unless told to write them as strings, as json does.
    "ORJSON_RENDERER_OPTIONS": (orjson.OPT_NON_STR_KEYS,),
    "EXCEPTION_HANDLER": "bansugoroku.api.problems.problem_exception_handler",
    # Accept: application/problem+json, alone or beside a type, is no reason for 406.
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "bansugoroku.api.negotiation.ProblemTolerantNegotiation",
    "DEFAULT_SCHEMA_CLASS": "bansugoroku.api.schema.AutoSchema",
    # Per player and per address, counted together (bansugoroku/limits/throttles.py).
    "DEFAULT_THROTTLE_CLASSES": ["bansugoroku.limits.throttles.RequestRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "player": env_str("THROTTLE_PLAYER", "1200/min"),
        "address": env_str("THROTTLE_ADDRESS", "6000/min"),
        "join": env_str("THROTTLE_JOIN", "30/min"),
        "confirm_email": env_str("THROTTLE_CONFIRM_EMAIL", "5/hour"),
        "confirm_email_daily": env_str("THROTTLE_CONFIRM_EMAIL_DAILY", "10/day"),
        "confirm_email_addresses": env_str("THROTTLE_CONFIRM_EMAIL_ADDRESSES", "20/day"),
        "new_player": env_str("THROTTLE_NEW_PLAYER", "60/hour"),
        "new_table": env_str("THROTTLE_NEW_TABLE", "60/hour"),
        "take_seat": env_str("THROTTLE_TAKE_SEAT", "30/hour"),
        "message": env_str("THROTTLE_MESSAGE", "30/hour"),
    },
    "UNAUTHENTICATED_USER": None,
}
# The largest API request body, in bytes: larger is 413 unread. The largest valid body
# (a table's rules, a play of four moves, 64 characters of entropy) is a few hundred
# bytes; 16 KiB leaves room for clients that pad, far below Django's 2.5 MB.
API_MAX_BODY_SIZE = env_int("API_MAX_BODY_SIZE", 16 * 1024, minimum=1024)
SPECTACULAR_SETTINGS = {
    "TITLE": "Ban-sugoroku API",
    "DESCRIPTION": "Correspondence play of Ban-sugoroku, the old Japanese backgammon. "
    "Create a player to get a bearer token, create or join a table by its 6-character "
    "code, then send moves whenever it is your turn. Every change needs the table "
    "`version` you last saw; errors are application/problem+json with a stable `code`.",
    "VERSION": "1.0.0",
    # Where clients send their requests; without SITE_URL (development), the schema's
    # own origin.
    "SERVERS": [{"url": SITE_URL}] if SITE_URL else [],
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Tag operations by what follows the prefix: players, tables, problems.
    "SCHEMA_PATH_PREFIX": "/api/v1",
    # Swagger UI served from our own static files, not a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "TableStateEnum": "bansugoroku.games.models.TableState",
        "GameStateEnum": "bansugoroku.games.models.GameState",
        "CpuLevelEnum": "bansugoroku.games.models.CpuLevel",
    },
}

# The web page: how often the table page asks whether the table changed (a 304 while it
# has not, so cheap), and how long a "use on another device" link and a mailed sign-in
# link stay usable.
PLAY_POLL_MS = env_int("PLAY_POLL_MS", 3000, minimum=100)
DEVICE_LINK_MINUTES = env_int("DEVICE_LINK_MINUTES", 15, minimum=1)
SIGN_IN_LINK_MINUTES = env_int("SIGN_IN_LINK_MINUTES", 30, minimum=1)

# The apps that open invitation links (/t/CODE) themselves: Android App Links
# (/.well-known/assetlinks.json) and iOS universal links
# (/.well-known/apple-app-site-association). Each file is served only when its app is set.
ANDROID_APP_PACKAGE = env_pattern(
    "ANDROID_APP_PACKAGE", r"[A-Za-z]\w*(\.[A-Za-z]\w*)+", "com.example.bansugoroku"
)
ANDROID_CERT_SHA256 = [fingerprint.upper() for fingerprint in env_list("ANDROID_CERT_SHA256")]
for _fingerprint in ANDROID_CERT_SHA256:
    if not re.fullmatch(r"[0-9A-F]{2}(:[0-9A-F]{2}){31}", _fingerprint):
        raise ImproperlyConfigured(
            f"ANDROID_CERT_SHA256: {_fingerprint!r} is not a SHA-256 fingerprint "
            "(32 bytes in hex separated by colons, as keytool prints it)."
        )
if bool(ANDROID_APP_PACKAGE) != bool(ANDROID_CERT_SHA256):
    raise ImproperlyConfigured("ANDROID_APP_PACKAGE and ANDROID_CERT_SHA256 are set together.")
IOS_APP_ID = env_pattern(
    "IOS_APP_ID", r"[A-Z0-9]{10}\.[A-Za-z0-9.-]+", "ABCDE12345.com.example.app"
)

# CORS, for a web client served from another origin (a web app, or Flutter's or Expo's
# development server on another port): only the API, only the origins listed, none by
# default. No cookies cross: the API authenticates with bearer tokens. Browsers may send
# If-None-Match to poll, and may read the headers the API answers with.
CORS_ALLOWED_ORIGINS = env_origins("CORS_ALLOWED_ORIGINS")
CORS_URLS_REGEX = r"^/api/"
CORS_ALLOW_CREDENTIALS = False
CORS_ALLOW_HEADERS = (*default_headers, "if-none-match")
CORS_EXPOSE_HEADERS = ["ETag", "Retry-After", "WWW-Authenticate", "Content-Disposition"]

# The cache holds rate-limit counters: Redis shares them between processes in
# production; the default keeps them in each process. Short timeouts, because the
# limits fail open when Redis is unreachable rather than hold up every request.
CACHE_URL = env_str("CACHE_URL")
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": CACHE_URL,
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
    if CACHE_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}

# Content-Security-Policy on the HTML pages (home, invitations, the admin, Swagger UI):
# everything from this site, no inline script anywhere (Swagger UI's start-up script is
# its own request, SpectacularSwaggerSplitView), and inline <style> only with the
# request's nonce. Swagger UI's stylesheet draws its icons as data: images. The web app
# manifest and the service worker are this site's too. The API's JSON answers need no
# policy. django-csp 4 takes this one dict.
CONTENT_SECURITY_POLICY = {
    "EXCLUDE_URL_PREFIXES": ["/api/v1/", "/api/schema/"],
    "DIRECTIVES": {
        "default-src": [csp.constants.NONE],
        "script-src": [csp.constants.SELF],
        "style-src": [csp.constants.SELF, csp.constants.NONCE],
        "img-src": [csp.constants.SELF, "data:"],
        "font-src": [csp.constants.SELF],
        "connect-src": [csp.constants.SELF],
        "manifest-src": [csp.constants.SELF],
        "worker-src": [csp.constants.SELF],
        "form-action": [csp.constants.SELF],
        "frame-ancestors": [csp.constants.NONE],
        "base-uri": [csp.constants.NONE],
    },
}

# HTTPS. Production defaults apply whenever DEBUG is off.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # platform health checks may use plain HTTP
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31_536_000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
BEHIND_HTTPS_PROXY = env_bool("BEHIND_HTTPS_PROXY", default=not DEBUG)
if BEHIND_HTTPS_PROXY:
    # The platform's router terminates TLS and sets X-Forwarded-Proto.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Rate limits per address trust only the addresses our own proxies add to
# X-Forwarded-For; otherwise a client could name a new address there on every request.
# None is trusted unless set: a router that only sets X-Forwarded-Proto, or none at all,
# leaves the client's own header in place.
REST_FRAMEWORK["NUM_PROXIES"] = env_int("NUM_PROXIES", 0, minimum=0)
# Every limit per address counts an IPv6 address by its network of this many bits
# (`bansugoroku.limits.throttles.address_key`): a subscriber is handed a whole /64, and would
# otherwise have 2**64 budgets.
IPV6_LIMIT_PREFIX = env_int("IPV6_LIMIT_PREFIX", 64, minimum=1, maximum=128)

# E-mail: in development to the console and, one .eml file each, to the git-ignored
# .mail/ folder (bansugoroku/development/mail_backend.py); an anymail backend in production, for
# example EMAIL_BACKEND=anymail.backends.postmark.EmailBackend. Every ANYMAIL_<NAME> variable is
# ANYMAIL["<NAME>"] (ANYMAIL_POSTMARK_SERVER_TOKEN, ANYMAIL_WEBHOOK_SECRET, ...), so any
# provider anymail knows is configured from the environment alone.
EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "bansugoroku.development.mail_backend.ConsoleAndFilesBackend"
    if DEBUG
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_FILE_PATH = BASE_DIR / ".mail"
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Ban-sugoroku <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# The longest any provider may take to answer one request: the mail provider (anymail's
# HTTP backends, which would wait 30 s, and SMTP, which would wait for ever; so
# ANYMAIL_REQUESTS_TIMEOUT is not read), a push service, FCM. A notice whose send
# outlasts it fails as a transient error and is tried again later.
NOTICE_SEND_TIMEOUT = env_duration(
    "NOTICE_SEND_TIMEOUT", timedelta(seconds=15), minimum=timedelta(seconds=1)
)
EMAIL_TIMEOUT = NOTICE_SEND_TIMEOUT.total_seconds()
ANYMAIL = env_prefixed("ANYMAIL_") | {"REQUESTS_TIMEOUT": EMAIL_TIMEOUT}

# Playing by replying to a "your turn" e-mail (notifications/replies/play.py): on once mail to
# play+<token>@INBOUND_DOMAIN reaches INBOUND_PROVIDER's inbound webhook (by default the
# provider mail is sent through), behind ANYMAIL_WEBHOOK_SECRET. A reply address works
# once, until REPLY_TOKEN_MAX_AGE after its mail was written.
INBOUND_DOMAIN = env_str("INBOUND_DOMAIN")
_sending_provider = re.fullmatch(r"anymail\.backends\.(\w+)\.EmailBackend", EMAIL_BACKEND or "")
INBOUND_PROVIDER = env_str("INBOUND_PROVIDER", _sending_provider[1] if _sending_provider else None)
REPLY_TOKEN_MAX_AGE = env_duration(
    "REPLY_TOKEN_MAX_AGE", timedelta(days=14), minimum=timedelta(hours=1)
)
# The webhook keeps a mail for the worker to read and refuses one past INBOUND_MAX_BYTES
# with a 413 (a reply is a line and the quoted "your turn" mail, some 30 KB; 512 KiB). A reply is
# played only when the receiving server vouches for its From line's domain
# (notifications/replies/sender_auth.py): by the topmost Received-SPF or X-Spam-Tests header, as
# Postmark writes them, or by Authentication-Results headers of INBOUND_AUTHSERV_IDS.
INBOUND_MAX_BYTES = env_int("INBOUND_MAX_BYTES", 512 * 1024, minimum=1024, maximum=2_000_000)
INBOUND_AUTHSERV_IDS = env_list("INBOUND_AUTHSERV_IDS")

# Notices (notifications/): how "your turn" e-mails are paced, and when a player counts
# as looking at the table (then no notice disturbs them). 0 turns either off.
NOTICE_EMAIL_SPACING = env_duration("NOTICE_EMAIL_SPACING", timedelta(hours=3))
NOTICE_LOOKING_WINDOW = env_duration("NOTICE_LOOKING_WINDOW", timedelta(minutes=5))
NOTICE_RETRY_AFTER = env_duration("NOTICE_RETRY_AFTER", timedelta(minutes=1))
NOTICE_RETRY_MAX_PAUSE = env_duration("NOTICE_RETRY_MAX_PAUSE", timedelta(hours=6))
NOTICE_MAX_ATTEMPTS = env_int("NOTICE_MAX_ATTEMPTS", 8, minimum=1)
NOTICE_CONFIRM_MAX_AGE = env_duration("NOTICE_CONFIRM_MAX_AGE", timedelta(days=2))

# Push notices. Web Push signs each request with the VAPID key pair (RFC 8292); browsers
# subscribe with its public key. In development a key is made once into the git-ignored
# .vapid/ folder; in production, without VAPID_PRIVATE_KEY, Web Push is off (the key
# endpoint answers 404) rather than the site failing to start. FCM, for the mobile apps,
# is on when FCM_CREDENTIALS names a service account.
_vapid_value = env_str("VAPID_PRIVATE_KEY")
if _vapid_value is not None:
    _vapid_key: Any = parse_vapid_key(_vapid_value)
elif DEBUG:
    _vapid_key = development_vapid_key(BASE_DIR / ".vapid")
else:
    _vapid_key = None
VAPID_PRIVATE_KEY = raw_private_key(_vapid_key) if _vapid_key else None
VAPID_PUBLIC_KEY = raw_public_key(_vapid_key) if _vapid_key else None
VAPID_SUBJECT = vapid_subject(env_str("VAPID_SUBJECT"), DEFAULT_FROM_EMAIL or "")
_fcm_value = env_str("FCM_CREDENTIALS")
FCM_CREDENTIALS = fcm_service_account(_fcm_value) if _fcm_value else None
# Where FCM's HTTP v1 API is; tests point it at a server of their own on loopback.
FCM_API_URL = "https://fcm.googleapis.com/v1/projects"
# How long a push service keeps a notice for a device that is offline: after a day the
# e-mail has told the player.
PUSH_TTL = env_int("PUSH_TTL", 24 * 3600, minimum=0)
# The push services browsers subscribe at, the only hosts the workers post notices to:
# Chrome, Edge's Chromium and most others use FCM, Firefox Mozilla's, Safari Apple's,
# older Edge Windows'. "*." names every subdomain.
PUSH_SERVICE_HOSTS = [
    host.lower()
    for host in env_list(
        "PUSH_SERVICE_HOSTS",
        [
            "fcm.googleapis.com",
            "updates.push.services.mozilla.com",
            "web.push.apple.com",
            "*.push.apple.com",
            "*.notify.windows.com",
        ],
    )
]
# Development only: this server listens on loopback alone, so nobody but this machine
# reaches it. `make run` says so itself (bansugoroku/development/devserver.py, from its HOST): no
# header a client sends can tell which addresses the socket listens on, and a client on
# the network may name the server "localhost". Only then may a push endpoint be http on
# loopback (the tests' push service): a server others reach would let them point the
# worker at this machine's own ports, such as Redis on 127.0.0.1:6379.
LOOPBACK_ONLY = DEBUG and env_bool("LOOPBACK_ONLY", default=False)
# Browsers and devices one player may register, each kind counted on its own.
PUSH_MAX_PER_PLAYER = env_int("PUSH_MAX_PER_PLAYER", 20, minimum=1)

# Celery (bansugoroku/celery.py reads every CELERY_* setting). Without a broker URL the
# tasks queue as files in the git-ignored .celery/ folder, which a worker on the same
# machine reads: nothing to install for development. Production sets Redis or RabbitMQ.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "filesystem://")
# Sending a message tries the broker twice, at once, rather than for kombu's default of
# about 6 s: every change hands its events on after its commit, and with the broker down
# each one held its request that long. A message not sent is no loss: the relays of
# events, notices and the CPU's turns queue it again. (The worker's own reconnection
# has its own settings and keeps trying.)
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, Any] = {"max_retries": 1, "interval_start": 0}
if CELERY_BROKER_URL == "filesystem://":
    _QUEUE = BASE_DIR / ".celery" / "queue"
    _QUEUE.mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS |= {
        "data_folder_in": str(_QUEUE),
        "data_folder_out": str(_QUEUE),
        "control_folder": str(BASE_DIR / ".celery" / "control"),
    }
if CELERY_BROKER_URL and CELERY_BROKER_URL.startswith("redis://"):
    CELERY_BROKER_TRANSPORT = "bansugoroku.runtime.broker:Transport"  # one Redis client per channel
CELERY_TASK_ALWAYS_EAGER = False
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Tasks outside the apps' own tasks modules, which the worker finds by itself.
CELERY_IMPORTS = ["notifications.replies.play"]
# The CPU's turn is a message only: one lost (the broker down when the events were
# delivered, or the worker killed while playing it, as Celery acknowledges a message
# before running its task) is queued again once nothing changed at the table for this
# long; the recovery looks this often.
CPU_TURN_RETRY_AFTER = env_duration("CPU_TURN_RETRY_AFTER", timedelta(minutes=1))
if not CPU_TURN_RETRY_AFTER:
    raise ImproperlyConfigured("CPU_TURN_RETRY_AFTER must be at least 1s.")
# A table's clock counts days a move (games/clocks.py). For trials only, a "day" can be
# made shorter, in every mode, so that a whole timeout can be watched in minutes: with
# CLOCK_DAY_SECONDS=60 a 1-day clock runs out after a minute. The sweep of clocks that
# ran out runs this often (a move after its deadline finds it out itself, at once).
CLOCK_DAY_SECONDS = env_int("CLOCK_DAY_SECONDS", 86_400, minimum=1)
CLOCK_SWEEP_SECONDS = float(env_int("CLOCK_SWEEP_SECONDS", 60, minimum=1))
CLOCK_SWEEP_BATCH = env_int("CLOCK_SWEEP_BATCH", 100, minimum=1)
# Events a worker never delivered (broker down, worker killed) are handed on again, and
# the CPU's lost turns queued again. Notices that are due (delayed, retried, or lost on
# the way) are queued every minute; every hour, tables idle for IDLE_CLOSE_DAYS close,
# and those near it are warned.
CELERY_BEAT_SCHEDULE = {
    "relay-events": {"task": "games.relay_events", "schedule": 60.0},
    "recover-cpu-turns": {
        "task": "games.recover_cpu_turns",
        "schedule": CPU_TURN_RETRY_AFTER.total_seconds(),
    },
    # A finished game's review lost on its way (games/reviews.py, RETRY_AFTER).
    "recover-reviews": {"task": "games.recover_reviews", "schedule": 600.0},
    "notices-due": {"task": "notifications.send_due", "schedule": 60.0},
    # A mail that came in whose read was lost on its way (mail_play.read_pending).
    "read-inbound-mail": {"task": "mail_play.read_pending", "schedule": 60.0},
    "close-idle-tables": {"task": "games.close_idle_tables", "schedule": 3600.0},
    # A player to move whose clock ran out loses (games/timeouts.py).
    "time-out-games": {"task": "games.time_out_games", "schedule": CLOCK_SWEEP_SECONDS},
    # What the data page promises: old tables and unused players deleted (retention.py).
    "purge": {"task": "games.purge", "schedule": 3600.0},  # retention.PURGE_TASK
}

# Retention, promised on the data page (/data): a table no one has changed for
# RETENTION_TABLE_DAYS is deleted with its games, turns and events; a player who then
# sits at no table and was created RETENTION_PLAYER_DAYS ago is deleted with all that
# hangs on them. The purge runs every hour (beat) and on `manage.py purge`.
RETENTION_TABLE_DAYS = env_int("RETENTION_TABLE_DAYS", 180, minimum=1)
RETENTION_PLAYER_DAYS = env_int("RETENTION_PLAYER_DAYS", 30, minimum=1)
CELERY_TIMEZONE = TIME_ZONE

# A table where nobody acted for this many days closes (games/idle.py); its seats are
# warned 7 days and 1 day before. The sweep closes this many tables per transaction,
# each batch's row locks held for a fraction of a second (make bench-sweep).
IDLE_CLOSE_DAYS = env_int("IDLE_CLOSE_DAYS", 45, minimum=1)
IDLE_SWEEP_BATCH = env_int("IDLE_SWEEP_BATCH", 1000, minimum=1)
# Tables a player may have waiting for an opponent at once: one more is 409
# too_many_open_tables, so nobody fills the table list with codes nobody will use.
OPEN_TABLES_MAX = env_int("OPEN_TABLES_MAX", 20, minimum=1)
# The lobby (games/lobby.py): an open table stays in it this many days unless its seat
# is taken; a host has at most LOBBY_TABLES_MAX there at once (409 too_many_in_lobby).
OPEN_TABLE_DAYS = env_int("OPEN_TABLE_DAYS", 7, minimum=1)
LOBBY_TABLES_MAX = env_int("LOBBY_TABLES_MAX", 3, minimum=1)
# A message at a table (games/messages.py) is at most this many characters.
MESSAGE_MAX_LENGTH = env_int("MESSAGE_MAX_LENGTH", 300, minimum=1)

# Every log record of every process is made without the secrets of links in it
# (bansugoroku/lib/log_redaction.py), whoever configured the logger.
log_redaction.install()
LOG_LEVEL = env_choice("LOG_LEVEL", "INFO", ["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"])
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain"},
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        # pgserver logs every command it runs at INFO.
        "pgserver": {"level": "WARNING"},
    },
}
