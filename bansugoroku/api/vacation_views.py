"""A player's vacation: `GET`, start (`POST`), end (`DELETE`), and the auto switch
(`PATCH`) of `/players/me/vacation` (`games.vacations`)."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bansugoroku.api import schema
from bansugoroku.api.auth import player_of
from bansugoroku.api.notice_serializers import Bool
from bansugoroku.api.schema import component
from bansugoroku.api.serializers import Integer, StrictSerializer
from bansugoroku.api.views import parse
from bansugoroku.games import shapes, vacations
from bansugoroku.games.models import Player


class VacationStartSerializer(StrictSerializer):
    days = Integer(
        min_value=1,
        max_value=vacations.VACATION_CAP_DAYS,
        help_text="Whole days, from now; no more than you have left.",
    )


class VacationUpdateSerializer(StrictSerializer):
    auto = Bool(help_text="Auto-vacation on or off.")


def vacation_json(player: Player) -> shapes.VacationJson:
    return vacations.shown(player, timezone.now())


ANSWER = {200: component(shapes.VacationJson)}


class VacationView(APIView):
    @extend_schema(
        operation_id="players_me_vacation", request=None, responses=ANSWER, summary="Your vacation"
    )
    def get(self, request: Request) -> Response:
        return Response(vacation_json(player_of(request)))

    @extend_schema(
        operation_id="players_me_vacation_start",
        request=VacationStartSerializer,
        responses=ANSWER | schema.problems(400, 409),
        summary="Start a vacation of some days, now",
        description="Your clocks at every table stop until it ends, and your opponents "
        "see `vacation_until` on your seat. The days are taken at once; ending early gives "
        "back the rest. 409 `on_vacation` during one, `no_vacation_left` when you have "
        "fewer days (`days_left` says how many).",
    )
    def post(self, request: Request) -> Response:
        fields = parse(VacationStartSerializer, request)
        player = player_of(request)
        player = vacations.start(player_id=player.pk, days_count=fields["days"], now=timezone.now())
        return Response(vacation_json(player))

    @extend_schema(
        operation_id="players_me_vacation_end",
        request=None,
        responses=ANSWER | schema.problems(409),
        summary="End your vacation now",
        description="Your clocks run again from now. 409 `not_on_vacation` when none runs.",
    )
    def delete(self, request: Request) -> Response:
        player = vacations.end(player_id=player_of(request).pk, now=timezone.now())
        return Response(vacation_json(player))

    @extend_schema(
        operation_id="players_me_vacation_update",
        request=VacationUpdateSerializer,
        responses=ANSWER | schema.problems(400),
        summary="Turn auto-vacation on or off",
    )
    def patch(self, request: Request) -> Response:
        fields = parse(VacationUpdateSerializer, request)
        player = player_of(request)
        vacations.set_auto(player_id=player.pk, on=fields["auto"])
        player.auto_vacation = fields["auto"]
        return Response(vacation_json(player))
