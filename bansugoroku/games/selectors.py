"""Reads: the table as one seat sees it, a player's tables, a game's history.

Everything a client shows comes from here, numbered from the caller's side, so a thin
client needs no rules of its own: the legal single moves are listed with the state.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings

from bansugoroku.games import allowed, clocks, messages, queries, shapes
from bansugoroku.games.models import (
    Event,
    EventKind,
    Game,
    Player,
    Seat,
    Table,
    TableState,
)
from bansugoroku.games.store import (
    Caller,
    clean_code,
    game_value,
    load_table,
    note_seen,
    seat_of,
)
from bansugoroku.lib.quiet_hours import MOST_DAYS_OFF, MOST_QUIET_HOURS
from bansugoroku.lib.site import site_url
from engine.game import GameValue
from engine.names import point_name, roll_name, spoken_roll
from engine.notation import format_play, marked_hits, position_id
from engine.position import Position
from engine.rules import Rules
from engine.side import Side
from engine.turn import TurnInProgress


def table_for_player(*, code: str, player: Caller) -> Table:
    """The caller's table with its seats and game, or TableNotFound (also when the
    caller doesn't sit at it). The caller counts as looking at it (`store.note_seen`)."""
    table = load_table(code, caller=player)
    seat = seat_of(table, player)
    seat.last_seen_at = note_seen(seat.pk, seat.last_seen_at)
    return table


def table_unseen(code: str) -> Table:
    """The table with its seats and game, as `table_for_player` reads it, for the worker
    writing a player a mail about it: nobody is looking at it."""
    return load_table(code)


def table_version(*, code: str, player: Player) -> int | None:
    """The table's version if the caller sits at it, else None (they get the full answer
    and its error). A poll counts as looking at the table too."""
    found = queries.table_version(clean_code(code), player.pk)
    if found is None:
        return None
    version, seat_id, last_seen_at = found
    note_seen(seat_id, last_seen_at)
    return version


def tables_waiting_count(player: Player) -> int:
    """How many tables wait for the player's move (every page's header counts them)."""
    return queries.tables_waiting_count(player.pk)


def tables_for_player(player: Player) -> list[tuple[Seat, Seat]]:
    """The caller's seats, each with the other seat at its table: those waiting for the
    caller's move first, then the ones that have waited longest. One query whatever
    the count."""
    found = []
    for seat, table, game, other, opponent in queries.tables_of_player(player.pk):
        table.current_game = game
        seat.table, other.table, other.player = table, table, opponent
        found.append((seat, other))
    return found


def turn_to_play(table: Table, seat: Seat) -> TurnInProgress | None:
    """The seat's turn as the engine holds it, from the seat's side (the moves sent so
    far included), while it is the seat's to play; else None. For a "your turn" mail,
    which shows the position and its legal plays."""
    game = table.current_game
    if game is None or game.is_over or table.seat_to_move != seat.number:
        return None
    return game_value(table, game).turn


def invite_url(table: Table) -> str:
    return f"{site_url()}/t/{table.code}"


def table_state(
    table: Table, player: Caller, value: GameValue | None = None
) -> shapes.TableStateJson:
    """The whole table from the side of `player`, who sits at it. `value` is its current
    game as the engine value a change just made (`services.Change.game`), if the caller
    has it: the turn is then read from it, not rebuilt from the row."""
    seat = seat_of(table, player)
    me, other = seat.side, seat.side.other
    score = table.score
    return {
        "code": table.code,
        "invite_url": invite_url(table),
        "version": table.version,
        "state": table.state,
        "closed_reason": table.closed_reason or None,
        "rules": rules_json(table.rules),
        "rated": table.rated,
        "clock": _clock(table, me),
        "you": {"seat": me, "color": seat.color, "is_host": table.host_id == seat.player_id},
        "seats": [_seat(s, me) for s in table.seats.all()],
        "score": {"you": score[me], "opponent": score[other], "black": score[0], "white": score[1]},
        "can_start": allowed.start_refusal(table, seat) is None,
        "can_play_again": allowed.play_again_refusal(table) is None,
        "can_resign": allowed.game_refusal(table) is None,
        "game": _game(table, table.current_game, me, value) if table.current_game else None,
        "next_game": _next_game(table, seat),
        "updated_at": table.updated_at.isoformat(),
        "active_at": table.active_at.isoformat(),
        "closes_at": None if (closes := table.closes_at) is None else closes.isoformat(),
        "open_until": _iso(table.open_until) if table.state == TableState.WAITING else None,
    }


def _clock(table: Table, me: Side) -> shapes.ClockJson | None:
    if table.clock_days is None:
        return None
    seats = list(table.seats.all())
    allowance = clocks.allowance(table.clock_days)
    banks = [(s.clock_left or allowance).total_seconds() for s in (seats[me], seats[me.other])]
    return {
        "days": table.clock_days,
        "cap_days": clocks.BANK_CAP * table.clock_days,
        "day_seconds": settings.CLOCK_DAY_SECONDS,
        "banks": banks,
        "deadline": _iso(table.deadline),
        "turn_started_at": _iso(table.turn_started_at),
        "quiet_spans": _quiet_spans(table, seats),
    }


def _quiet_spans(table: Table, seats: list[Seat]) -> list[list[str]]:
    started, deadline, to_move = table.turn_started_at, table.deadline, table.seat_to_move
    if started is None or deadline is None or to_move is None:
        return []
    mover = seats[to_move].player
    assert mover is not None
    return [
        [start.isoformat(), end.isoformat()]
        for start, end in clocks.quiet_spans(mover, started, deadline)
    ]


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def table_summary(seat: Seat, opponent: Seat) -> shapes.TableSummary:
    """One line of "my tables"."""
    table = seat.table
    game = table.current_game
    me = seat.side
    to_move = table.seat_to_move
    return {
        "code": table.code,
        "state": table.state,
        "version": table.version,
        "rules": rules_json(table.rules),
        "you": {"seat": me, "color": seat.color},
        "opponent": _seat(opponent, me),
        "score": {"you": table.score[me], "opponent": table.score[me.other]},
        "your_turn": to_move == me,
        "game_number": game.number if game else None,
        "turn_number": game.turn_number if game else None,
        "dice": list(game.dice) if to_move is not None and game else None,
        "deadline": _iso(table.deadline),
        "updated_at": table.updated_at.isoformat(),
    }


def rules_json(rules: Rules) -> shapes.RulesOut:
    """A table's house rules, as the state and a game's export both show them."""
    return {"finish": rules.finish.value, "muji": rules.muji.value, "start": rules.start.value}


def _seat(seat: Seat, me: Side) -> shapes.SeatJson:
    return {
        "seat": seat.number,
        "color": seat.color,
        "name": seat.player.name if seat.player else None,
        "cpu": seat.cpu or None,
        "free": seat.player_id is None and not seat.cpu,
        "you": seat.number == me,
        "vacation_until": _iso(seat.player.vacation_until) if seat.player else None,
        "quiet_hours": quiet_hours_json(seat.player) if seat.player else None,
        "rating": rating_json(seat.player) if seat.player else None,
    }


def rating_json(player: Player) -> shapes.RatingJson:
    return {
        "rating": round(player.rating),
        "deviation": round(player.rating_deviation),
        "games": player.rated_games,
    }


def quiet_hours_json(player: Player) -> shapes.QuietHoursJson | None:
    """The player's quiet hours as their seat shows them; none when they have none."""
    quiet = clocks.quiet_hours(player)
    if not quiet.any:
        return None
    return {
        "time_zone": quiet.zone.key,
        "start_hour": quiet.start,
        "end_hour": quiet.end,
        "days_off": sorted(quiet.days_off),
    }


def quiet_hours_setting(player: Player) -> shapes.QuietHoursSetting:
    """The player's own quiet hours as their settings show them (the API's and the
    page's), with what the settings may hold."""
    shown = quiet_hours_json(player)
    return {
        "time_zone": player.time_zone or "UTC",
        "start_hour": shown["start_hour"] if shown else None,
        "end_hour": shown["end_hour"] if shown else None,
        "days_off": shown["days_off"] if shown else [],
        "most_hours": MOST_QUIET_HOURS,
        "most_days_off": MOST_DAYS_OFF,
    }


def dice_name(dice: tuple[int, int]) -> shapes.DiceName:
    """A roll's old name, as the state and the history both show it."""
    name = roll_name(dice)
    return {"kanji": name.kanji, "reading": name.reading, "spoken": spoken_roll(dice)}


def _game(table: Table, game: Game, me: Side, value: GameValue | None) -> shapes.GameJson:
    mine = table.seat_to_move == me
    if mine and value is None:
        value = game_value(table, game)
    board = me.sees(value.board if value else game.board())
    turn_info: shapes.TurnJson | None = None
    shown = board
    if not game.is_over:
        dice = (game.dice[0], game.dice[1])
        turn_info = {
            "number": game.turn_number,
            "seat": game.turn_seat,
            "yours": mine,
            "dice": list(dice),
            "dice_name": dice_name(dice),
            "pending": [],
            "pending_notation": "",
            "remaining_dice": [],
            "legal_moves": [],
            "legal_move_effects": [],
            "plays_left": [],
            "can_undo": False,
        }
        if mine:
            assert value is not None
            turn = value.turn
            shown = turn.current
            turn_info["pending"] = [list(m) for m in turn.played]
            turn_info["pending_notation"] = format_play(board, turn.played) if turn.played else ""
            turn_info["remaining_dice"] = list(turn.remaining_dice)
            legal = turn.legal_moves()
            turn_info["legal_moves"] = [list(m) for m in legal]
            turn_info["legal_move_effects"] = [
                {"ends_turn": effect.ends_turn, "wins": effect.points}
                for effect in turn.move_effects()
            ]
            turn_info["plays_left"] = [
                {"moves": [list(m) for m in play.moves], "dice": list(play.dice)}
                for play in turn.plays_left()
            ]
            turn_info["can_undo"] = bool(turn.played)
    result: shapes.ResultJson | None = None
    if game.is_over:
        result = {
            "kind": game.state,
            "winner_seat": game.winner,
            "you_won": game.winner == me if game.winner is not None else None,
            "points": game.points,
            "win_kind": game.win_kind or None,
        }
    return {
        "number": game.number,
        "state": game.state,
        "starter": game.starter,
        "opening_rolls": game.opening_rolls,
        "turn": turn_info,
        "position": position_json(shown),
        "board": _board(shown),
        "result": result,
        "seed_sha256": game.seed_hash,
        **_recent(game, me),
    }


def _recent(game: Game, me: Side) -> shapes.Recent:
    """The opponent's last play and every turn since the caller's, from the game row."""
    plays = game.recent.get("plays", [None, None])
    last = plays[me.other]
    if last is not None:
        last = last | {"moves": _seen_moves(me, last)}
    since = game.recent.get("since", [[], []])[me]
    return {
        "last_play": last,
        "passes_since": [told for told in since if "moves" not in told],
        "since_your_play": [_turn_since(told, me) for told in since],
    }


def _turn_since(told: dict[str, Any], me: Side) -> shapes.TurnSince:
    """A turn of `Game.recent` as the state tells it: a pass has no moves there."""
    return {
        "turn": told["turn"],
        "seat": told["seat"],
        "yours": told["seat"] == me,
        "dice": told["dice"],
        "passed": "moves" not in told,
        "moves": _seen_moves(me, told) if "moves" in told else [],
        "notation": told.get("notation", ""),
        "hit": told.get("hit", False),
        "hits": list(marked_hits(told["notation"])) if "moves" in told else [],
    }


def _seen_moves(me: Side, play: dict[str, Any]) -> list[list[int]]:
    """A play's moves, stored from its mover's side, numbered from `me`'s."""
    return [list(m) for m in me.sees_moves(Side(play["seat"]), play["moves"])]


def _next_game(table: Table, seat: Seat) -> shapes.NextGame | None:
    """The commitment to the next game's dice seed, shown from the moment it is drawn
    (the table's creation, the end of a game) until that game starts."""
    if table.next_seed_version is None:
        return None
    game = table.current_game
    return {
        "number": game.number + 1 if game else 1,
        "seed_sha256": table.next_seed_hash,
        "published_at_version": table.next_seed_version,
        "your_entropy_given": seat.entropy_version is not None,
    }


def position_json(position: Position) -> shapes.PositionJson:
    """A position from the side it is seen from, as the state and the history show it."""
    own, theirs = position.pip_count()
    return {
        "points": list(position.points),
        "bar": list(position.bar),
        "off": list(position.off),
        "id": position_id(position),
        "pips": [own, theirs],
    }


def _board(position: Position) -> list[shapes.Point]:
    return [
        {"point": p, "name": point_name(p), "mine": max(n, 0), "theirs": max(-n, 0)}
        for p, n in enumerate(position.points, start=1)
    ]


EVENTS_PAGE = 100
"""Events per answer: a client that was away for a long game reads on with `after`."""


def events_since(table: Table, player: Player, after: int) -> shapes.Events:
    """The table's events after sequence `after`, oldest first, a page at a time; the
    moves in them numbered from the side of `player`, who sits at the table. A message
    comes as `player` reads it (`messages.json_of`), and not at all where they may not
    read it (they mute its seat, or reported it)."""
    seat = seat_of(table, player)
    found = list(
        Event.objects.filter(table=table, sequence__gt=after).order_by("sequence")[
            : EVENTS_PAGE + 1
        ]
    )
    page = found[:EVENTS_PAGE]
    said = [e.payload["id"] for e in page if e.kind == EventKind.MESSAGE]
    shown = {m.pk: m for m in messages.shown_to(seat).filter(pk__in=said)} if said else {}
    return {
        "events": [
            _event(
                event,
                dict(messages.json_of(shown[event.payload["id"]], seat))
                if event.kind == EventKind.MESSAGE
                else _moves_seen(event.payload, seat.side),
            )
            for event in page
            if event.kind != EventKind.MESSAGE or event.payload["id"] in shown
        ],
        "last_sequence": table.last_event,
        "more": len(found) > EVENTS_PAGE,
    }


def _moves_seen(payload: dict[str, Any], me: Side) -> dict[str, Any]:
    """The payload with its play numbered from `me`'s side."""
    played = payload.get("played")
    if played:  # stored from the mover's side, for the notices and the CPU
        moves = me.sees_moves(Side(played["seat"]), played["moves"])
        payload = payload | {"played": played | {"moves": [list(m) for m in moves]}}
    return payload


def _event(event: Event, payload: dict[str, Any]) -> shapes.EventJson:
    return {
        "sequence": event.sequence,
        "kind": event.kind,
        "seat": event.seat,
        "payload": payload,
        "created_at": event.created_at.isoformat(),
    }
