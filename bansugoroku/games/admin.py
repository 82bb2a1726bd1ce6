"""The admin: for looking, not for playing. Game state changes only through the services,
so tables, games and turns are read-only here; a player's name and locale may be fixed.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from bansugoroku.games.models import Game, Player, Seat, Table, Turn


class ReadOnly:
    """Shows every field and allows no add, change or delete (the services own the data)."""

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        model = self.model
        fields = [f.name for f in model._meta.fields]
        return fields + list(getattr(self, "extra_readonly", ()))

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "locale", "created_at"]
    search_fields = ["name"]
    fields = ["name", "locale", "created_at"]
    readonly_fields = ["created_at"]  # the token hash is never shown or edited

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a player is created with a token, through the API


class SeatInline(ReadOnly, admin.TabularInline):
    model = Seat
    fields = ["number", "player", "cpu", "entropy", "joined_at"]
    extra = 0


@admin.register(Table)
class TableAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["code", "state", "host", "score", "version", "updated_at"]
    list_filter = ["state"]
    search_fields = ["code"]
    list_select_related = ["host"]
    inlines = [SeatInline]

    @admin.display(description="score (Black-White)")
    def score(self, table: Table) -> str:
        return f"{table.score_black}-{table.score_white}"


class TurnInline(ReadOnly, admin.TabularInline):
    model = Turn
    fields = ["number", "seat", "dice", "notation", "hit", "position_after", "points"]
    extra = 0


@admin.register(Game)
class GameAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["__str__", "state", "starter", "winner", "points", "turn_number", "started_at"]
    list_filter = ["state"]
    search_fields = ["table__code"]
    list_select_related = ["table"]
    exclude = ["seed"]
    extra_readonly = ["seed_hex"]
    inlines = [TurnInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [name for name in super().get_readonly_fields(request, obj) if name != "seed"]

    @admin.display(description="seed")
    def seed_hex(self, game: Game) -> str:
        """Secret while the game is played, like everywhere else."""
        return bytes(game.seed).hex() if game.is_over else "(secret until the game ends)"


@admin.register(Turn)
class TurnAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["__str__", "seat", "dice", "notation", "hit", "points", "created_at"]
    list_select_related = ["game__table"]
    search_fields = ["game__table__code"]
