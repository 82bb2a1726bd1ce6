"""The notices API: preferences, the address's confirmation, one-click unsubscribe, and
the sign-in link mailed to a confirmed address.

Setting the address itself is `PATCH /players/me` (`bansugoroku.api.views.MeView`),
through `bansugoroku.api.confirmation`.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpResponseRedirect
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import Throttled
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bansugoroku.api import schema
from bansugoroku.api.auth import player_of
from bansugoroku.api.notice_serializers import (
    ConfirmSerializer,
    PreferencesSerializer,
    SignInSerializer,
)
from bansugoroku.api.schema import component
from bansugoroku.api.views import parse
from bansugoroku.games.models import Player
from bansugoroku.limits.mail_limits import mail_wait, mailbox_throttles
from notifications import shapes, sign_in
from notifications.consent import addresses, preferences
from notifications.models import Channel, ConfirmationMail, EmailAddress, Kind, Preferences


def preferences_json(player: Player, prefs: Preferences) -> shapes.NoticePreferences:
    email = EmailAddress.objects.filter(player=player).first()
    kinds = {
        kind: {channel: prefs.wants(kind, channel) for channel in Channel.values}
        for kind in Kind.values
    }
    return {
        "email": email_json(email) if email else None,
        "email_mode": prefs.email_mode,
        "kinds": kinds,  # type: ignore[typeddict-item]
        "muted_tables": preferences.muted_codes(player),
        "play_by_reply": prefs.play_by_reply,
        "play_by_reply_cpu": prefs.play_by_reply_cpu,
        "clock_reminders": player.reminder_hours,
    }


def email_json(email: EmailAddress) -> shapes.EmailOut:
    """Whether the mail failed, and not whether it was sent: a suppressed mailbox's
    mail is never sent, and how soon it is done must not tell it either."""
    failed = email.confirmation_mail == ConfirmationMail.FAILED
    return {"address": email.address, "confirmed": email.confirmed, "mail_failed": failed}


class NoticePreferencesView(APIView):
    @extend_schema(
        operation_id="players_me_notices",
        responses={200: component(shapes.NoticePreferences)},
        summary="Which notices you get, by e-mail and push",
    )
    def get(self, request: Request) -> Response:
        player = player_of(request)
        return Response(preferences_json(player, preferences.preferences_of(player)))

    @extend_schema(
        operation_id="players_me_notices_update",
        request=PreferencesSerializer,
        responses={200: component(shapes.NoticePreferences)} | schema.problems(400, 404),
        summary="Change which notices you get",
        description="Give only what changes: `kinds` per kind and channel, e.g. "
        '`{"kinds": {"your_turn": {"email": false}}}`, the `email_mode`, '
        "`muted_tables` (the whole list), `play_by_reply` and `play_by_reply_cpu`, or "
        "`clock_reminders` (the whole list). "
        "A code you don't sit at is 404 `table_not_found`.",
    )
    def patch(self, request: Request) -> Response:
        player = player_of(request)
        prefs = preferences.preferences_update(
            player=player, **parse(PreferencesSerializer, request)
        )
        return Response(preferences_json(player, prefs))


class EmailConfirmView(APIView):
    @extend_schema(
        operation_id="players_me_email_confirm",
        request=ConfirmSerializer,
        responses={200: component(shapes.NoticePreferences)} | schema.problems(400, 409),
        summary="Confirm your e-mail address with the token of the mailed link",
        description="400 `invalid_token` when the token is forged, expired "
        "(NOTICE_CONFIRM_MAX_AGE), another player's, or for an address you replaced since.",
    )
    def post(self, request: Request) -> Response:
        player = player_of(request)
        addresses.email_confirm(player=player, **parse(ConfirmSerializer, request))
        return Response(preferences_json(player, preferences.preferences_of(player)))


class UnsubscribeView(APIView):
    """RFC 8058 one-click unsubscribe: the mail client POSTs `List-Unsubscribe=One-Click`
    to the link of the mail's `List-Unsubscribe` header. The signed token is the only
    credential, and the body is not read: any POST to the link unsubscribes, while the
    address the mail went to is still the player's confirmed one.

    The same link opened in a browser (a mail program that shows the header as a link,
    or a player who copies it) is a GET: it goes to the human page, whatever it
    accepts, and changes nothing, since mail scanners fetch links too."""

    authentication_classes = []
    permission_classes = [AllowAny]

    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        """A GET is answered with a redirect, which has no body to negotiate: a browser's
        `Accept: text/html` must not make it a 406."""
        safe = request.method in ("GET", "HEAD")
        return super().perform_content_negotiation(request, force=force or safe)

    @extend_schema(
        operation_id="players_unsubscribe_page",
        tags=["players"],
        auth=[],
        parameters=[
            OpenApiParameter("token", str, OpenApiParameter.PATH, description="From the mail.")
        ],
        responses={303: None},
        summary="The link opened in a browser: 303 to the page that asks, then unsubscribes",
    )
    def get(self, request: Request, token: str) -> HttpResponseRedirect:
        return HttpResponseRedirect(reverse("unsubscribe", args=[token]), status=303)

    @extend_schema(
        operation_id="players_unsubscribe",
        tags=["players"],
        auth=[],
        request=None,
        parameters=[
            OpenApiParameter("token", str, OpenApiParameter.PATH, description="From the mail.")
        ],
        responses={200: component(shapes.Unsubscribed)} | schema.problems(400),
        summary="Turn a kind of e-mail off with one click, without a token (RFC 8058)",
        description="400 `invalid_token` when the token is forged, or was mailed to an "
        "address the player has changed or removed since.",
    )
    def post(self, request: Request, token: str) -> Response:
        player_id, kind = preferences.unsubscribe_request(token)
        preferences.unsubscribe(player_id=player_id, kind=kind)
        answer: shapes.Unsubscribed = {"unsubscribed": kind or "all"}
        return Response(answer)


class SignInView(APIView):
    """The sign-in page's request (`front.sign_in_pages`) for apps and API clients: the
    same limits, and the same answer whoever has the address."""

    authentication_classes = []
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="players_sign_in",
        tags=["players"],
        auth=[],
        request=SignInSerializer,
        responses={202: component(shapes.SignInAsked)} | schema.problems(400),
        summary="Mail a sign-in link to the players who confirmed an address",
        description="202 whatever the address: if players confirmed it for their notices "
        "(and its mailbox is not suppressed), it gets a mail with a link for each, which "
        "signs a browser in as that player once, within `link_minutes`. 400 "
        "`invalid_request` for an address that is not one. It counts against the limits "
        "of the confirmation mails, per mailbox (THROTTLE_CONFIRM_EMAIL, "
        "THROTTLE_CONFIRM_EMAIL_DAILY) and per client address "
        "(THROTTLE_CONFIRM_EMAIL_ADDRESSES): 429 `throttled` beyond, with `Retry-After`.",
    )
    def post(self, request: Request) -> Response:
        address = parse(SignInSerializer, request)["email"]
        wait = mail_wait(request, mailbox_throttles(address))
        if wait is not None:
            raise Throttled(wait)
        sign_in.queue_sign_in(address)
        answer: shapes.SignInAsked = {"link_minutes": settings.SIGN_IN_LINK_MINUTES}
        return Response(answer, status=202)
