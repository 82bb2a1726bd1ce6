"""A player's page, as strangers read it: only for players who came to the lobby
(`Player.listed_at`), and of their tables and games only those against another such
player, so that nobody's name is shown who did not choose to be seen. The games it
lists are the public ones: anyone may replay them (`public_game`)."""

from __future__ import annotations

from django.db.models import Prefetch, Q, QuerySet

from bansugoroku.games import shapes
from bansugoroku.games.errors import GameNotFound, PlayerNotFound, TableNotFound
from bansugoroku.games.models import Block, Game, GameState, Player, Seat, TableState
from bansugoroku.games.records import records
from bansugoroku.games.selectors import rating_json, rules_json
from bansugoroku.games.store import clean_code

RECENT_GAMES = 10


def player_page(player_id: int) -> shapes.PlayerPage:
    """The page of the listed player, or PlayerNotFound (for players who never came to
    the lobby too: the same answer as for an id nobody has)."""
    player = listed(player_id)
    record = records([player.pk])[player.pk]
    return {
        "id": player.pk,
        "name": player.name,
        "rating": rating_json(player),
        "record": {**record.to_json(), "wins": dict(record.wins), "losses": dict(record.losses)},
        "tables": _tables(player),
        "recent_games": _recent_games(player),
    }


def listed(player_id: int) -> Player:
    """The listed player, or PlayerNotFound."""
    player = Player.objects.filter(pk=player_id, listed_at__isnull=False).first()
    if player is None:
        raise PlayerNotFound(f"no player {player_id} is listed")
    return player


def public_game(*, player_id: int, code: str, number: int) -> tuple[Player, Game]:
    """Game `number` at table `code`, for anyone to replay from the side of the listed
    player `player_id`: one their page would list (over, against another listed player),
    also past the latest; the code read as `clean_code` reads it. Any other is
    GameNotFound, as a game nobody played; a player not listed is PlayerNotFound, as
    their page."""
    player = listed(player_id)
    try:
        game = _public_games(player).get(table__code=clean_code(code), number=number)
    except (TableNotFound, Game.DoesNotExist):
        raise GameNotFound(f"player {player_id} has no public game {number} there") from None
    return player, game


def blocks(player: Player, other_id: int) -> bool:
    """Whether the player blocks the other (`services.player_block`), for the button on
    the other's page."""
    return Block.objects.filter(blocker=player, blocked_id=other_id).exists()


def _opposite(player: Player) -> Q:
    """Seats across from the player's, taken by another listed player."""
    return Q(table__seats__player=player) & ~Q(player=player) & Q(player__listed_at__isnull=False)


def _tables(player: Player) -> list[shapes.PlayerTableJson]:
    seats = (
        Seat.objects.filter(_opposite(player))
        .exclude(table__state=TableState.CLOSED)
        .select_related("table", "player")
        .order_by("-table__updated_at")[:50]
    )
    return [
        {
            "opponent": seat.player.name,
            "opponent_id": seat.player.pk,
            "state": seat.table.state,
            "rules": rules_json(seat.table.rules),
            "clock_days": seat.table.clock_days,
            "rated": seat.table.rated,
            "score": {
                "you": seat.table.score[1 - seat.number],
                "opponent": seat.table.score[seat.number],
            },
        }
        for seat in seats
        if seat.player is not None
    ]


def _public_games(player: Player) -> QuerySet[Game]:
    """The player's games that are over at a table with another listed player, each with
    its table's seats and their players."""
    opposite = Seat.objects.filter(_opposite(player))
    return (
        Game.objects.filter(table__in=opposite.values("table"), ended_at__isnull=False)
        .exclude(state=GameState.PLAYING)
        .select_related("table")
        .prefetch_related(Prefetch("table__seats", Seat.objects.select_related("player")))
    )


def _recent_games(player: Player) -> list[shapes.PlayerGameJson]:
    games = _public_games(player).order_by("-ended_at")[:RECENT_GAMES]
    shown: list[shapes.PlayerGameJson] = []
    for game in games:
        seats = list(game.table.seats.all())
        mine = next(seat for seat in seats if seat.player_id == player.pk)
        theirs = seats[1 - mine.number]
        assert theirs.player is not None
        result = "none" if game.winner is None else "won" if game.winner == mine.number else "lost"
        shown.append(
            {
                "table": game.table.code,
                "number": game.number,
                "opponent": theirs.player.name,
                "opponent_id": theirs.player.pk,
                "result": result,
                "win_kind": game.win_kind or None,
                "points": game.points,
                "rated": game.table.rated,
                "ended_at": game.ended_at.isoformat(),  # type: ignore[union-attr]
            }
        )
    return shown
