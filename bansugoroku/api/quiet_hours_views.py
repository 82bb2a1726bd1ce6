"""A player's time zone and quiet hours: `GET` and `PUT` of `/players/me/quiet-hours`
(`games.vacations.set_quiet_hours`, `lib.quiet_hours`)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bansugoroku.api import schema
from bansugoroku.api.auth import player_of
from bansugoroku.api.schema import component
from bansugoroku.api.serializers import Integer, StrictSerializer, Text
from bansugoroku.api.views import parse
from bansugoroku.games import selectors, shapes, vacations
from bansugoroku.lib.local_times import time_zones
from bansugoroku.lib.quiet_hours import MOST_DAYS_OFF, MOST_QUIET_HOURS


class TimeZone(Text):
    def to_internal_value(self, data: Any) -> str:
        name = super().to_internal_value(data)
        if name not in time_zones():
            raise serializers.ValidationError("not an IANA time zone, such as Europe/Berlin")
        return name


def hour(text: str) -> Integer:
    return Integer(min_value=0, max_value=23, allow_null=True, help_text=text)


class QuietHoursSerializer(StrictSerializer):
    time_zone = TimeZone(max_length=64, help_text="An IANA time zone, such as Europe/Berlin.")
    start_hour = hour("The hour a quiet night starts (0-23), or null for none.")
    end_hour = hour("The hour it ends, the next morning when it is the earlier (0-23).")
    days_off = serializers.ListField(
        child=Integer(min_value=1, max_value=7),
        max_length=MOST_DAYS_OFF,
        help_text=f"ISO weekdays (1 Monday to 7 Sunday), {MOST_DAYS_OFF} at most.",
    )

    def validate_days_off(self, days: list[int]) -> list[int]:
        if len(set(days)) != len(days):
            raise serializers.ValidationError("a day is given twice")
        return sorted(days)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        start, end = attrs["start_hour"], attrs["end_hour"]
        if (start is None) != (end is None):
            raise serializers.ValidationError(
                {"end_hour": ["give both hours of the night, or neither"]}
            )
        if start is not None and not 0 < (end - start) % 24 <= MOST_QUIET_HOURS:
            raise serializers.ValidationError(
                {"end_hour": [f"a quiet night is 1 to {MOST_QUIET_HOURS} hours long"]}
            )
        return attrs


ANSWER = {200: component(shapes.QuietHoursSetting)}


class QuietHoursView(APIView):
    @extend_schema(
        operation_id="players_me_quiet_hours",
        request=None,
        responses=ANSWER,
        summary="Your time zone and quiet hours",
    )
    def get(self, request: Request) -> Response:
        return Response(selectors.quiet_hours_setting(player_of(request)))

    @extend_schema(
        operation_id="players_me_quiet_hours_set",
        request=QuietHoursSerializer,
        responses=ANSWER | schema.problems(400),
        summary="Set your time zone and quiet hours",
        description="Your clock does not run in your quiet nights and days off, in your "
        "time zone's wall time (a night is an hour shorter when the clocks go forward). "
        "Each clock of yours that runs is charged what it used until now and runs on under "
        "the new hours, so its `deadline` moves; your opponents see your `quiet_hours` on "
        "your seat. Mails give times in the time zone. All four fields are required.",
    )
    def put(self, request: Request) -> Response:
        fields = parse(QuietHoursSerializer, request)
        player = vacations.set_quiet_hours(
            player_id=player_of(request).pk, **fields, now=timezone.now()
        )
        return Response(selectors.quiet_hours_setting(player))
