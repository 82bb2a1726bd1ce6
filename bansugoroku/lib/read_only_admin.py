"""A base for the admin pages of data that only the services change: every app's admin
builds on it, so it sits below them all (the import-linter layers put `notifications`
below `bansugoroku.games.admin`)."""

from __future__ import annotations

from typing import Any, TypeVar

from django.contrib.admin.options import BaseModelAdmin
from django.db.models import Model
from django.http import HttpRequest

_M = TypeVar("_M", bound=Model)


class ReadOnly(BaseModelAdmin[_M]):
    """Shows every field and allows no add, change or delete (the services own the data)."""

    extra_readonly: tuple[str, ...] = ()
    """Read-only entries that are not model fields: methods of the admin."""

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        fields = [f.name for f in self.model._meta.fields]
        return fields + list(self.extra_readonly)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
