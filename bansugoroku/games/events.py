"""What each change did, as rows of the `Event` outbox: built here, written by the change.

A service hands its engine `Step` (or a join) to these builders, each payload of its
kind's type (`games.payloads`);
they number the events after the table's last one, so the outbox insert in the same
statement as the change can never write an event twice: `(table, sequence)` is unique.
The notices, the CPU's turn and live updates read these rows (`games.tasks`), and a
client that was away reads them at `GET /api/v1/tables/{code}/events`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bansugoroku.games import payloads
from bansugoroku.games.models import Event, EventKind, Game, Message, Table
from engine.game import Ending, FinishedTurn, Step
from engine.side import Side

HOW: dict[Ending, payloads.How] = {
    Ending.WON: "normal",
    Ending.RESIGNED: "resigned",
    Ending.ABANDONED: "abandoned",
    Ending.TIMED_OUT: "time",
    Ending.CANCELLED: "cancelled",
}
"""How a game ended, as `game_ended` says it."""


def _event(
    table: Table, game: Game | None, kind: EventKind, seat: int | None, payload: Mapping[str, Any]
) -> Event:
    table.last_event += 1
    return Event(
        table=table, game=game, sequence=table.last_event, kind=kind, seat=seat, payload=payload
    )


def player_joined(table: Table, seat: int, name: str) -> Event:
    payload: payloads.PlayerJoined = {"name": name}
    return _event(table, None, EventKind.PLAYER_JOINED, seat, payload)


def message_written(table: Table, message: Message, *, with_move: bool) -> Event:
    payload: payloads.MessageWritten = {"id": message.pk, "with_move": with_move}
    return _event(table, None, EventKind.MESSAGE, message.seat, payload)


def table_left(table: Table, game: Game | None, seat: Side, name: str) -> Event:
    """`table_closed` when the player in `seat` leaves, with the same `game` and `score`
    as the idle close's (`games.idle`); `game` is the game it ended, if one was played."""
    payload: payloads.TableLeft = {
        "reason": "left",
        "name": name,
        "game": game.number if game else None,
        "score": [table.score_black, table.score_white],
    }
    return _event(table, game, EventKind.TABLE_CLOSED, int(seat), payload)


def after_step(table: Table, game: Game, step: Step, *, started: bool = False) -> list[Event]:
    """The events of an engine step: the game's start, then the turn it passed to or
    the end it reached, each with the play and the passes that led there."""
    value = step.game
    events = []
    if started:
        payload: payloads.GameStarted = {
            "game": game.number,
            "starter": int(value.starter),
            "opening_rolls": [list(r) for r in value.opening_rolls],
            "seed_sha256": game.seed_hash,
        }
        events.append(_event(table, game, EventKind.GAME_STARTED, value.starter, payload))
    if not step.turns and not started and value.result is None:
        return events  # a move within a turn, or an undo: nothing to tell
    played = [t for t in step.turns if not t.is_pass]
    lead: payloads.Lead = {
        "game": game.number,
        "played": _played(played[0]) if played else None,
        "passes": [_pass(t) for t in step.turns if t.is_pass],
    }
    if value.result is None:
        turn: payloads.TurnStarted = {
            **lead,
            "turn": value.turn_number,
            "seat": int(value.to_move),
            "dice": list(value.dice),
        }
        events.append(_event(table, game, EventKind.TURN_STARTED, value.to_move, turn))
    else:
        events.append(_ended(table, game, value.result.ending, value.result.winner, lead))
    return events


def _ended(
    table: Table, game: Game, ending: Ending, winner: Side | None, lead: payloads.Lead
) -> Event:
    """`game_ended`, with the table's score after it (the game row holds its points)."""
    payload: payloads.GameEnded = {
        **lead,
        "winner": None if winner is None else int(winner),
        "points": game.points,
        "how": HOW[ending],
        "win_kind": game.win_kind or None,
        "score": [table.score_black, table.score_white],
    }
    return _event(table, game, EventKind.GAME_ENDED, winner, payload)


def _played(turn: FinishedTurn) -> payloads.Played:
    return {
        "turn": turn.number,
        "seat": int(turn.side),
        "dice": list(turn.dice),
        "moves": [list(m) for m in turn.moves],
        "notation": turn.notation,
        "hit": turn.hit,
    }


def _pass(turn: FinishedTurn) -> payloads.Passed:
    return {"turn": turn.number, "seat": int(turn.side), "dice": list(turn.dice)}


def note_turns(game: Game, turns: Iterable[FinishedTurn]) -> None:
    """Keep `game.recent` up to date with the turns a step finished: a play becomes its
    seat's last play and starts its seat's list of turns since over; every turn, a play
    or a pass, goes on the other lists (a pass on both, its own seat's included)."""
    plays = list(game.recent.get("plays", [None, None]))
    since = [list(s) for s in game.recent.get("since", [[], []])]
    for turn in turns:
        told: payloads.Played | payloads.Passed
        told = _pass(turn) if turn.is_pass else _played(turn)
        for seat, listed in enumerate(since):
            if turn.is_pass or seat != turn.side:
                listed.append(told)
        if not turn.is_pass:
            plays[turn.side] = _played(turn)
            since[turn.side] = []
    game.recent = {"plays": plays, "since": since}
