"""Requests racing for one table version through real database connections: one wins.

Every racer is a thread with its own test client, so its own database connection;
`transaction=True` makes what one connection commits visible to the others. Some races
hold the table row until every racer is waiting for its lock, which proves the requests
were in flight at the same time rather than one after the other. Every change, a move
as any other, waits for the table's lock before it reads (`services._on_game`), and is
then checked against what the change before it left.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

from bansugoroku.games.models import Event, EventKind, Game, GameState, Table, TableState, Turn
from tests.client import Answer, open_table
from tests.races import (
    Before,
    Race,
    before,
    legal_moves,
    outcome,
    post,
    race_behind_lock,
    seated,
)

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def race(*calls: Callable[[], Answer]) -> list[Answer]:
    return Race(*calls).start().answers()


def assert_history_intact(code: str) -> None:
    """Every game's turns are numbered 1..N with no gap or duplicate, N where it should be:
    the turn being played (or resigned in, or that the table closed in) has no row yet; a
    winning or last pass has. The table's events, likewise, are numbered 1..N."""
    for game in Game.objects.filter(table__code=code):
        numbers = list(
            Turn.objects.filter(game=game).order_by("number").values_list("number", flat=True)
        )
        closed_in = Event.objects.filter(game=game, kind=EventKind.TABLE_CLOSED).exists()
        ended_by_a_turn = game.state == GameState.WON or (
            game.state == GameState.ABANDONED and not closed_in
        )
        last = game.turn_number if ended_by_a_turn else game.turn_number - 1
        assert numbers == list(range(1, last + 1)), (game, numbers, game.turn_number)
    table = Table.objects.get(code=code)
    sequences = list(table.events.order_by("sequence").values_list("sequence", flat=True))
    assert sequences == list(range(1, table.last_event + 1)), "events with a gap or twice"


def assert_applied_once(was: Before, move: list[int]) -> None:
    """The move follows this turn's earlier ones, once: in `pending`, or in the turn's row."""
    game = Game.objects.get(pk=was.game_id)
    recorded = (
        Turn.objects.filter(game=game, number=was.turn_number)
        .values_list("moves", flat=True)
        .first()
    )
    if recorded is None:
        assert game.turn_number == was.turn_number
        assert game.pending == [*was.pending, move]
    else:
        assert recorded == [*was.pending, move]
        assert game.pending == []


def test_two_devices_of_one_player_send_the_same_move_and_it_is_played_once(host, guest):
    code = open_table(host, guest)
    me, _ = seated(host, guest, code)
    version, moves = legal_moves(me, code)
    was = before(code)
    body = {"version": version, "moves": [moves[0]]}

    answers = race_behind_lock(code, post(me, code, "moves", body), post(me, code, "moves", body))

    assert sorted(outcome(a) for a in answers) == [(200, None), (409, "stale_state")]
    stale = next(a for a in answers if a.status == 409)
    assert stale.body["version"] == version + 1
    assert Table.objects.get(code=code).version == version + 1
    assert_applied_once(was, moves[0])
    assert_history_intact(code)


def test_a_move_and_the_opponents_resignation_at_once_only_one_happens(host, guest):
    code = open_table(host, guest)
    me, other = seated(host, guest, code)
    version, moves = legal_moves(me, code)
    was = before(code)

    answers = race_behind_lock(
        code,
        post(me, code, "moves", {"version": version, "moves": [moves[0]]}),
        post(other, code, "resign", {"version": version}),
    )

    assert sorted(outcome(a) for a in answers) == [(200, None), (409, "stale_state")]
    game = Game.objects.get(pk=was.game_id)
    table = Table.objects.get(code=code)
    if answers[0].status == 200:
        assert_applied_once(was, moves[0])
        assert game.state == GameState.PLAYING and table.score == (0, 0)
    else:
        assert game.state == GameState.RESIGNED and sum(table.score) == 1
        assert game.pending == was.pending and game.turn_number == was.turn_number
    assert table.version == version + 1
    assert_history_intact(code)


def test_a_move_out_of_turn_never_beats_the_movers_move(host, guest):
    code = open_table(host, guest)
    me, other = seated(host, guest, code)
    version, moves = legal_moves(me, code)
    was = before(code)

    mine, theirs = race_behind_lock(
        code,
        post(me, code, "moves", {"version": version, "moves": [moves[0]]}),
        post(other, code, "moves", {"version": version, "moves": [[24, 23]]}),
    )

    assert outcome(mine) == (200, None)
    assert outcome(theirs) in [(409, "not_your_turn"), (409, "stale_state")]
    assert Table.objects.get(code=code).version == version + 1
    assert_applied_once(was, moves[0])


def test_both_players_asking_for_the_next_game_start_one_game(host, guest):
    code = open_table(host, guest)
    version = host.state(code)["version"]
    assert host.post(f"tables/{code}/resign", {"version": version}).status == 200
    games = Game.objects.filter(table__code=code).count()

    answers = race_behind_lock(
        code,
        post(host, code, "play-again", {"version": version + 1}),
        post(guest, code, "play-again", {"version": version + 1}),
    )

    assert sorted(outcome(a) for a in answers) == [(200, None), (409, "stale_state")]
    table = Table.objects.get(code=code)
    assert table.version == version + 2 and table.state == TableState.PLAYING
    assert Game.objects.filter(table=table).count() == games + 1


def test_a_retried_move_gets_409_and_changes_nothing(host, guest):
    code = open_table(host, guest)
    me, _ = seated(host, guest, code)
    version, moves = legal_moves(me, code)
    was = before(code)
    body = {"version": version, "moves": [moves[0]]}
    assert me.post(f"tables/{code}/moves", body).status == 200
    table = Table.objects.get(code=code)
    game = Game.objects.get(pk=was.game_id)
    turns = list(Turn.objects.filter(game=game).values_list("pk", "number", "moves"))

    retry = me.post(f"tables/{code}/moves", body)

    assert outcome(retry) == (409, "stale_state")
    assert retry.body["version"] == version + 1
    assert Table.objects.get(code=code).version == table.version == version + 1
    game.refresh_from_db()
    assert list(Turn.objects.filter(game=game).values_list("pk", "number", "moves")) == turns
    assert_applied_once(was, moves[0])


RACES = 200
KINDS = ("same_move", "two_moves", "out_of_turn", "same_move", "two_moves", "out_of_turn")
"""Race kinds in turn; every eighth race is a move against a resignation instead."""


def test_200_races_apply_every_change_exactly_once(host, guest):
    code = open_table(host, guest)
    rng = random.Random(2026)
    start_version = Table.objects.get(code=code).version
    tally: Counter[tuple[int, str | None]] = Counter()
    kinds: Counter[str] = Counter()
    for index in range(RACES):
        table = Table.objects.get(code=code)
        run = (lambda *calls: race_behind_lock(code, *calls)) if index % 2 else race
        if table.state == TableState.BETWEEN_GAMES:
            kind = "play_again"
            games = Game.objects.filter(table=table).count()
            body = {"version": table.version}
            answers = run(
                post(host, code, "play-again", body), post(guest, code, "play-again", body)
            )
            assert sorted(outcome(a) for a in answers) == [(200, None), (409, "stale_state")]
            assert Game.objects.filter(table=table).count() == games + 1
        else:
            me, other = seated(host, guest, code)
            version, moves = legal_moves(me, code)
            was = before(code)
            move, second = rng.choice(moves), rng.choice(moves)
            kind = "resign" if index % 8 == 7 else KINDS[index % len(KINDS)]
            if kind == "resign":
                calls = [
                    post(me, code, "moves", {"version": version, "moves": [move]}),
                    post(other, code, "resign", {"version": version}),
                ]
            elif kind == "out_of_turn":
                calls = [
                    post(me, code, "moves", {"version": version, "moves": [move]}),
                    post(other, code, "moves", {"version": version, "moves": [[24, 23]]}),
                ]
            else:
                bodies = [{"version": version, "moves": [m]} for m in (move, second)]
                if kind == "same_move":
                    bodies[1] = bodies[0]
                calls = [post(me, code, "moves", body) for body in bodies]
            answers = run(*calls)
            results = [outcome(a) for a in answers]
            if kind == "out_of_turn":
                assert results[0] == (200, None)
                assert results[1] in [(409, "not_your_turn"), (409, "stale_state")]
            else:
                assert sorted(results) == [(200, None), (409, "stale_state")], kind
            if kind == "resign" and answers[1].status == 200:
                game = Game.objects.get(pk=was.game_id)
                assert game.state == GameState.RESIGNED and game.pending == was.pending
            else:
                won = next(i for i, a in enumerate(answers) if a.status == 200)
                assert_applied_once(was, (move, second)[won] if kind == "two_moves" else move)
        kinds[kind] += 1
        tally.update(outcome(a) for a in answers)
        assert Table.objects.get(code=code).version == table.version + 1, (index, kind)
        assert_history_intact(code)

    assert tally[(200, None)] == RACES
    assert sum(tally.values()) == 2 * RACES
    assert set(tally) <= {(200, None), (409, "stale_state"), (409, "not_your_turn")}
    assert Table.objects.get(code=code).version == start_version + RACES
    assert kinds["play_again"] > 0 and kinds["resign"] > 0, kinds


def test_two_guests_joining_at_once_one_gets_the_seat_the_other_finds_no_table(api, host):
    code = host.post("tables", {"rules": {}}).body["code"]
    ben, chie = api.new_player("Ben"), api.new_player("Chie")

    answers = race_behind_lock(code, post(ben, code, "join", {}), post(chie, code, "join", {}))

    assert sorted(outcome(a) for a in answers) == [(200, None), (404, "table_not_found")]
    joined = "Ben" if answers[0].status == 200 else "Chie"
    seats = Table.objects.get(code=code).seats.order_by("number")
    assert [seat.player.name for seat in seats] == ["Aiko", joined], "the first is kept"
    assert Table.objects.get(code=code).last_event == 1, "one player_joined"


@pytest.mark.parametrize("round_", range(4))
def test_a_leave_racing_a_move_one_happens_never_half_of_both(host, guest, round_):
    """Whichever holds the row first wins: the move is applied once on an open table, or
    the table closes with the game as it stood, the move refused as table_closed."""
    code = open_table(host, guest)
    me, other = seated(host, guest, code)
    version, moves = legal_moves(me, code)
    was = before(code)

    moved, left = race_behind_lock(
        code,
        post(me, code, "moves", {"version": version, "moves": [moves[0]]}),
        post(other, code, "leave", {"version": version}),
    )

    game = Game.objects.get(pk=was.game_id)
    table = Table.objects.get(code=code)
    closings = table.events.filter(kind=EventKind.TABLE_CLOSED).count()
    if outcome(moved) == (200, None):
        assert outcome(left) == (409, "stale_state")
        assert table.state != TableState.CLOSED and closings == 0
        assert_applied_once(was, moves[0])
    else:
        assert (outcome(moved), outcome(left)) == ((409, "table_closed"), (200, None))
        assert (table.state, table.closed_reason, closings) == (TableState.CLOSED, "left", 1)
        assert game.state == GameState.ABANDONED and table.score == (0, 0)
        assert game.pending == was.pending and game.turn_number == was.turn_number
    assert table.version == version + 1
    assert_history_intact(code)


def test_both_players_leaving_at_once_close_the_table_once(host, guest):
    code = open_table(host, guest)
    version = host.state(code)["version"]

    answers = race_behind_lock(
        code,
        post(host, code, "leave", {"version": version}),
        post(guest, code, "leave", {"version": version}),
    )

    assert sorted(outcome(a) for a in answers) == [(200, None), (409, "table_closed")]
    table = Table.objects.get(code=code)
    assert table.version == version + 1 and table.state == TableState.CLOSED
    assert table.events.filter(kind=EventKind.TABLE_CLOSED).count() == 1
    assert_history_intact(code)
