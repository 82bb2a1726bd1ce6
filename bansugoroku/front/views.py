"""The site's HTML pages (the home page, where an invitation link lands) and the health check."""

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from bansugoroku.games.errors import TableNotFound
from bansugoroku.games.models import Table
from bansugoroku.games.store import clean_code
from bansugoroku.throttles import join_guess_wait


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "front/home.html")


@require_safe
def invite(request: HttpRequest, code: str) -> HttpResponse:
    """Where an invitation link lands: who invites, and whether a seat is still free.

    It tells a real code from a guess, so each visit counts against the same limit per
    address as joining by code does."""
    wait = join_guess_wait(request)
    if wait is not None:
        response = render(request, "front/too_many.html", {"wait": wait}, status=429)
        response["Retry-After"] = str(wait)
        return response
    try:
        table = Table.objects.select_related("host").filter(code=clean_code(code)).first()
    except TableNotFound:
        table = None
    seat_free = table is not None and table.seats.filter(player=None, cpu="").exists()
    context = {"code": code.upper()[:12], "table": table, "seat_free": seat_free}
    return render(request, "front/invite.html", context, status=200 if table else 404)


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
