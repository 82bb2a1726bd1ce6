"""Request bodies of the notices API: strict, like the rest of the API."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from bansugoroku.api.serializers import Address, StrictSerializer, Text
from bansugoroku.games import clocks
from notifications.models import EmailMode, Kind

MAX_MUTES = 500


class Bool(serializers.BooleanField):
    """true or false, and only that: DRF would take "yes", 1 and "on"."""

    def to_internal_value(self, data: Any) -> bool:
        if type(data) is not bool:
            self.fail("invalid", input=data)
        return data


@extend_schema_field(
    {"type": "array", "items": {"type": "string", "maxLength": 6}, "maxItems": MAX_MUTES}
)
class TableCodes(serializers.Field[list[str], Any, list[str], Any]):
    """Table codes, checked in one step: a nested list field would report errors by
    index, as a dict with integer keys."""

    default_error_messages = {
        "invalid": f"a list of at most {MAX_MUTES} table codes, each 6 characters at most"
    }

    def to_internal_value(self, data: Any) -> list[str]:
        if type(data) is not list or len(data) > MAX_MUTES:
            self.fail("invalid")
        if any(type(code) is not str or not 1 <= len(code) <= 6 for code in data):
            self.fail("invalid")
        return list(data)

    def to_representation(self, value: Any) -> list[str]:
        return list(value)


class ChannelsSerializer(StrictSerializer):
    email = Bool(required=False)
    push = Bool(required=False)


def _kinds() -> dict[str, Any]:
    return {kind.value: ChannelsSerializer(required=False) for kind in Kind}


KindsSerializer = type("KindsSerializer", (StrictSerializer,), _kinds())


class PreferencesSerializer(StrictSerializer):
    email_mode = serializers.ChoiceField(EmailMode.choices, required=False)
    kinds = KindsSerializer(required=False, help_text="Only the kinds and channels to change.")
    muted_tables = TableCodes(
        required=False,
        help_text="Replaces the list: the codes of your tables to hear nothing about.",
    )
    play_by_reply = Bool(required=False, help_text='Answer "your turn" e-mails with the move.')
    play_by_reply_cpu = Bool(required=False, help_text="The same at tables against the CPU.")
    clock_reminders = serializers.ListField(
        child=serializers.ChoiceField(clocks.REMINDER_HOURS),
        max_length=clocks.MOST_REMINDERS,
        required=False,
        help_text="Replaces the list: the hours before a deadline of yours to be reminded "
        f"at, {clocks.MOST_REMINDERS} at most, each one of {list(clocks.REMINDER_HOURS)}; "
        "[] for none. The change counts from your next turn.",
    )

    def validate_clock_reminders(self, value: list[int]) -> list[int]:
        return sorted(set(value), reverse=True)


class ConfirmSerializer(StrictSerializer):
    token = Text(max_length=1000, help_text="The token of the confirmation link.")


class SignInSerializer(StrictSerializer):
    email = Address(max_length=254, help_text="The address a player confirmed for notices.")
