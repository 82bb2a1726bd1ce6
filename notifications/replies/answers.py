"""The mail that answers a reply to a "your turn" e-mail: the move was played, or why it
was not, with the legal plays while the turn is still the player's.

It is queued by the webhook once the reply's transaction has committed, and written and
sent by the worker (`send_answer`), so the provider posting the reply never waits on the
one sending the answer. It goes only to the player's confirmed address, never to the
reply's sender: only a reply from that address with a token of ours gets one, so a
forged sender gets nothing back. While the turn is still the player's, the answer has a
reply address of its own, to try again from it.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from enum import StrEnum

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from bansugoroku.games import selectors
from bansugoroku.games.errors import TableNotFound
from bansugoroku.games.models import Player, Table
from notifications.consent.addresses import is_suppressed
from notifications.consent.preferences import preferences_of
from notifications.mails.content import (
    Content,
    TableLine,
    dice_text,
    legal_play_texts,
    reply_offer,
    table_url,
    turn_board,
)
from notifications.mails.messages import answer_email
from notifications.models import EmailAddress
from notifications.replies import tokens as reply_tokens

SEND_ANSWER = "notifications.send_answer"
PLAYS_LISTED = 16
"""The most legal plays an answer lists whole; beyond, it lists PLAYS_SHOWN and how
many more (a double may have dozens)."""
PLAYS_SHOWN = 12

log = logging.getLogger(__name__)


class Answer(StrEnum):
    PLAYED = "played"
    NOT_A_PLAY = "not_a_play"
    """Not written as a play, or not a legal one with the player's dice."""
    INCOMPLETE = "incomplete"
    """Legal moves, but not a whole turn: a reply plays the whole turn."""
    NO_MOVE = "no_move"
    NOT_FORCED = "not_forced"
    """`ok`, but the player has more than one play to choose from."""
    MOVED_ON = "moved_on"
    """The table changed since the mail: the turn was played, the game or table ended."""
    USED = "used"
    EXPIRED = "expired"
    TURNED_OFF = "turned_off"


_STILL_YOURS = {Answer.NOT_A_PLAY, Answer.INCOMPLETE, Answer.NO_MOVE, Answer.NOT_FORCED}
"""Answers to a reply that played nothing from a turn that may still be the player's."""


def send_answer(player_id: int, code: str, answer: str, written: str) -> str:
    """Mail the player the answer to their reply about table `code`; `written` is the
    line read as their move. Returns what was done, for the worker's log."""
    email = EmailAddress.objects.select_related("player").filter(player_id=player_id).first()
    if email is None or not email.confirmed or is_suppressed(email.address):
        return "not sent: no confirmed address that takes mail"
    try:
        table = selectors.table_unseen(code)
    except TableNotFound:
        return "not sent: the table is gone"
    said = answer_content(email.player, table, Answer(answer), written)
    try:
        answer_email(email.player, email.address, said).send()
    except Exception:  # the provider is down: the table page still says what happened
        log.warning("the answer to player %s's reply failed", player_id, exc_info=True)
        return "failed"
    return "sent"


def answer_content(player: Player, table: Table, answer: Answer, written: str) -> Content:
    """The answer in the player's language, about `table` as it is now (its seats and
    game loaded, as `selectors.table_unseen` loads them)."""
    with translation.override(player.locale):
        code = table.code
        if answer is Answer.PLAYED:
            subject = _("You played %(play)s at %(code)s") % {"play": written, "code": code}
        else:
            subject = _("Nothing was played at %(code)s") % {"code": code}
        line = TableLine(code, table_url(code), [_why(answer, written)])
        if answer in _STILL_YOURS:
            line = _with_plays_left(player, table, line)
        return Content(subject, [], [line])


def _why(answer: Answer, written: str) -> str:
    return {
        Answer.PLAYED: _("Your move %(play)s was played; your opponent is told."),
        Answer.NOT_A_PLAY: _("“%(play)s” is not a legal play with your dice."),
        Answer.INCOMPLETE: _(
            "%(play)s does not play your whole turn: write every move your dice allow."
        ),
        Answer.NO_MOVE: _("The first line of your reply holds no move."),
        Answer.NOT_FORCED: _("You have more than one play to choose from: write yours."),
        Answer.MOVED_ON: _(
            "The table changed since that mail was sent: nothing was played. Open the "
            "table to see it."
        ),
        Answer.USED: _("You already played that turn with an earlier reply."),
        Answer.EXPIRED: _("That mail is too old to play from: open the table."),
        Answer.TURNED_OFF: _(
            "Playing by reply is turned off in your notice settings: nothing was played."
        ),
    }[answer] % {"play": written[:60]}


def _with_plays_left(player: Player, table: Table, line: TableLine) -> TableLine:
    """The answer's line with the board, the turn's legal plays and a new reply address,
    while the turn is still the player's and none of its moves were sent."""
    seat = next((s for s in table.seats.all() if s.player_id == player.pk), None)
    turn = selectors.turn_to_play(table, seat) if seat else None
    if seat is None or turn is None or turn.played:
        return line
    plays = legal_play_texts(turn)
    shown = ", ".join(plays[:PLAYS_SHOWN] if len(plays) > PLAYS_LISTED else plays)
    if len(plays) > PLAYS_LISTED:
        more = len(plays) - PLAYS_SHOWN
        shown = ngettext("%(plays)s and %(count)d more", "%(plays)s and %(count)d more", more) % {
            "plays": shown,
            "count": more,
        }
    said = _("You rolled %(dice)s. Your legal plays: %(plays)s.") % {
        "dice": dice_text(turn.dice),
        "plays": shown,
    }
    by_reply = reply_tokens.plays_by_reply(preferences_of(player), table.seats.all())
    offer = reply_offer(player, seat, turn) if by_reply else None
    return replace(line, lines=[*line.lines, said], board=turn_board(seat, turn), reply=offer)
