"""A word to the other player (`games.messages`): `GET`/`POST /tables/{code}/messages`,
`PUT /tables/{code}/mute` and `POST /tables/{code}/messages/{id}/report`."""

from __future__ import annotations

import unicodedata
from typing import Any

from django.conf import settings
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bansugoroku.api import schema
from bansugoroku.api.auth import caller_of
from bansugoroku.api.history_views import private
from bansugoroku.api.schema import component
from bansugoroku.api.serializers import EventsQuerySerializer, StrictSerializer, Text
from bansugoroku.api.views import CODE, parse
from bansugoroku.games import messages, selectors, shapes
from bansugoroku.games.store import seat_of
from bansugoroku.limits.throttles import MessageThrottle, limit_wait
from bansugoroku.players.display_names import refused_characters


class MessageText(Text):
    """Plain text: NFC, trimmed, not empty, at most MESSAGE_MAX_LENGTH characters, with
    line breaks but no other control or format character (as a name refuses them)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=settings.MESSAGE_MAX_LENGTH, **kwargs)

    def to_internal_value(self, data: Any) -> str:
        if isinstance(data, str):
            data = unicodedata.normalize("NFC", data.replace("\r\n", "\n"))
        text = super().to_internal_value(data)
        refused = refused_characters(text.replace("\n", " "))
        if refused:
            raise serializers.ValidationError(refused)
        return text


class MessageSerializer(StrictSerializer):
    text = MessageText(help_text="Plain text, at most MESSAGE_MAX_LENGTH characters.")


class MuteSerializer(StrictSerializer):
    mute = serializers.BooleanField(help_text="True: the other seat's messages are not listed.")


class MessagesView(APIView):
    finds_caller_by_token = True

    @extend_schema(
        operation_id="tables_messages",
        parameters=[CODE, EventsQuerySerializer],
        responses={200: component(shapes.Messages)} | schema.problems(400, 404),
        summary="The messages at the table since message `after`",
        description="Only the two seats read them; anyone else gets 404 `table_not_found`, "
        "as for any table. Not listed: the other seat's while you mute them, and those "
        "you reported. Text is plain: show it as text, never as markup.",
    )
    def get(self, request: Request, code: str) -> Response:
        query = EventsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        caller = caller_of(request)
        table = selectors.table_for_player(code=code, player=caller)
        return private(Response(messages.read(table, caller, query.validated_data["after"])))

    @extend_schema(
        operation_id="tables_messages_send",
        parameters=[CODE],
        request=MessageSerializer,
        responses={201: component(shapes.MessageJson)} | schema.problems(400, 404, 409, 429),
        summary="Say a word to the other player",
        description="At most THROTTLE_MESSAGE a player (429 `throttled` beyond, with "
        "`Retry-After`); 409 `table_closed` at a closed table. The answer is the message "
        "as `GET` lists it.",
    )
    def post(self, request: Request, code: str) -> Response:
        text = parse(MessageSerializer, request)["text"]
        caller = caller_of(request)
        table = selectors.table_for_player(code=code, player=caller)
        wait = limit_wait(MessageThrottle(str(seat_of(table, caller).player_id)), request)
        if wait is not None:
            raise Throttled(wait)
        return Response(messages.send(table, caller, text), status=201)


class MuteView(APIView):
    finds_caller_by_token = True

    @extend_schema(
        operation_id="tables_mute",
        parameters=[CODE],
        request=MuteSerializer,
        responses={204: None} | schema.problems(400, 404),
        summary="Mute the other seat's messages, or no longer",
    )
    def put(self, request: Request, code: str) -> Response:
        mute = parse(MuteSerializer, request)["mute"]
        caller = caller_of(request)
        messages.mute(selectors.table_for_player(code=code, player=caller), caller, mute)
        return Response(status=204)


MESSAGE_ID = OpenApiParameter("message_id", int, OpenApiParameter.PATH)


class ReportView(APIView):
    finds_caller_by_token = True

    @extend_schema(
        operation_id="tables_messages_report",
        parameters=[CODE, MESSAGE_ID],
        request=None,
        responses={204: None} | schema.problems(404),
        summary="Report the other seat's message to the house",
        description="It is no longer listed for you, and the house reads it in the admin "
        "with its table. 404 `message_not_found` for an id that is not the other seat's "
        "message at this table.",
    )
    def post(self, request: Request, code: str, message_id: int) -> Response:
        caller = caller_of(request)
        table = selectors.table_for_player(code=code, player=caller)
        messages.report(table, caller, message_id)
        return Response(status=204)
