"""OpenAPI descriptions of the history answers (the dicts `bansugoroku.games.history` and
`bansugoroku.games.exports` build).

Like `bansugoroku.api.schema`, these describe and never serialize.
"""

from __future__ import annotations

from rest_framework import serializers

from bansugoroku.api.schema import component
from bansugoroku.games import shapes
from bansugoroku.games.models import CpuLevel, GameState


def move() -> serializers.ListField:
    return serializers.ListField(child=serializers.IntegerField(), help_text="[from, to]")


def dice() -> serializers.ListField:
    return serializers.ListField(child=serializers.IntegerField(), help_text="[die, die]")


class DiceSeedSerializer(serializers.Serializer):
    opening_rolls = serializers.ListField(
        child=dice(),
        help_text="Under the `roll` rule: [Black's die, White's die] until they differ.",
    )
    seed_sha256 = serializers.CharField(
        help_text="SHA-256 of the dice seed, published when the game began."
    )
    seed = serializers.CharField(
        allow_null=True,
        help_text="The dice seed in hex once the game is over; null while it is played.",
    )


class GameSummarySerializer(serializers.Serializer):
    number = serializers.IntegerField()
    state = serializers.ChoiceField(GameState.choices)
    starter = serializers.IntegerField(help_text="The seat that moved first.")
    winner_seat = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField(help_text="What the win added to the score (0: none).")
    turn_count = serializers.IntegerField(help_text="Turns recorded, passes included.")
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)


class HistoryTurnSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    seat = serializers.IntegerField()
    color = serializers.ChoiceField(["black", "white"])
    dice = dice()
    dice_name = component(shapes.DiceName)()
    moves = serializers.ListField(
        child=move(), help_text="From the mover's side, in order; empty for a pass."
    )
    notation = serializers.CharField(help_text='"13/10 10/9*", or "pass".')
    hit = serializers.BooleanField()
    position_after = serializers.CharField(help_text="Position id, seen from Black's side.")
    points = serializers.IntegerField(help_text="Points this play won (0: the game went on).")
    created_at = serializers.DateTimeField()


class GameHistorySerializer(GameSummarySerializer, DiceSeedSerializer):
    table = serializers.CharField()
    turns = HistoryTurnSerializer(many=True)


class ExportSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    color = serializers.ChoiceField(["black", "white"])
    name = serializers.CharField(allow_null=True)
    cpu = serializers.ChoiceField(CpuLevel.choices, allow_null=True)
    entropy = serializers.CharField(
        allow_blank=True, help_text="The seat's contribution to every roll."
    )


class ExportResultSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(GameState.choices)
    winner_seat = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField()


class GameExportSerializer(DiceSeedSerializer):
    format = serializers.ChoiceField(["bansugoroku-game"])
    format_version = serializers.IntegerField()
    table = serializers.CharField()
    rules = component(shapes.RulesOut)()
    seats = ExportSeatSerializer(many=True)
    game = serializers.IntegerField(help_text="The game's number at the table.")
    state = serializers.ChoiceField(GameState.choices)
    starter = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    turns = HistoryTurnSerializer(many=True)
    result = ExportResultSerializer(allow_null=True)


class RollCheckSerializer(serializers.Serializer):
    label = serializers.CharField(help_text='"1", "2", ... or "opening-1", "opening-2", ...')
    turn = serializers.IntegerField(allow_null=True, help_text="null for an opening roll.")
    recorded = dice()
    derived = dice()
    matches = serializers.BooleanField()


class EntropySerializer(serializers.Serializer):
    black = serializers.CharField(allow_blank=True)
    white = serializers.CharField(allow_blank=True)


class DiceVerificationSerializer(serializers.Serializer):
    table = serializers.CharField()
    game = serializers.IntegerField()
    seed = serializers.CharField(help_text="The revealed dice seed, in hex.")
    seed_sha256 = serializers.CharField()
    commitment_matches = serializers.BooleanField(
        help_text="Whether the SHA-256 of the seed is the commitment published at the start."
    )
    entropy = EntropySerializer()
    recipe = serializers.CharField(help_text="How to recompute every roll yourself.")
    rolls = RollCheckSerializer(many=True)
    all_match = serializers.BooleanField()
