"""Request bodies of the notices API: strict, like the rest of the API."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from bansugoroku.api.serializers import StrictSerializer, Text
from notifications.models import EmailMode, Kind


class Bool(serializers.BooleanField):
    """true or false, and only that: DRF would take "yes", 1 and "on"."""

    def to_internal_value(self, data: Any) -> bool:
        if type(data) is not bool:
            self.fail("invalid", input=data)
        return data


class ChannelsSerializer(StrictSerializer):
    email = Bool(required=False)
    push = Bool(required=False)


def _kinds() -> dict[str, Any]:
    return {kind.value: ChannelsSerializer(required=False) for kind in Kind}


KindsSerializer = type("KindsSerializer", (StrictSerializer,), _kinds())


class PreferencesSerializer(StrictSerializer):
    email_mode = serializers.ChoiceField(EmailMode.choices, required=False)
    kinds = KindsSerializer(required=False, help_text="Only the kinds and channels to change.")
    muted_tables = serializers.ListField(
        child=Text(min_length=1, max_length=6),
        max_length=500,
        required=False,
        help_text="Replaces the list: the codes of your tables to hear nothing about.",
    )


class ConfirmSerializer(StrictSerializer):
    token = Text(max_length=1000, help_text="The token of the confirmation link.")
