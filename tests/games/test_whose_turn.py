"""Whose turn it is has one definition, `Table.seat_to_move`; the SQL that lists a
player's tables theirs to play first mirrors it, and gives the same answers for tables
at every point: waiting, ready, playing, between games, closed."""

from __future__ import annotations

from django.db import connection

from bansugoroku.games import queries
from bansugoroku.games.models import Game, Seat, Table
from tests.client import Api, mover, open_table


def sql_answers() -> dict[tuple[int, int], int | None]:
    """The SQL's seat to move, for each (table, seat number)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"""SELECT t.id, s.number, {queries._SEAT_TO_MOVE}
            FROM {Seat._meta.db_table} s
            JOIN {Table._meta.db_table} t ON t.id = s.table_id
            LEFT JOIN {Game._meta.db_table} g ON g.id = t.current_game_id"""
        )
        return {(table, number): to_move for table, number, to_move in cursor.fetchall()}


def test_the_sql_gives_the_seat_to_move_as_the_table_does(host: Api, guest: Api, api: Api):
    host.post("tables", {"rules": {}})  # waiting for a guest
    ready = host.post("tables", {"rules": {}}).body["code"]
    assert guest.post(f"tables/{ready}/join").status == 200
    open_table(host, guest)  # playing
    ended = open_table(host, guest)
    version = host.state(ended)["version"]
    assert host.post(f"tables/{ended}/resign", {"version": version}).status == 200
    left = open_table(host, guest)
    player, state = mover(left, host, guest)
    assert player.post(f"tables/{left}/leave", {"version": state["version"]}).status == 200

    tables = Table.objects.select_related("current_game")
    by_the_table = {(t.pk, n): t.seat_to_move for t in tables for n in (0, 1)}
    assert sql_answers() == by_the_table
    assert sorted(by_the_table.values(), key=str) == [0, 0] + [None] * 8
