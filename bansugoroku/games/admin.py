"""The admin: for looking, not for playing. Game state changes only through the services,
so tables, games, turns and events are read-only here; a player's name and locale may be
fixed. Dice seeds stay secret until their game ends, here as everywhere.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from bansugoroku.games.models import Event, Game, MessageReport, Player, Seat, Table, Turn
from bansugoroku.lib.read_only_admin import ReadOnly


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ["name", "locale", "created_at"]
    search_fields = ["name"]
    fields = ["name", "locale", "created_at"]
    readonly_fields = ["created_at"]  # the token hash is never shown or edited

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a player is created with a token, through the API


class SeatInline(ReadOnly[Seat], admin.TabularInline[Seat, Table]):
    model = Seat
    fields = ["number", "player", "cpu", "entropy", "entropy_version", "joined_at"]
    extra = 0


@admin.register(Table)
class TableAdmin(ReadOnly[Table], admin.ModelAdmin[Table]):
    list_display = ["code", "state", "host", "score", "version", "active_at", "updated_at"]
    list_filter = ["state", "closed_reason"]
    search_fields = ["code"]
    list_select_related = ["host"]
    exclude = ["next_seed"]
    inlines = [SeatInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [name for name in super().get_readonly_fields(request, obj) if name != "next_seed"]

    @admin.display(description="score (Black-White)")
    def score(self, table: Table) -> str:
        return f"{table.score_black}-{table.score_white}"


class TurnInline(ReadOnly[Turn], admin.TabularInline[Turn, Game]):
    model = Turn
    fields = ["number", "seat", "dice", "notation", "hit", "position_after", "points"]
    extra = 0


@admin.register(Game)
class GameAdmin(ReadOnly[Game], admin.ModelAdmin[Game]):
    list_display = ["__str__", "state", "starter", "winner", "points", "turn_number", "started_at"]
    list_filter = ["state"]
    search_fields = ["table__code"]
    list_select_related = ["table"]
    exclude = ["seed"]
    extra_readonly = ("seed_hex",)
    inlines = [TurnInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [name for name in super().get_readonly_fields(request, obj) if name != "seed"]

    @admin.display(description="seed")
    def seed_hex(self, game: Game) -> str:
        """Secret while the game is played, like everywhere else."""
        return bytes(game.seed).hex() if game.is_over else "(secret until the game ends)"


@admin.register(Turn)
class TurnAdmin(ReadOnly[Turn], admin.ModelAdmin[Turn]):
    list_display = ["__str__", "seat", "dice", "notation", "hit", "points", "created_at"]
    list_select_related = ["game__table"]
    search_fields = ["game__table__code"]


@admin.register(Event)
class EventAdmin(ReadOnly[Event], admin.ModelAdmin[Event]):
    """What each change did, and whether a worker has handed it on yet."""

    list_display = ["__str__", "kind", "seat", "created_at", "delivered_at"]
    list_filter = ["kind", ("delivered_at", admin.EmptyFieldListFilter)]
    list_select_related = ["table"]
    search_fields = ["table__code"]


@admin.register(MessageReport)
class MessageReportAdmin(ReadOnly[MessageReport], admin.ModelAdmin[MessageReport]):
    """The messages players reported, with the table they were written at: the house
    reads them here (the reporter no longer does)."""

    list_display = ["created_at", "table", "text", "reporter"]
    list_select_related = ["message__table", "reporter"]
    search_fields = ["message__table__code", "message__text"]

    @admin.display(description="table")
    def table(self, report: MessageReport) -> str:
        return report.message.table.code

    @admin.display(description="message")
    def text(self, report: MessageReport) -> str:
        return report.message.text
