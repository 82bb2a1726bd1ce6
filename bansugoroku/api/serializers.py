"""Request bodies: strict (unknown fields are an error) and typed, so bad input is a 400.

Responses are plain dicts built by `bansugoroku.games.selectors`; the serializers under
"Responses" describe them for the OpenAPI schema, and a test holds the two together.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from bansugoroku.games import clocks
from bansugoroku.games.models import CpuLevel
from bansugoroku.players.display_names import MAX_LENGTH, refused_characters
from bansugoroku.players.locales import LOCALE_NAMES
from engine.rules import Finish, Muji, Start
from notifications.consent.mailboxes import NotAnAddress, canonical


class StrictSerializer(serializers.Serializer[Any]):
    """Refuses fields it does not know: a typo should fail loudly, not be ignored."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({name: ["unknown field"] for name in unknown})
        return super().to_internal_value(data)


# drf-spectacular's extensions register themselves in an __init_subclass__ without types.
class StrictSerializerSchema(OpenApiSerializerExtension):  # type: ignore[no-untyped-call]
    """Tells the OpenAPI schema what StrictSerializer enforces: `additionalProperties:
    false`, so generated clients and fuzzers know an unknown field is refused."""

    target_class = StrictSerializer
    match_subclasses = True

    def map_serializer(self, auto_schema: Any, direction: Any) -> Any:
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        return {**schema, "additionalProperties": False}


class Text(serializers.CharField):
    """A string, and only a string: DRF would turn 5 into "5"."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class Name(Text):
    """A display name: NFC, trimmed, not empty, at most 40 characters in any script and
    with any emoji, without the characters `display_names.refused_characters` refuses."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=MAX_LENGTH, **kwargs)

    def to_internal_value(self, data: Any) -> str:
        if isinstance(data, str):
            data = unicodedata.normalize("NFC", data)
        name = super().to_internal_value(data)
        refused = refused_characters(name)
        if refused:
            raise serializers.ValidationError(refused)
        return name


class Locale(serializers.ChoiceField):
    """One of the locales the apps are translated into: en, de, fr, ru, ja."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(list(LOCALE_NAMES.items()), **kwargs)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid_choice", input=data)
        return str(super().to_internal_value(data))


class Integer(serializers.IntegerField):
    """A JSON integer, and only that: DRF would accept "5", 5.0 and true."""

    def to_internal_value(self, data: Any) -> int:
        if type(data) is not int:
            self.fail("invalid")
        return int(super().to_internal_value(data))


class PlayerCreateSerializer(StrictSerializer):
    name = Name(help_text="Display name shown to opponents: 1-40 characters, trimmed.")
    locale = Locale(
        required=False,
        help_text="Left out, the best supported match of the request's Accept-Language "
        "header, else en.",
    )


class Address(serializers.EmailField):
    """An address as `notifications.consent.mailboxes.canonical` writes it, so that every
    spelling of one mailbox is stored, mailed and counted alike."""

    def to_internal_value(self, data: Any) -> str:
        try:
            return canonical(str(super().to_internal_value(data)))
        except NotAnAddress as error:
            raise serializers.ValidationError(str(error)) from None


class PlayerUpdateSerializer(StrictSerializer):
    name = Name(required=False)
    locale = Locale(required=False)
    email = Address(
        required=False,
        allow_null=True,
        max_length=254,
        help_text="Your address for notices: a confirmation link is mailed to it, and no "
        "notice goes to it before it is followed. null removes it.",
    )

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict) and not isinstance(data.get("email", ""), str | None):
            raise serializers.ValidationError({"email": ["a string or null"]})
        return super().to_internal_value(data)


class RulesSerializer(StrictSerializer):
    finish = serializers.ChoiceField([f.value for f in Finish], default=Finish.IRI.value)
    muji = serializers.ChoiceField([m.value for m in Muji], default=Muji.BIGGER.value)
    start = serializers.ChoiceField([s.value for s in Start], default=Start.ALTERNATE.value)


def entropy_field() -> Text:
    return Text(
        max_length=64,
        required=False,
        default="",
        allow_blank=True,
        help_text="Your own randomness for the next game's dice, mixed into every roll. Give "
        "it after reading the table's `next_game.seed_sha256`: the server committed to its "
        "seed before, so neither it nor you can choose the dice.",
    )


class TableCreateSerializer(StrictSerializer):
    rules = RulesSerializer(required=False)
    opponent = serializers.ChoiceField(["friend", "cpu"], default="friend")
    cpu_level = serializers.ChoiceField(
        CpuLevel.choices,
        required=False,
        help_text='Required when opponent is "cpu", refused when it is "friend".',
    )
    start = serializers.BooleanField(
        default=False,
        help_text='With "opponent": "cpu" only: start the first game at once, with no '
        "`POST .../start`. That game's dice then come from the server's seed alone, as no "
        "entropy can follow its commitment in the same request; later games take entropy "
        "as usual. Without it (the default) the host starts the game, giving entropy.",
    )
    clock_days = serializers.ChoiceField(
        [(days, f"{days} days a move") for days in clocks.DAYS],
        required=False,
        allow_null=True,
        default=None,
        help_text="Days a move (null, the default: no clock, only the idle close). Each "
        "player's bank starts a game with these days; each turn they finish adds them "
        f"again, up to {clocks.BANK_CAP} times the days. The player to move whose time "
        "runs out loses the game (won on time, 1 point), or, before each side has "
        'finished two turns, the game is cancelled. Only with "opponent": "friend".',
    )

    open = serializers.BooleanField(
        default=False,
        help_text="Also open the table to anyone, in the lobby (`GET /lobby`), for "
        'OPEN_TABLE_DAYS or until someone takes its seat. Only with "opponent": "friend".',
    )

    rated = serializers.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Its games change both players' ratings (Glicko-2). Left out or null: "
        'rated when it is `open`, not otherwise. Only with "opponent": "friend".',
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["opponent"] == "cpu" and attrs["open"]:
            raise serializers.ValidationError({"open": ["a table with the CPU is not opened"]})
        if attrs["opponent"] == "cpu" and attrs["rated"]:
            raise serializers.ValidationError({"rated": ["a table with the CPU is not rated"]})
        if attrs["opponent"] == "cpu" and attrs.get("clock_days") is not None:
            raise serializers.ValidationError({"clock_days": ["a table with the CPU has no clock"]})
        if attrs["opponent"] == "cpu" and "cpu_level" not in attrs:
            raise serializers.ValidationError({"cpu_level": ["choose easy, normal or hard"]})
        if attrs["opponent"] == "friend" and "cpu_level" in attrs:
            raise serializers.ValidationError({"cpu_level": ["only for a CPU opponent"]})
        if attrs["opponent"] == "friend" and attrs["start"]:
            raise serializers.ValidationError({"start": ["only for a CPU opponent"]})
        return attrs


class JoinSerializer(StrictSerializer):
    entropy = entropy_field()


class VersionSerializer(StrictSerializer):
    version = Integer(
        min_value=1, max_value=2**31 - 1, help_text="The table `version` you last saw."
    )


class NewGameSerializer(VersionSerializer):
    """Starting a game (the first, or the next) may give the caller's entropy for it."""

    entropy = entropy_field()


class EntropySerializer(VersionSerializer):
    entropy = Text(
        max_length=64,
        min_length=1,
        help_text="Your own randomness for the next game's dice (see `next_game`).",
    )


MOVE_SCHEMA = {
    "type": "array",
    "items": {"type": "integer", "minimum": 0, "maximum": 25},
    "minItems": 2,
    "maxItems": 2,
    "description": "One die move [from, to] from your side: from 1-25 (25 = bar), "
    "to 0-24 (0 = off).",
}


@extend_schema_field(
    {
        "type": "array",
        "items": MOVE_SCHEMA,
        "minItems": 1,
        "maxItems": 2,
        "description": "One die move or the whole play, in order, each [from, to] from your side.",
    }
)
class MovesField(serializers.Field[list[list[int]], Any, list[list[int]], Any]):
    """One or two die moves `[[from, to], ...]`, checked in one step.

    Nested DRF list fields are built again for every request and ran three layers of
    validation for four numbers: they took a tenth of a move request's CPU, measured.
    """

    default_error_messages = {
        "invalid": "moves is a list of one or two moves, each [from, to]: two whole "
        "numbers from 0 to 25",
    }

    def to_internal_value(self, data: Any) -> list[list[int]]:
        if type(data) is not list or not 1 <= len(data) <= 2:
            self.fail("invalid")
        for move in data:
            if type(move) is not list or len(move) != 2:
                self.fail("invalid")
            if any(type(n) is not int or not 0 <= n <= 25 for n in move):
                self.fail("invalid")
        return [[move[0], move[1]] for move in data]

    def to_representation(self, value: Any) -> list[list[int]]:
        return [[move[0], move[1]] for move in value]


class MovesSerializer(VersionSerializer):
    moves = MovesField()


class EventsQuerySerializer(serializers.Serializer[Any]):
    after = serializers.IntegerField(
        min_value=0,
        max_value=2**31 - 1,
        default=0,
        help_text="The `sequence` of the last event you have read; 0 for all.",
    )
