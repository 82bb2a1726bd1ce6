"""Playing a turn by replying to its "your turn" e-mail.

The mail provider posts each mail sent to a reply address (`notifications.reply_tokens`)
to its inbound webhook, `/anymail/<esp>/inbound/`; anymail parses it, in the provider's
own format (`notifications.webhooks.run_webhook`), and it is taken here. The route
exists only while the site receives mail (`reply_tokens.inbound_provider`: an inbound
domain and the webhook's secret set), and anymail's view checks that basic-auth secret
on every post.

A reply plays a move only when its token is one we mailed, unused and unexpired, and
its sender is the token's player's confirmed address (as a mailbox: any case, Gmail's
dots). The first line the player wrote (`notifications.reply_text`) is the move, in
the notation and numbering the mail showed, or `ok` for a forced play. It goes through
the same service as a move on the page, at the table version the mail showed,
with the token's row locked: a mail posted twice, a second reply or a forwarded copy
finds the token used, or the table moved on, and never moves twice. The player gets an
answer by mail (`notifications.reply_mails`): played, or why not. A mail whose token
is unknown, from another sender, unreadable or sent by a program (an out-of-office
notice) gets no answer (a reply to a forged
sender would be backscatter, and two robots could answer each other for ever); each is
counted in the admin (`InboundMail`). No token, address or text is logged or kept.
"""

from __future__ import annotations

import functools
import hashlib

from anymail.inbound import AnymailInboundMessage
from anymail.signals import AnymailInboundEvent
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone, translation
from django.views.decorators.csrf import csrf_exempt

from bansugoroku.games import selectors, services
from bansugoroku.games.errors import IllegalMove, ServiceError
from bansugoroku.games.models import Table
from bansugoroku.games.outbox import send_quietly
from bansugoroku.vocabulary import notation_read, play_text
from engine.notation import NotationError, format_play, parse_play
from engine.plays import Move, legal_plays
from notifications import reply_tokens
from notifications.mailboxes import mailbox
from notifications.models import EmailAddress, InboundMail, InboundOutcome, ReplyToken
from notifications.preferences import preferences_of
from notifications.providers import INBOUND_VIEWS
from notifications.reply_mails import SEND_ANSWER, Answer
from notifications.reply_text import move_line
from notifications.webhooks import run_webhook

_FORCED = {"ok", "okay"}
"""A reply that plays the only legal play."""


@csrf_exempt
def inbound_webhook(request: HttpRequest, esp: str) -> HttpResponse:
    """anymail's inbound view of the provider replies come through, each reply taken;
    a 404 for any other provider, and while the site receives no mail. Wrong or missing
    credentials are 401; a body that is no mail of the provider's, 400, and counted as
    malformed."""
    if esp != reply_tokens.inbound_provider():
        raise Http404("no such webhook")
    answer = run_webhook(INBOUND_VIEWS[esp], request, _take)
    if answer.status_code == 400:
        _record(InboundOutcome.MALFORMED)
    return answer


def _take(event: AnymailInboundEvent) -> None:
    take_reply(event.message, event.event_id)


def take_reply(message: AnymailInboundMessage, event_id: str | None = None) -> InboundOutcome:
    """Play the move the reply holds, if it may; record and answer it. Returns what
    became of it."""
    recipients = [message.envelope_recipient or ""]
    recipients += [address.addr_spec for address in [*message.to, *message.cc]]
    token = reply_tokens.token_in(recipients)
    if token is None:
        return _record(InboundOutcome.UNKNOWN_TOKEN)
    if _automatic(message):
        return _record(InboundOutcome.AUTOMATIC)
    mark = _message_mark(message, event_id)
    if mark and InboundMail.objects.filter(message_hash=mark).exists():
        return _record(InboundOutcome.REPEATED)
    sender = message.from_email.addr_spec if message.from_email else ""
    if not sender:
        return _record(InboundOutcome.MALFORMED, mark=mark)
    with transaction.atomic():
        found = (
            ReplyToken.objects.select_for_update(of=("self",))
            .select_related("player", "table")
            .filter(token_hash=reply_tokens.token_hash(token))
            .first()
        )
        if found is None:
            return _record(InboundOutcome.UNKNOWN_TOKEN, mark=mark)
        if not _from_player(found, sender):
            return _record(InboundOutcome.WRONG_SENDER, found, mark=mark)
        with translation.override(found.player.locale):
            answer, written = _answer(found, message)
        if answer is Answer.PLAYED:
            found.used_at = timezone.now()
            found.save(update_fields=["used_at"])
        outcome = _OUTCOMES.get(answer, InboundOutcome.REFUSED)
        queue = functools.partial(_queue_answer, found.player_id, found.table.code, answer, written)
        transaction.on_commit(queue)
        return _record(outcome, found, mark=mark, detail=answer)


_OUTCOMES = {Answer.PLAYED: InboundOutcome.PLAYED, Answer.TURNED_OFF: InboundOutcome.TURNED_OFF}


def _from_player(found: ReplyToken, sender: str) -> bool:
    """Whether the reply comes from the token's player's confirmed address."""
    email = EmailAddress.objects.filter(player=found.player).first()
    return email is not None and email.confirmed and mailbox(email.address) == mailbox(sender)


def _answer(found: ReplyToken, message: AnymailInboundMessage) -> tuple[Answer, str]:
    """Play the reply's move, or say why not; with the move as the player reads it."""
    table = selectors.table_unseen(found.table.code)
    if not reply_tokens.plays_by_reply(preferences_of(found.player), table.seats.all()):
        return Answer.TURNED_OFF, ""
    if found.used_at is not None:
        return Answer.USED, ""
    if found.expires_at <= timezone.now():
        return Answer.EXPIRED, ""
    line = move_line(message.text or "", message.html or "")
    if line is None:
        return Answer.NO_MOVE, ""
    seat = next(s for s in table.seats.all() if s.player_id == found.player_id)
    turn = selectors.turn_to_play(table, seat)
    if table.version != found.table_version or turn is None or turn.played:
        return Answer.MOVED_ON, line
    written = notation_read(line).strip(" .!").replace(",", " ")
    if written in _FORCED:
        plays = legal_plays(turn.position, turn.dice, turn.rules)
        if len(plays) > 1:
            return Answer.NOT_FORCED, line
        moves: tuple[Move, ...] = plays[0].moves
    else:
        try:
            moves = parse_play(written)
        except NotationError:
            return Answer.NOT_A_PLAY, line
    answer = _play(found, table, moves)
    if answer is not Answer.PLAYED:
        return answer, line  # moves that are no legal play have no notation of their own
    return answer, play_text(format_play(turn.position, moves))


class _Incomplete(Exception):
    """Raised to undo a reply's moves that leave the turn open."""


def _play(found: ReplyToken, table: Table, moves: tuple[Move, ...]) -> Answer:
    """The moves through the page's own service (`services.game_move`), at the table
    version the mail showed; the whole turn or nothing."""
    if not moves:
        return Answer.NOT_A_PLAY
    try:
        with transaction.atomic():
            change = services.game_move(
                player=found.player,
                code=table.code,
                version=found.table_version,
                moves=moves,
                looking=False,
            )
            game = change.table.current_game
            if (
                game is not None
                and (game.number, game.turn_number) == (found.game_number, found.turn_number)
                and not game.is_over
            ):
                raise _Incomplete
    except _Incomplete:
        return Answer.INCOMPLETE
    except IllegalMove:
        return Answer.NOT_A_PLAY
    except ServiceError:  # the table moved on, closed, or the game ended meanwhile
        return Answer.MOVED_ON
    return Answer.PLAYED


_AUTOMATIC_PRECEDENCE = {"bulk", "junk", "list", "auto_reply"}


def _automatic(message: AnymailInboundMessage) -> bool:
    """Whether a program sent the mail, not a person: RFC 3834's `Auto-Submitted` other
    than "no", or the `Precedence` older responders set, or their own `X-Autoreply`."""
    submitted = (message.get("Auto-Submitted") or "no").strip().lower()
    precedence = (message.get("Precedence") or "").strip().lower()
    return (
        not submitted.startswith("no")
        or precedence in _AUTOMATIC_PRECEDENCE
        or message.get("X-Autoreply") is not None
    )


def _message_mark(message: AnymailInboundMessage, event_id: str | None) -> str:
    """What tells a mail the provider posts again: its Message-ID, else the provider's
    own id for it; hashed, as the address-bearing header it is."""
    found = message.get("Message-ID") or event_id
    return hashlib.sha256(str(found).encode()).hexdigest() if found else ""


def _record(
    outcome: InboundOutcome,
    found: ReplyToken | None = None,
    *,
    mark: str = "",
    detail: str = "",
) -> InboundOutcome:
    InboundMail.objects.create(
        outcome=outcome,
        player_id=found.player_id if found else None,
        table_id=found.table_id if found else None,
        message_hash=mark,
        detail=detail,
    )
    return outcome


def _queue_answer(player_id: int, code: str, answer: Answer, written: str) -> None:
    send_quietly(
        SEND_ANSWER,
        (player_id, code, str(answer), written),
        "the answer to a reply of player %s is lost",
        player_id,
    )
