"""What a notice says, in its player's language: a subject, a few lines, and the
tables it is about, each with a link straight to the table page (`/tables/CODE`).

E-mail and push say the same things; the mail templates lay them out. A "your turn"
notice is written when it is sent, not when it was made: it lists every table waiting
for the player's move then, oldest first, so a notice that was delayed or folded into a
later one still says what is true. By e-mail it also draws each table's board as the
player sees it, and, where the player plays by reply, gives each table a reply address
(`reply_tokens`) and the notation to answer in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.urls import reverse
from django.utils import translation
from django.utils.dateparse import parse_datetime
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from bansugoroku.games import messages, payloads, selectors
from bansugoroku.games.models import Event, Player, Seat, TableState
from bansugoroku.games.vocabulary import play_text, seat_holder
from bansugoroku.lib.local_times import local_time, zone
from bansugoroku.lib.site import site_url
from engine.names import roll_name
from engine.notation import format_play, mirror_play
from engine.plays import legal_plays
from engine.turn import TurnInProgress
from notifications.consent.preferences import preferences_of
from notifications.mails import boards
from notifications.mails.unlinked import unlinked
from notifications.models import Kind, TableMute
from notifications.replies import tokens as reply_tokens


@dataclass(frozen=True)
class ReplyOffer:
    """How to play a table's turn by replying: the address, and a legal play as the
    player writes it; `forced` is the only legal play when there is one (a reply of
    `ok` plays it)."""

    address: str
    example: str
    forced: bool


@dataclass(frozen=True)
class Board:
    html: str
    text: str


@dataclass(frozen=True)
class TableLine:
    code: str
    url: str
    lines: list[str]
    board: Board | None = None
    reply: ReplyOffer | None = None
    said: list[str] = field(default_factory=list)
    """The other player's unread messages at the table, oldest first, as `unlinked`
    writes them: quoted as text, never as markup."""

    @property
    def said_quoted(self) -> list[str]:
        """The messages as a plain-text mail quotes them, each line after "> "."""
        return ["> " + text.replace("\n", "\n> ") for text in self.said]


@dataclass(frozen=True)
class Content:
    subject: str
    intro: list[str]
    tables: list[TableLine] = field(default_factory=list)

    def line_about(self, code: str) -> TableLine | None:
        """The table the notice was made for, among those listed."""
        return next((table for table in self.tables if table.code == code), None)

    @property
    def reply_to(self) -> str | None:
        """The mail's Reply-To: the first table listed that can be played by reply."""
        return next((t.reply.address for t in self.tables if t.reply), None)


def table_url(code: str) -> str:
    """The table page the web client serves; the apps open it too."""
    return site_url() + reverse("table-page", args=[code])


def dice_text(dice: list[int] | tuple[int, ...]) -> str:
    """A roll with its old name: "5-3 (gusan 五三)"; in Japanese the name alone leads."""
    high, low = sorted(dice, reverse=True)
    name = roll_name((high, low))
    return _("%(high)d-%(low)d (%(reading)s %(kanji)s)") % {
        "high": high,
        "low": low,
        "reading": name.reading,
        "kanji": name.kanji,
    }


def play_seen(notation: str) -> str:
    """The opponent's play as the reader's table page numbers the points, its words in
    the reader's language: the stored notation is in the mover's numbering."""
    return play_text(mirror_play(notation))


def opponent_name(other: Seat) -> str:
    """The other seat's holder, as every page names them; "your opponent" while free."""
    return seat_holder(other) or _("your opponent")


TABLES_NAMED = 3
"""The most open tables the sign-in mail names for a player: enough to tell two players
of one name apart, few enough to read."""


def player_told_apart(player: Player) -> str:
    """The player's name with their open tables, at most TABLES_NAMED of them, each by
    code and opponent: "Ben (tables K7P2QX against Aiko, 9ZR4TB against CPU (Normal))".
    The sign-in mail names each player sharing an address so, for two may share a name.
    In the active language."""
    open_tables = [
        (seat.table.code, other)
        for seat, other in selectors.tables_for_player(player)
        if seat.table.state != TableState.CLOSED
    ]
    if not open_tables:
        return _("%(name)s (no open table)") % {"name": player.name}
    named = [_table_told(code, other) for code, other in open_tables[:TABLES_NAMED]]
    more = len(open_tables) - len(named)
    if more:
        named.append(ngettext("%(count)d more", "%(count)d more", more) % {"count": more})
    tables = ngettext(
        "%(name)s (table %(tables)s)", "%(name)s (tables %(tables)s)", len(open_tables)
    )
    return tables % {"name": player.name, "tables": ", ".join(named)}


def _table_told(code: str, other: Seat) -> str:
    holder = seat_holder(other)
    if holder is None:
        return _("%(code)s with no opponent yet") % {"code": code}
    return _("%(code)s against %(name)s") % {"code": code, "name": holder}


def for_notice(kind: str, event: Event, player: Player, *, by_mail: bool = False) -> Content:
    """The content of a notice of `kind` made from `event`, for `player`, in their
    language; `by_mail` for an e-mail, which shows more."""
    with translation.override(player.locale):
        if kind == Kind.YOUR_TURN:
            return your_turn(player, by_mail=by_mail)
        return _ABOUT_ONE_TABLE[kind](event, player)


def your_turn(player: Player, *, by_mail: bool = False) -> Content:
    """Every table where the player's move is awaited, oldest first, but those muted;
    `by_mail`, each with its board and, where the player plays by reply, its offer."""
    muted = set(TableMute.objects.filter(player=player).values_list("table_id", flat=True))
    prefs = preferences_of(player)
    waiting = [
        _waiting_line(
            seat,
            other,
            by_mail=by_mail,
            reply=by_mail and reply_tokens.plays_by_reply(prefs, (seat, other)),
            player=player,
        )
        for seat, other in selectors.tables_for_player(player)
        if seat.table_id not in muted and seat.table.seat_to_move == seat.number
    ]
    if len(waiting) == 1:
        subject = _("Your turn at %(code)s") % {"code": waiting[0].code}
    else:
        subject = ngettext(
            "Your turn at %(count)d table", "Your turn at %(count)d tables", len(waiting)
        ) % {"count": len(waiting)}
    return Content(subject, [_("Your move is awaited:")], waiting)


def _waiting_line(
    seat: Seat, other: Seat, *, by_mail: bool = False, reply: bool = False, player: Player
) -> TableLine:
    """`seat`'s table, whose turn it is, as `selectors.tables_for_player` gives it: its
    game and the other seat's player read already; `player` is `seat`'s."""
    table = seat.table
    game = table.current_game
    assert game is not None  # a game is being played: it is `seat`'s turn
    them = opponent_name(other)
    lines = [_("Table %(code)s, against %(name)s.") % {"code": table.code, "name": them}]
    play = game.recent.get("plays", [None, None])[other.number]
    if play:
        lines.append(
            _("%(name)s played %(notation)s with %(dice)s.")
            % {
                "name": them,
                "notation": play_seen(play["notation"]),
                "dice": dice_text(play["dice"]),
            }
        )
    since = game.recent.get("since", [[], []])[seat.number]
    for passed in (told for told in since if "moves" not in told):  # a pass has no moves
        who = them if passed["seat"] == other.number else _("You")
        lines.append(
            _("%(name)s rolled %(dice)s and could not move.")
            % {"name": who, "dice": dice_text(passed["dice"])}
        )
    lines.append(_("You rolled %(dice)s.") % {"dice": dice_text(game.dice)})
    if table.deadline is not None:
        when = local_time(table.deadline, player.time_zone)
        lines.append(_("Your time to move runs out on %(when)s.") % {"when": when})
    said = told_messages(seat, them, lines)
    if not by_mail:
        return TableLine(table.code, table_url(table.code), lines, said=said)
    turn = selectors.turn_to_play(table, seat)
    assert turn is not None  # it is `seat`'s turn
    offer = reply_offer(player, seat, turn) if reply else None
    board = turn_board(seat, turn)
    return TableLine(table.code, table_url(table.code), lines, board, offer, said)


MESSAGES_TOLD = 3
"""The most messages a notice quotes for a table, the latest: the table page has all."""


def told_messages(seat: Seat, them: str, lines: list[str]) -> list[str]:
    """The other player's unread messages at `seat`'s table, the latest MESSAGES_TOLD,
    oldest first; saying so in `lines`, and how many more there are."""
    unread = list(messages.unread(seat).order_by("-pk")[: MESSAGES_TOLD + 1])
    if not unread:
        return []
    told = [unlinked(message.text) for message in reversed(unread[:MESSAGES_TOLD])]
    if len(unread) > MESSAGES_TOLD:
        lines.append(
            _("%(name)s wrote (the latest %(count)d; the others are on the table page):")
            % {"name": them, "count": MESSAGES_TOLD}
        )
    else:
        lines.append(_("%(name)s wrote:") % {"name": them})
    return told


def turn_board(seat: Seat, turn: TurnInProgress) -> Board:
    """The position now, the moves sent so far made, from the player's side."""
    position = turn.current
    points, bar, off = list(position.points), list(position.bar), list(position.off)
    colors = (seat.number, 1 - seat.number)
    return Board(
        boards.html_board(points, bar, off, colors),
        boards.text_board(points, bar, off, colors),
    )


def legal_play_texts(turn: TurnInProgress) -> list[str]:
    """The turn's legal plays from its start, one per outcome, as the player writes them."""
    legal = legal_plays(turn.position, turn.dice, turn.rules)
    return [play_text(format_play(turn.position, play.moves)) for play in legal]


def reply_offer(player: Player, seat: Seat, turn: TurnInProgress) -> ReplyOffer | None:
    """A new reply address for the turn, unless some of its moves were sent already
    (from an app): a reply plays a whole turn from its start."""
    if turn.played:
        return None
    plays = legal_play_texts(turn)
    table = seat.table
    assert table.current_game is not None
    address = reply_tokens.issue(player, table, table.current_game)
    return ReplyOffer(address, plays[0], forced=len(plays) == 1)


def game_over(event: Event, player: Player) -> Content:
    payload: payloads.GameEnded = event.payload
    table = event.table
    seats = list(Seat.objects.filter(table=table).select_related("player"))
    mine = next(s.number for s in seats if s.player_id == player.pk)
    other = seats[1 - mine]
    them = opponent_name(other)
    subject = _("Game %(number)d at %(code)s is over") % {
        "number": payload["game"],
        "code": table.code,
    }
    winner, points = payload["winner"], payload["points"]
    if payload["how"] == "cancelled":
        result = _(
            "The time to move ran out before each of you had played two turns: the game "
            "is cancelled, with no result."
        )
    elif payload["how"] == "time" and winner == mine:
        result = _("%(name)s ran out of time to move: you won the game on time (1 point).") % {
            "name": them
        }
    elif payload["how"] == "time":
        result = _("You ran out of time to move: %(name)s won the game on time (1 point).") % {
            "name": them
        }
    elif winner is None:
        result = _("The game ended with no result.")
    elif winner == mine:
        result = ngettext(
            "You won, worth %(points)d point.", "You won, worth %(points)d points.", points
        ) % {"points": points}
    else:
        result = ngettext(
            "%(name)s won, worth %(points)d point.",
            "%(name)s won, worth %(points)d points.",
            points,
        ) % {"name": them, "points": points}
    score = payload["score"]
    line = _("Score: you %(you)d, %(name)s %(them)d.") % {
        "you": score[mine],
        "name": them,
        "them": score[1 - mine],
    }
    return Content(subject, [result], [TableLine(table.code, table_url(table.code), [line])])


def opponent_joined(event: Event, player: Player) -> Content:
    payload: payloads.PlayerJoined = event.payload
    table, name = event.table, payload["name"]
    subject = _("%(name)s joined your table %(code)s") % {"name": name, "code": table.code}
    line = _("%(name)s sat down at %(code)s: the game can start.") % {
        "name": name,
        "code": table.code,
    }
    return Content(subject, [line], [TableLine(table.code, table_url(table.code), [])])


def table_closing(event: Event, player: Player) -> Content:
    payload: payloads.TableClosing = event.payload
    table, days = event.table, payload["days_left"]
    closes_at = parse_datetime(payload["closes_at"])
    when = (
        date_format(closes_at.astimezone(zone(player.time_zone)), "DATE_FORMAT")
        if closes_at
        else ""
    )
    subject = ngettext(
        "Table %(code)s closes in %(days)d day",
        "Table %(code)s closes in %(days)d days",
        days,
    ) % {"code": table.code, "days": days}
    line = _(
        "Nobody has moved at %(code)s for a long time: it closes on %(date)s unless someone moves."
    ) % {
        "code": table.code,
        "date": when,
    }
    return Content(subject, [line], [TableLine(table.code, table_url(table.code), [])])


def table_closed(event: Event, player: Player) -> Content:
    payload: payloads.TableClosed = event.payload
    table = event.table
    subject = _("Table %(code)s was closed") % {"code": table.code}
    if payload["reason"] == "left":  # the payload's own type tells the two apart
        line = _(
            "%(name)s left %(code)s, which closed it: a game in progress there ended "
            "with no winner."
        ) % {"name": payload["name"], "code": table.code}
    else:
        line = _("%(code)s was closed because nobody moved there for a long time.") % {
            "code": table.code
        }
    return Content(subject, [line], [TableLine(table.code, table_url(table.code), [])])


def clock_low(event: Event, player: Player) -> Content:
    payload: payloads.ClockLow = event.payload
    table, hours = event.table, payload["hours"]
    deadline = parse_datetime(payload["deadline"])
    when = local_time(deadline, player.time_zone) if deadline else ""
    subject = ngettext(
        "Your time to move at %(code)s runs out in %(hours)d hour",
        "Your time to move at %(code)s runs out in %(hours)d hours",
        hours,
    ) % {"code": table.code, "hours": hours}
    line = _(
        "It is still your turn at %(code)s: if you do not move by %(when)s, you lose "
        "the game on time."
    ) % {"code": table.code, "when": when}
    return Content(subject, [line], [TableLine(table.code, table_url(table.code), [])])


def auto_vacation(event: Event, player: Player) -> Content:
    payload: payloads.AutoVacation = event.payload
    table = event.table
    until = parse_datetime(payload["until"])
    when = local_time(until, player.time_zone) if until else ""
    subject = _("Your time ran out at %(code)s: a day of vacation started instead") % {
        "code": table.code
    }
    line = _(
        "You are on vacation until %(when)s, and your clocks at every table stand "
        "until then. Vacation days left: %(days)s. Move before your time runs out again."
    ) % {"when": when, "days": number_format(payload["days_left"], 1)}
    return Content(subject, [line], [TableLine(table.code, table_url(table.code), [])])


def message(event: Event, player: Player) -> Content:
    """The other player's unread messages at the event's table."""
    table = event.table
    seats = list(Seat.objects.filter(table=table).select_related("player"))
    mine = next(s for s in seats if s.player_id == player.pk)
    them = opponent_name(seats[1 - mine.number])
    subject = _("%(name)s wrote to you at %(code)s") % {"name": them, "code": table.code}
    lines = [_("Table %(code)s, against %(name)s.") % {"code": table.code, "name": them}]
    said = told_messages(mine, them, lines)
    return Content(subject, [], [TableLine(table.code, table_url(table.code), lines, said=said)])


_ABOUT_ONE_TABLE: dict[str, Callable[[Event, Player], Content]] = {
    Kind.GAME_OVER: game_over,
    Kind.OPPONENT_JOINED: opponent_joined,
    Kind.TABLE_CLOSING: table_closing,
    Kind.TABLE_CLOSED: table_closed,
    Kind.CLOCK_LOW: clock_low,
    Kind.AUTO_VACATION: auto_vacation,
    Kind.MESSAGE: message,
}
