"""Replaying games from their turns: a true history replays clean, a tampered one is caught."""

from __future__ import annotations

from io import StringIO

from django.core.management import CommandError, call_command

from bansugoroku.games import services
from bansugoroku.games.models import Game, Table, Turn
from bansugoroku.games.replay import replay_game, score_problems
from engine.notation import position_id
from engine.position import Position
from tests.client import open_table


def game_of(code: str, number: int = 1) -> Game:
    return Game.objects.select_related("table").get(table__code=code, number=number)


def replay(*args: str) -> tuple[str, CommandError | None]:
    """Run the command; its output and the error it ended with, if any."""
    out = StringIO()
    try:
        call_command("replay_games", *args, stdout=out)
    except CommandError as error:
        return out.getvalue(), error
    return out.getvalue(), None


def test_a_finished_game_replays_clean(finished):
    game = game_of(finished)
    assert game.state == "won" and game.turns.count() > 10
    assert replay_game(game) == []
    assert score_problems(game.table, game.table.games.order_by("number")) == []
    out, error = replay()
    assert error is None and out.strip().splitlines() == ["checked 1 games, 0 differ"]


def test_a_wrong_kind_of_win_is_caught(finished):
    game = game_of(finished)
    kind = game.win_kind
    game.win_kind = "mujo" if kind != "mujo" else "mushi"
    game.save()
    assert replay_game(game) == [
        f"state won, winner {game.winner}, points {game.points}, kind {game.win_kind!r}; "
        f"the replay gives won, winner {game.winner}, points {game.points}, kind {kind!r}"
    ]


def test_games_being_played_replay_clean_pending_moves_included(host, guest, played, finished):
    version = played.host.state(finished)["version"]
    assert played.host.post(f"tables/{finished}/play-again", {"version": version}).status == 200
    other = open_table(host, guest, {"start": "roll", "finish": "bear_off"})
    game = game_of(other)
    seat = game.table.seats.get(number=game.turn_seat)
    state = (host if seat.player.name == "Aiko" else guest).state(other)
    first = state["game"]["turn"]["legal_moves"][0]
    table = services.game_move(
        player=seat.player, code=other, version=state["version"], moves=[first]
    ).table
    assert table.current_game.pending or table.current_game.turn_number > 1
    out, error = replay()
    assert error is None, out
    assert out.strip().splitlines()[-1] == "checked 3 games, 0 differ"


def test_a_resigned_game_replays_clean(host, guest, table):
    state = guest.state(table)
    assert guest.post(f"tables/{table}/resign", {"version": state["version"]}).status == 200
    assert replay_game(game_of(table)) == []
    assert replay()[1] is None


def test_a_turn_with_a_wrong_position_after_is_reported(finished):
    turn = Turn.objects.get(game__table__code=finished, number=5)
    turn.position_after = position_id(Position.start())
    turn.save()
    problems = replay_game(game_of(finished))
    assert len(problems) == 1 and problems[0].startswith("turn 5: position after")
    out, error = replay()
    assert error is not None
    lines = out.strip().splitlines()
    assert lines[0].startswith(f"{finished} game 1 (id ") and "turn 5: position after" in lines[0]
    assert lines[-1] == "checked 1 games, 1 differ"


def test_a_game_with_a_wrong_cached_position_is_reported(finished):
    game = game_of(finished)
    game.position = position_id(Position.start())
    game.save()
    problems = replay_game(game)
    assert len(problems) == 1 and problems[0].startswith("position b4E1C3eE3c1e4B/0-0/0-0")
    assert replay()[1] is not None


def test_a_wrong_latest_play_is_reported(finished):
    game = game_of(finished)
    game.recent["plays"][0]["notation"] = "24/18 13/8"
    game.save()
    problems = replay_game(game)
    assert len(problems) == 1 and problems[0].startswith("recent {'plays'"), problems


def test_a_wrong_result_is_reported(finished):
    game = game_of(finished)
    game.points = game.points % 3 + 1
    game.save()
    assert any(p.startswith("state won") for p in replay_game(game))


def test_dice_that_are_not_the_seeds_are_reported(finished):
    """The dice of a played turn, swapped: the play is still legal, the roll is not the
    seed's."""
    turns = Turn.objects.filter(game__table__code=finished).exclude(moves=[])
    turn = next(t for t in turns if t.dice[0] != t.dice[1])
    turn.dice = turn.dice[::-1]
    turn.save()
    problems = replay_game(game_of(finished))
    assert problems == [f"turn {turn.number}: dice {turn.dice}, the seed gives {turn.dice[::-1]}"]


def test_an_illegal_play_stops_the_replay_there(finished):
    turn = Turn.objects.get(game__table__code=finished, number=3)
    turn.moves = [[24, 1]]
    turn.save()
    problems = replay_game(game_of(finished))
    assert problems[-1].startswith("turn 3:") and "the replay stops there" in problems[-1]


def test_a_wrong_table_score_is_reported_and_the_command_fails(finished):
    table = Table.objects.get(code=finished)
    table.score_black += 2
    table.save()
    assert score_problems(table, table.games.order_by("number"))[0].startswith(
        f"score is {table.score_black}-{table.score_white}"
    )
    out, error = replay()
    assert error is not None
    assert f"{finished}: score is" in out
    assert out.strip().splitlines()[-1] == "checked 1 games, 0 differ; 1 table scores differ"
    # One game alone says nothing about the score; the table alone does.
    assert replay("--game", str(game_of(finished).pk))[1] is None
    assert replay("--table", finished.lower())[1] is not None


def test_the_command_checks_only_what_it_is_asked_to(host, guest, finished, table):
    turn = Turn.objects.get(game__table__code=finished, number=2)
    turn.position_after = position_id(Position.start())
    turn.save()
    out, error = replay("--table", table)
    assert error is None and out.strip() == "checked 1 games, 0 differ"
    out, error = replay("--game", str(game_of(finished).pk))
    assert error is not None and out.strip().splitlines()[-1] == "checked 1 games, 1 differ"
    assert "no game with id" in str(replay("--game", "999999")[1])
    assert "no table with code" in str(replay("--table", "ZZZZZZ")[1])


def test_entropy_given_before_the_commitment_is_reported(finished):
    game = game_of(finished)
    game.white_entropy_version = game.seed_version
    game.save()
    assert replay_game(game) == ["White's entropy was given before the seed was committed to"]
