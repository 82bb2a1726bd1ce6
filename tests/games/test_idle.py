"""Closing idle tables, and the warnings before: time moved with time-machine, never waited.

The sweep runs against the real database, as the beat task and the command run it.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from bansugoroku.games import idle, payloads
from bansugoroku.games.models import Event, EventKind, Game, GameState, Table, TableState
from tests.client import mover, open_table
from tests.finished_games import whole_play
from tests.moments import START

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


def sweep(**options: int) -> idle.Sweep:
    from django.utils import timezone

    return idle.sweep(now=timezone.now(), **options)


def events(code: str, kind: str) -> list[Event]:
    return list(Event.objects.filter(table__code=code, kind=kind).order_by("sequence"))


def test_a_table_nobody_acts_at_for_45_days_closes_and_its_game_ends_with_no_result(
    clock, host, guest
):
    code = open_table(host, guest)
    player, state = mover(code, host, guest)
    assert (
        player.post(
            f"tables/{code}/moves",
            {"version": state["version"], "moves": [state["game"]["turn"]["legal_moves"][0]]},
        ).status
        == 200
    )
    version = Table.objects.get(code=code).version

    clock.shift(45 * DAY - timedelta(minutes=1))
    assert sweep().closed == 0
    clock.shift(timedelta(minutes=2))
    done = sweep()

    assert (done.closed, done.games_ended) == (1, 1)
    table = Table.objects.get(code=code)
    assert (table.state, table.closed_reason, table.score) == (TableState.CLOSED, "idle", (0, 0))
    assert table.version == version + 1
    game = Game.objects.get(table=table)
    assert (game.state, game.winner, game.points) == (GameState.ABANDONED, None, 0)
    [closed] = events(code, EventKind.TABLE_CLOSED)
    assert closed.sequence == table.last_event and closed.seat is None
    assert closed.game_id == game.pk and closed.delivered_at is None
    assert closed.payload == {
        "reason": "idle",
        "idle_days": 45,
        "last_active_at": (START).isoformat(),
        "game": 1,
        "score": [0, 0],
    }
    assert closed.payload.keys() == payloads.TableClosedIdle.__required_keys__
    assert player.state(code)["state"] == "closed"
    feed = host.get(f"tables/{code}/events?after={closed.sequence - 1}").body["events"]
    assert [e["kind"] for e in feed] == ["table_closed"]


def test_a_move_at_a_closed_table_is_refused_with_table_closed_whatever_the_version(
    clock, host, guest
):
    code = open_table(host, guest)
    player, state = mover(code, host, guest)
    clock.shift(46 * DAY)
    sweep()
    body = {"version": state["version"], "moves": [state["game"]["turn"]["legal_moves"][0]]}

    for version in (state["version"], state["version"] + 1, 10**6):
        answer = player.post(f"tables/{code}/moves", body | {"version": version})
        assert (answer.status, answer.body["code"]) == (409, "table_closed")
    current = {"version": state["version"] + 1}
    for action, extra in [
        ("undo", {}),
        ("resign", {}),
        ("play-again", {}),
        ("entropy", {"entropy": "x"}),
    ]:
        answer = player.post(f"tables/{code}/{action}", current | extra)
        assert answer.status == 409 and answer.body["code"] == "table_closed", action
    assert Table.objects.get(code=code).version == state["version"] + 1


def test_tables_waiting_for_a_guest_or_between_games_close_too_and_keep_their_score(
    clock, api, host, guest
):
    waiting = host.post("tables", {}).body["code"]
    between = open_table(host, guest)
    version = host.state(between)["version"]
    assert host.post(f"tables/{between}/resign", {"version": version}).status == 200

    clock.shift(45 * DAY)
    done = sweep()

    assert (done.closed, done.games_ended) == (2, 0)
    assert Table.objects.get(code=waiting).state == TableState.CLOSED
    table = Table.objects.get(code=between)
    assert table.state == TableState.CLOSED and table.score == (0, 1)
    assert Game.objects.get(table=table).state == GameState.RESIGNED
    [closed] = events(between, EventKind.TABLE_CLOSED)
    assert (closed.payload["game"], closed.payload["score"]) == (None, [0, 1])
    assert closed.game_id is None
    joined = api.new_player("Chie").post(f"tables/{waiting}/join")
    assert (joined.status, joined.body["code"]) == (409, "table_closed")


def play(player, code: str, moves: list[list[int]]) -> int:
    """Send moves as `player`, at the table's version; the new version."""
    version = player.state(code)["version"]
    answer = player.post(f"tables/{code}/moves", {"version": version, "moves": moves})
    assert answer.status == 200, answer.body
    return answer.body["version"]


def test_every_kind_of_activity_restarts_the_idle_clock(clock, host, guest):
    """A join, a game's start, a finished turn, a resignation and a new game."""
    code = host.post("tables", {}).body["code"]
    clock.shift(44 * DAY)
    assert guest.post(f"tables/{code}/join").status == 200
    clock.shift(44 * DAY)
    assert host.post(f"tables/{code}/start", {"version": host.state(code)["version"]}).status == 200
    clock.shift(44 * DAY)
    player, _ = mover(code, host, guest)
    version = play(player, code, whole_play(code))
    clock.shift(44 * DAY)
    assert host.post(f"tables/{code}/resign", {"version": version}).status == 200
    clock.shift(44 * DAY)
    assert guest.post(f"tables/{code}/play-again", {"version": version + 1}).status == 200
    clock.shift(44 * DAY)
    assert sweep().closed == 0

    clock.shift(DAY)
    assert sweep().closed == 1


def test_a_move_that_leaves_the_turn_open_an_undo_and_entropy_are_no_activity(clock, host, guest):
    """Each can be repeated without end: if they counted, one player could keep the
    table, and the other's name and history, alive for ever."""
    code = open_table(host, guest)
    clock.shift(44 * DAY)
    player, state = mover(code, host, guest)
    turn = state["game"]["turn"]
    open_move = next(
        move
        for move, effect in zip(turn["legal_moves"], turn["legal_move_effects"], strict=True)
        if not effect["ends_turn"]
    )
    version = play(player, code, [open_move])
    assert player.post(f"tables/{code}/undo", {"version": version}).status == 200
    assert Table.objects.get(code=code).active_at == START
    clock.shift(DAY)
    assert (sweep().closed, Table.objects.get(code=code).state) == (1, TableState.CLOSED)

    between = open_table(host, guest)
    version = host.post(f"tables/{between}/resign", {"version": host.state(between)["version"]})
    clock.shift(44 * DAY)
    entropy = {"version": version.body["version"], "entropy": "again"}
    assert guest.post(f"tables/{between}/entropy", entropy).status == 200
    clock.shift(DAY)
    assert sweep().closed == 1


def test_the_seats_are_warned_7_days_and_1_day_before_once_each(clock, host, guest):
    code = open_table(host, guest)
    table = Table.objects.get(code=code)
    closes_at = (START + 45 * DAY).isoformat()

    clock.shift(38 * DAY - timedelta(minutes=1))
    assert sweep().warned == {1: 0, 7: 0}
    clock.shift(timedelta(minutes=1))
    assert sweep().warned == {1: 0, 7: 1}
    clock.shift(timedelta(hours=1))
    assert sweep().warned == {1: 0, 7: 0}
    clock.shift(6 * DAY)
    assert sweep().warned == {1: 1, 7: 0}
    assert sweep().warned == {1: 0, 7: 0}

    warnings = events(code, EventKind.TABLE_CLOSING)
    assert [w.payload for w in warnings] == [
        {"closes_at": closes_at, "days_left": 7},
        {"closes_at": closes_at, "days_left": 1},
    ]
    assert warnings[0].payload.keys() == payloads.TableClosing.__required_keys__
    assert all(w.seat is None and w.game_id is None for w in warnings)
    after = Table.objects.get(code=code)
    # A warning is no activity and no change a client must have seen before moving.
    assert (after.version, after.active_at) == (table.version, table.active_at)
    assert after.last_event == warnings[-1].sequence


def test_activity_after_a_warning_starts_a_new_stretch_with_warnings_of_its_own(clock, host, guest):
    code = open_table(host, guest)
    clock.shift(44 * DAY)
    assert sweep().warned == {1: 1, 7: 0}  # past both thresholds: only the nearer
    player, _ = mover(code, host, guest)
    play(player, code, whole_play(code))

    clock.shift(38 * DAY)
    assert sweep().warned == {1: 0, 7: 1}
    clock.shift(6 * DAY)
    assert sweep().warned == {1: 1, 7: 0}
    assert [w.payload["days_left"] for w in events(code, EventKind.TABLE_CLOSING)] == [1, 7, 1]
    assert Table.objects.get(code=code).state == TableState.PLAYING


def test_many_idle_tables_close_in_batches_each_with_its_events_in_sequence(
    clock, host, guest, django_capture_on_commit_callbacks
):
    codes = [open_table(host, guest) for _ in range(5)]
    clock.shift(50 * DAY)

    with django_capture_on_commit_callbacks(execute=True):  # each batch is timed at its commit
        done = sweep(batch=2)

    assert done.closed == 5 and len(done.batch_seconds) == 3
    for code in codes:
        table = Table.objects.get(code=code)
        sequences = list(table.events.values_list("sequence", flat=True))
        assert sequences == list(range(1, table.last_event + 1))
        assert table.events.get(sequence=table.last_event).kind == EventKind.TABLE_CLOSED
    assert sweep().closed == 0


def test_the_idle_time_is_a_setting(clock, host, settings):
    settings.IDLE_CLOSE_DAYS = 3
    code = host.post("tables", {}).body["code"]
    clock.shift(2 * DAY)
    assert sweep().warned == {1: 1, 7: 0}  # 7 days before 3 would be before any activity
    clock.shift(DAY)
    assert sweep().closed == 1
    assert events(code, EventKind.TABLE_CLOSED)[0].payload["idle_days"] == 3


def test_the_command_sweeps_as_of_the_time_given_and_says_what_it_did(clock, host, capsys):
    code = host.post("tables", {}).body["code"]

    call_command("close_idle_tables", "--now", (START + 44 * DAY).isoformat())
    assert "closed 0 idle tables" in capsys.readouterr().out
    call_command("close_idle_tables", "--now", "2027-04-15T12:00:00")  # UTC: 45 days
    output = capsys.readouterr().out

    assert "closed 1 idle tables (0 with a game in progress)" in output
    assert "0 with 1 day(s) left, 0 with 7 day(s) left" in output
    assert Table.objects.get(code=code).state == TableState.CLOSED


@pytest.mark.parametrize("now", ["yesterday", "2027-13-01", "", "2027-01-01T25:00"])
def test_the_command_refuses_a_time_it_cannot_read(db, now):
    with pytest.raises(CommandError, match="not an ISO-8601 time"):
        call_command("close_idle_tables", "--now", now)


def test_beat_runs_the_sweep_every_hour():
    entry = settings.CELERY_BEAT_SCHEDULE["close-idle-tables"]
    assert entry == {"task": "games.close_idle_tables", "schedule": 3600.0}
    from bansugoroku.celery import app

    app.loader.import_default_modules()
    assert "games.close_idle_tables" in app.tasks


def test_the_sweep_finds_its_candidates_on_the_index_of_open_tables(clock, host):
    from django.db import connection

    host.post("tables", {})
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        params = {
            "idle_since": START,
            "not_before": START - 100 * DAY,
            "after_at": START - 100 * DAY,
            "after_id": 0,
            "days_left": 0,
            "limit": 10,
        }
        cursor.execute("EXPLAIN " + idle._PICK_SQL, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "table_open_active" in plan, plan
