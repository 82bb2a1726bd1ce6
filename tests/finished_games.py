"""Finished games for tests that read history: played quickly through the services."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from bansugoroku.games import services
from bansugoroku.games.models import Game, Player, Table, Turn
from bansugoroku.games.player_tokens import token_hash
from engine.notation import position_id
from engine.plays import apply_moves, hits, legal_plays
from engine.side import Side
from tests.client import Api, mover, open_table
from tests.wins import Win


def play_out(code: str, rng: random.Random) -> Game:
    """Play the table's current game to its end through the services, quickly: each turn
    a play that brings the stones furthest home, but one that hits while none has yet,
    so the game has a hit."""
    hit = False
    for _ in range(2000):
        table = Table.objects.select_related("current_game").get(code=code)
        game = table.current_game
        assert game is not None
        if game.is_over:
            return game
        seat = table.seats.get(number=game.turn_seat)
        position = Side(game.turn_seat).sees(game.board())
        plays = legal_plays(position, (game.dice[0], game.dice[1]), table.rules)
        hitting = [p for p in plays if any(hits(position, p.moves))]
        if hitting and not hit:
            play = rng.choice(hitting)
        else:
            rng.shuffle(plays)
            play = min(plays, key=lambda p: apply_moves(position, p.moves).pip_count()[0])
        hit = hit or play in hitting
        services.game_move(
            player=seat.player, code=code, version=table.version, moves=list(play.moves)
        )
    raise AssertionError("the game did not end")


def whole_play(code: str) -> list[list[int]]:
    """A complete play of the turn being played at the table, from the mover's side as
    they send it: the moves that end the turn."""
    table = Table.objects.select_related("current_game").get(code=code)
    game = table.current_game
    assert game is not None and not game.pending
    position = Side(game.turn_seat).sees(game.board())
    play = legal_plays(position, (game.dice[0], game.dice[1]), table.rules)[0]
    return [list(move) for move in play.moves]


def finished_table(host: Api, guest: Api, rules: dict[str, str] | None = None) -> str:
    """A table whose first game is over, with a hit in it; seats give their own entropy."""
    code = host.post("tables", {"rules": rules or {}}).body["code"]
    assert guest.post(f"tables/{code}/join", {"entropy": "ben ü"}).status == 200
    start = {"version": host.state(code)["version"], "entropy": "aiko's dice"}
    assert host.post(f"tables/{code}/start", start).status == 200
    play_out(code, random.Random(code))
    assert Turn.objects.filter(game__table__code=code, hit=True).exists()
    return code


def won_table(host: Api, guest: Api, win: Win) -> tuple[str, Api]:
    """A table whose first game `win` ended, through the API; and its winner. The game
    is put one move before its end (its history then no longer replays)."""
    code = open_table(host, guest, win.rules.to_json())
    winner, state = mover(code, host, guest)
    loser = guest if winner is host else host
    if not win.moves:
        version = state["version"]
        assert loser.post(f"tables/{code}/resign", {"version": version}).status == 200
        return code, winner
    stored = Side(state["game"]["turn"]["seat"]).sees(win.before)
    Game.objects.filter(table__code=code).update(position=position_id(stored), dice=win.dice)
    body = {"version": state["version"], "moves": [list(m) for m in win.moves]}
    answer = winner.post(f"tables/{code}/moves", body)
    assert answer.status == 200, answer.body
    return code, winner


@dataclass(frozen=True)
class Played:
    code: str
    host: Api
    guest: Api


@contextmanager
def played_once(django_db_blocker: Any) -> Iterator[Played]:
    """A finished game committed once for a whole test module, and deleted after it.

    Playing a game takes a second; each test's own changes to it roll back with the
    test's transaction, so the tests still cannot see each other's."""
    with django_db_blocker.unblock():
        host, guest = Api().new_player("Aiko"), Api().new_player("Ben")
        played = Played(finished_table(host, guest), host, guest)
    try:
        yield played
    finally:
        with django_db_blocker.unblock():
            Table.objects.filter(code=played.code).delete()
            tokens = [token_hash(str(player.token)) for player in (host, guest)]
            Player.objects.filter(token_hash__in=tokens).delete()


def to_move(code: str, host: Api, guest: Api) -> tuple[Api, Api]:
    table = Table.objects.select_related("current_game").get(code=code)
    assert table.current_game is not None
    return (host, guest) if table.current_game.turn_seat == 0 else (guest, host)


def play_turn(code: str, host: Api, guest: Api) -> Api:
    """The mover plays a whole turn; returns who played it."""
    me, _ = to_move(code, host, guest)
    answer = me.post(
        f"tables/{code}/moves", {"version": me.state(code)["version"], "moves": whole_play(code)}
    )
    assert answer.status == 200, answer.body
    return me


def without_auto_vacation(*players: Api) -> None:
    """The players turn auto-vacation off, so that their clocks can run out."""
    for player in players:
        assert player.patch("players/me/vacation", {"auto": False}).status == 200
