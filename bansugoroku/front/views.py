"""Where an invitation link lands, the files that let the apps open invitation links,
and the health check. The pages a game is played on are in `play_views`."""

from functools import cache
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from bansugoroku.front.forms import JoinForm
from bansugoroku.front.guesses import guess_refused
from bansugoroku.front.identity import current_player
from bansugoroku.games import selectors
from bansugoroku.games.errors import TableNotFound
from bansugoroku.games.models import Table
from bansugoroku.games.store import clean_code


@require_safe
def invite(request: HttpRequest, code: str) -> HttpResponse:
    """Where an invitation link lands: who invites, and whether a seat is still free.

    It tells a real code from a guess, so each visit counts against the same limit per
    address as joining by code does."""
    refused = guess_refused(request)
    if refused is not None:
        return refused
    try:
        table = Table.objects.select_related("host").filter(code=clean_code(code)).first()
    except TableNotFound:
        table = None
    seat_free = table is not None and table.seats.filter(player=None, cpu="").exists()
    player = current_player(request)
    context = {
        "seated": table is not None
        and player is not None
        and table.seats.filter(player=player).exists(),
        "join": JoinForm(needs_name=player is None),
        "code": code.upper()[:12],
        "table": table,
        "seat_free": seat_free,
        "preview": _preview(table, seat_free) if table else None,
        "app": has_app(),
    }
    return render(request, "front/invite.html", context, status=200 if table else 404)


def has_app() -> bool:
    """Whether an app opens invitation links: the pages mention one only then."""
    return bool(settings.ANDROID_APP_PACKAGE or settings.IOS_APP_ID)


def _preview(table: Table, seat_free: bool) -> dict[str, str]:
    """What a chat app shows of the link (OpenGraph)."""
    if seat_free and has_app():
        description = gettext(
            "A seat is free at table %(code)s. Join it in the browser or the app."
        )
    elif seat_free:
        description = gettext("A seat is free at table %(code)s. Join it in the browser.")
    else:
        description = gettext("Both seats at table %(code)s are taken.")
    return {
        "title": gettext("%(name)s invites you to Ban-sugoroku") % {"name": table.host.name},
        "description": description % {"code": table.code},
        "url": selectors.invite_url(table),
    }


@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness and database check for load balancers and the platform."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return JsonResponse({"status": "unavailable"}, status=503)
    return JsonResponse({"status": "ok"})


SERVICE_WORKER = Path(__file__).parent / "static" / "front" / "sw.js"


@cache
def _service_worker_script() -> bytes:
    return SERVICE_WORKER.read_bytes()


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker that shows push notices. A worker's scope is at most the folder
    it is served from, so it is served at the root, where it can open any page."""
    response = HttpResponse(_service_worker_script(), content_type="text/javascript")
    # Browsers check for a new worker at least daily; a cached one must not stay longer.
    response["Cache-Control"] = "no-cache"
    return response


APP_PATHS: list[tuple[str, bool]] = [("/t/*", False), ("/tables/*/*", True), ("/tables/*", False)]
"""Where the iOS app opens, in order, each path with whether it is left to the browser:
invitation pages (/t/CODE) and the table pages the notices link to (/tables/CODE), not
a table's history (/tables/CODE/games). The Android file names no paths: the app's
manifest does."""


@require_safe
def assetlinks(request: HttpRequest) -> JsonResponse:
    """Android App Links: the Android app, signed with these certificates, opens this
    site's invitation links itself. 404 while no Android app is configured."""
    if not settings.ANDROID_APP_PACKAGE:
        raise Http404("no Android app")
    statement = {
        "relation": ["delegate_permission/common.handle_all_urls"],
        "target": {
            "namespace": "android_app",
            "package_name": settings.ANDROID_APP_PACKAGE,
            "sha256_cert_fingerprints": settings.ANDROID_CERT_SHA256,
        },
    }
    return _public_json([statement])


@require_safe
def apple_app_site_association(request: HttpRequest) -> JsonResponse:
    """iOS universal links: the iOS app opens this site's invitation and table links
    itself. 404 while no iOS app is configured."""
    if not settings.IOS_APP_ID:
        raise Http404("no iOS app")
    detail = {
        "appIDs": [settings.IOS_APP_ID],
        "components": [
            {"/": path, "exclude": True} if excluded else {"/": path}
            for path, excluded in APP_PATHS
        ],
        # The same for iOS 12 and earlier.
        "appID": settings.IOS_APP_ID,
        "paths": [f"NOT {path}" if excluded else path for path, excluded in APP_PATHS],
    }
    return _public_json({"applinks": {"apps": [], "details": [detail]}})


def _public_json(data: object) -> JsonResponse:
    response = JsonResponse(data, safe=False)
    response["Cache-Control"] = "public, max-age=3600"
    return response
