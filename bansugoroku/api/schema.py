"""OpenAPI descriptions of the API's answers (the views return dicts built by selectors).

These serializers are never used to serialize; `tests/api/test_schema.py` validates
real responses against the schema generated from them, so they cannot drift.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

from bansugoroku.games.models import CpuLevel, GameState, TableState


def move() -> serializers.ListField:
    return serializers.ListField(child=serializers.IntegerField(), help_text="[from, to]")


class ProblemSerializer(serializers.Serializer[dict[str, Any]]):
    type = serializers.CharField(help_text="A link to /api/v1/problems/{code}.")
    title = serializers.CharField()
    status = serializers.IntegerField()
    detail = serializers.CharField(help_text="What went wrong, for a person.")
    code = serializers.CharField(
        help_text="Stable, for clients to switch on: invalid_request, not_authenticated, "
        "not_a_player, not_the_host, table_not_found, table_full, table_closed, wrong_state, "
        "not_your_turn, game_over, nothing_to_undo, stale_state, illegal_move, game_not_found, "
        "game_in_progress, throttled, ... (GET /api/v1/problems/{code} describes each)"
    )
    # The serializer's metaclass takes declared fields out of the class, so this one does
    # not replace Serializer.errors; the stubs cannot tell.
    errors = serializers.DictField(  # type: ignore[assignment]
        required=False, help_text="Per field, on invalid_request."
    )
    version = serializers.IntegerField(
        required=False, help_text="The table's version, on stale_state."
    )
    reason = serializers.CharField(
        required=False,
        help_text="On illegal_move: bar_first, no_stone, no_die, blocked, cannot_bear_off, "
        "must_use_both, must_use_higher, turn_over or bad_move.",
    )
    move = serializers.ListField(child=serializers.IntegerField(), required=False)
    index = serializers.IntegerField(required=False, help_text="Which sent move was refused.")


PROBLEM = OpenApiResponse(ProblemSerializer, description="A problem (RFC 9457).")


def problems(*statuses: int) -> dict[tuple[int, str], Any]:
    """Error answers, under the media type they are really sent with."""
    return {(status, "application/problem+json"): PROBLEM for status in statuses}


class ProblemTypeSerializer(serializers.Serializer[dict[str, Any]]):
    code = serializers.CharField()
    status = serializers.IntegerField()
    title = serializers.CharField()


class PlayerSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    locale = serializers.CharField()


class NewPlayerSerializer(serializers.Serializer[dict[str, Any]]):
    token = serializers.CharField(help_text="Send as `Authorization: Bearer <token>`. Shown once.")
    player = PlayerSerializer()


class RulesOutSerializer(serializers.Serializer[dict[str, Any]]):
    finish = serializers.ChoiceField(["iri", "bear_off"])
    muji = serializers.ChoiceField(["bigger", "on_the_spot", "off"])
    start = serializers.ChoiceField(["alternate", "roll"])


class YouSerializer(serializers.Serializer[dict[str, Any]]):
    seat = serializers.IntegerField(help_text="0: first seat, Black; 1: second seat, White.")
    color = serializers.ChoiceField(["black", "white"])
    is_host = serializers.BooleanField(required=False)


class SeatSerializer(serializers.Serializer[dict[str, Any]]):
    seat = serializers.IntegerField()
    color = serializers.ChoiceField(["black", "white"])
    name = serializers.CharField(allow_null=True)
    cpu = serializers.ChoiceField(CpuLevel.choices, allow_null=True)
    free = serializers.BooleanField()
    you = serializers.BooleanField()


class ScoreSerializer(serializers.Serializer[dict[str, Any]]):
    you = serializers.IntegerField()
    opponent = serializers.IntegerField()
    black = serializers.IntegerField(required=False)
    white = serializers.IntegerField(required=False)


class DiceNameSerializer(serializers.Serializer[dict[str, Any]]):
    kanji = serializers.CharField()
    reading = serializers.CharField()
    spoken = serializers.CharField(help_text='For screen readers: "three and four, shisō".')


class TurnSerializer(serializers.Serializer[dict[str, Any]]):
    number = serializers.IntegerField()
    seat = serializers.IntegerField()
    yours = serializers.BooleanField()
    dice = serializers.ListField(child=serializers.IntegerField())
    dice_name = DiceNameSerializer()
    pending = serializers.ListField(child=move(), required=False, help_text="Your moves so far.")
    pending_notation = serializers.CharField(required=False, allow_blank=True)
    remaining_dice = serializers.ListField(child=serializers.IntegerField(), required=False)
    legal_moves = serializers.ListField(
        child=move(), required=False, help_text="Every single move you may send now."
    )
    can_undo = serializers.BooleanField(required=False)


class PositionSerializer(serializers.Serializer[dict[str, Any]]):
    points = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Your point 1..24: positive your stones, negative the opponent's.",
    )
    bar = serializers.ListField(child=serializers.IntegerField(), help_text="[yours, theirs]")
    off = serializers.ListField(child=serializers.IntegerField(), help_text="[yours, theirs]")
    id = serializers.CharField(help_text="One-line position id, from your side.")
    pips = serializers.ListField(child=serializers.IntegerField(), help_text="[yours, theirs]")


class PointSerializer(serializers.Serializer[dict[str, Any]]):
    point = serializers.IntegerField()
    name = serializers.CharField(help_text='"In 3", "Out 5", "their In 1", ...')
    mine = serializers.IntegerField()
    theirs = serializers.IntegerField()


class ResultSerializer(serializers.Serializer[dict[str, Any]]):
    kind = serializers.ChoiceField(GameState.choices)
    winner_seat = serializers.IntegerField(allow_null=True)
    you_won = serializers.BooleanField(allow_null=True)
    points = serializers.IntegerField()


class GameSerializer(serializers.Serializer[dict[str, Any]]):
    number = serializers.IntegerField()
    state = serializers.ChoiceField(GameState.choices)
    starter = serializers.IntegerField()
    opening_rolls = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField())
    )
    turn = TurnSerializer(allow_null=True)
    position = PositionSerializer()
    board = PointSerializer(many=True)
    result = ResultSerializer(allow_null=True)
    seed_sha256 = serializers.CharField(
        help_text="Commitment to the dice seed, revealed at the end."
    )


class NextGameSerializer(serializers.Serializer[dict[str, Any]]):
    number = serializers.IntegerField(help_text="The game these dice are for.")
    seed_sha256 = serializers.CharField(
        help_text="SHA-256 of the next game's secret dice seed, committed before any entropy."
    )
    published_at_version = serializers.IntegerField(
        help_text="The table version at which the commitment was first shown."
    )
    your_entropy_given = serializers.BooleanField(
        help_text="Whether you gave your entropy for it (join, start, play-again or entropy)."
    )


class TableStateSerializer(serializers.Serializer[dict[str, Any]]):
    code = serializers.CharField()
    invite_url = serializers.URLField()
    version = serializers.IntegerField(help_text="Send it back with every change.")
    state = serializers.ChoiceField(TableState.choices)
    rules = RulesOutSerializer()
    you = YouSerializer()
    seats = SeatSerializer(many=True)
    score = ScoreSerializer()
    game = GameSerializer(allow_null=True)
    next_game = NextGameSerializer(
        allow_null=True, help_text="The next game's dice commitment; null while a game is played."
    )
    updated_at = serializers.DateTimeField()


class TableSummarySerializer(serializers.Serializer[dict[str, Any]]):
    code = serializers.CharField()
    state = serializers.ChoiceField(TableState.choices)
    version = serializers.IntegerField()
    you = YouSerializer()
    opponent = SeatSerializer(allow_null=True)
    score = ScoreSerializer()
    your_turn = serializers.BooleanField()
    game_number = serializers.IntegerField(allow_null=True)
    updated_at = serializers.DateTimeField()
