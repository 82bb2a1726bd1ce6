"""Playing a turn by replying to its "your turn" e-mail.

The mail provider posts each mail sent to a reply address (`notifications.replies.tokens`)
to its inbound webhook, `/anymail/<esp>/inbound/`. The route exists only while the site
receives mail (`reply_tokens.inbound_provider`: an inbound domain and the webhook's
secret set), and anymail's view checks that basic-auth secret on every post. The webhook
reads nothing of the mail: it keeps the post as it came (`InboundMail`, bounded by
INBOUND_MAX_BYTES) and answers, so no mail, however it is built, holds the web process.
The worker reads it (`read_inbound`, queued on commit; `read_pending` every minute for
what was lost on the way): anymail parses it in the provider's own format, and the text
is read (`notifications.replies.text`, linear in its size) before any row is locked.

A reply plays a move only when its token is one we mailed, unused and unexpired, the
receiving server vouches for the sender's domain (`notifications.replies.sender_auth`), and the
sender is the token's player's confirmed address (as a mailbox: any case, Gmail's
dots). The first line the player wrote is the move, in the notation and numbering the
mail showed, or `ok` for a forced play. It goes through the same service as a move on
the page, at the table version the mail showed, with the token's row locked: a mail
posted twice, a second reply or a forwarded copy finds the token used, or the table
moved on, and never moves twice. The player gets an answer by mail
(`notifications.replies.answers`): played, or why not. A mail whose token is unknown, from
another sender, unauthenticated, unreadable or sent by a program (an out-of-office
notice) gets no answer (a reply to a forged sender would be backscatter, and two robots
could answer each other for ever); each is counted in the admin (`InboundMail`). No
token, address or text is logged, or kept once read.
"""

from __future__ import annotations

import functools
import hashlib
import io
from datetime import timedelta

from anymail.inbound import AnymailInboundMessage
from anymail.signals import AnymailInboundEvent
from celery import shared_task
from django.conf import settings
from django.core.handlers.wsgi import WSGIRequest
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.utils import timezone, translation
from django.views.decorators.csrf import csrf_exempt

from bansugoroku.games import selectors, services
from bansugoroku.games.errors import IllegalMove, ServiceError
from bansugoroku.games.models import Table
from bansugoroku.games.outbox import send_quietly
from bansugoroku.games.vocabulary import notation_read, play_text
from engine.notation import NotationError, format_play, parse_play
from engine.plays import Move, legal_plays
from notifications.consent.mailboxes import mailbox
from notifications.consent.preferences import preferences_of
from notifications.models import EmailAddress, InboundMail, InboundOutcome, ReplyToken
from notifications.providers import INBOUND_VIEWS
from notifications.replies import tokens as reply_tokens
from notifications.replies.answers import SEND_ANSWER, Answer
from notifications.replies.sender_auth import authentic
from notifications.replies.text import move_line
from notifications.webhooks import events_in, refusal

_FORCED = {"ok", "okay"}
"""A reply that plays the only legal play."""


READ_INBOUND = "mail_play.read_inbound"


@csrf_exempt
def inbound_webhook(request: HttpRequest, esp: str) -> HttpResponse:
    """The provider's post of a mail that came in, kept for the worker to read: a 404 for
    any other provider and while the site receives no mail; 413 past INBOUND_MAX_BYTES,
    told by its Content-Length before a byte is read; 401 without the webhook's
    credentials. Nothing of the mail is read here, so no mail, however it is built, holds
    the web process or a row lock."""
    if esp != reply_tokens.inbound_provider():
        raise Http404("no such webhook")
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    if _declared_length(request) > settings.INBOUND_MAX_BYTES:
        return HttpResponse(
            f"an inbound mail is at most {settings.INBOUND_MAX_BYTES} bytes", status=413
        )
    refused = refusal(INBOUND_VIEWS[esp](), request)
    if refused is not None:
        return refused
    mail = InboundMail.objects.create(
        outcome=InboundOutcome.PENDING,
        esp=esp,
        content_type=request.META.get("CONTENT_TYPE", "")[:200],
        payload=request.body,
    )
    lost = "inbound mail %s waits for the next sweep"
    transaction.on_commit(functools.partial(send_quietly, READ_INBOUND, (mail.pk,), lost, mail.pk))
    return HttpResponse()


def _declared_length(request: HttpRequest) -> int:
    """The body's length as the client declares it, which is all Django will read."""
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


@shared_task(name=READ_INBOUND, ignore_result=True)
def read_inbound(mail_id: int) -> str:
    """Read a mail the webhook kept, play its move if it may, record and answer it; what
    became of it, "" when it was read already or another worker is reading it.

    The mail's own row is locked while it is read, which only another read of the same
    mail waits for (and skips); the reply token's row is locked only once the text is
    read (`take_reply`)."""
    with transaction.atomic():
        mail = (
            InboundMail.objects.select_for_update(skip_locked=True)
            .filter(pk=mail_id, outcome=InboundOutcome.PENDING)
            .first()
        )
        if mail is None:
            return ""
        events = _events(mail)
        if not events:
            return _record(mail, InboundOutcome.MALFORMED)
        outcome = take_reply(mail, events[0].message, events[0].event_id)
        for event in events[1:]:  # a provider that posts mails in batches
            take_reply(InboundMail(esp=mail.esp), event.message, event.event_id)
        return outcome


@shared_task(name="mail_play.read_pending", ignore_result=True)
def read_pending(older_than: float = 60.0) -> int:
    """Read the mail kept more than `older_than` seconds ago whose read was lost on its
    way (broker away, worker stopped mid-read); beat runs it every minute. How many."""
    before = timezone.now() - timedelta(seconds=older_than)
    waiting = InboundMail.objects.filter(outcome=InboundOutcome.PENDING, received_at__lte=before)
    ids = list(waiting.order_by("pk").values_list("pk", flat=True)[:_SWEEP])
    return sum(bool(read_inbound(pk)) for pk in ids)


_SWEEP = 100
"""Mails read by one sweep, so that a backlog is read over minutes, not in one task."""


def _events(mail: InboundMail) -> list[AnymailInboundEvent]:
    """The mails in the provider's post, read by anymail as its webhook view reads them;
    none when it is no post of the provider's."""
    view = INBOUND_VIEWS.get(mail.esp)
    if view is None or mail.payload is None:
        return []
    body = bytes(mail.payload)
    request = WSGIRequest(
        {
            "REQUEST_METHOD": "POST",
            "PATH_INFO": f"/anymail/{mail.esp}/inbound/",
            "CONTENT_TYPE": mail.content_type,
            "CONTENT_LENGTH": str(len(body)),
            "SERVER_NAME": "inbound",
            "SERVER_PORT": "443",
            "wsgi.url_scheme": "https",
            "wsgi.input": io.BytesIO(body),
        }
    )
    events = events_in(view(), request) or []
    return [event for event in events if isinstance(event, AnymailInboundEvent)]


def take_reply(
    mail: InboundMail, message: AnymailInboundMessage, event_id: str | None = None
) -> InboundOutcome:
    """Play the move the reply holds, if it may; record it in `mail` and answer it.
    Returns what became of it."""
    recipients = [message.envelope_recipient or ""]
    recipients += [address.addr_spec for address in [*message.to, *message.cc]]
    token = reply_tokens.token_in(recipients)
    if token is None:
        return _record(mail, InboundOutcome.UNKNOWN_TOKEN)
    if _automatic(message):
        return _record(mail, InboundOutcome.AUTOMATIC)
    mark = _message_mark(message, event_id)
    sender = message.from_email.addr_spec if message.from_email else ""
    if not sender:
        return _record(mail, InboundOutcome.MALFORMED, mark=mark)
    if not authentic(sender, message.raw_items(), settings.INBOUND_AUTHSERV_IDS):
        return _record(mail, InboundOutcome.UNAUTHENTICATED, mark=mark)
    line = move_line(message.text or "", message.html or "")  # before any lock is taken
    with transaction.atomic():
        found = (
            ReplyToken.objects.select_for_update(of=("self",))
            .select_related("player", "table")
            .filter(token_hash=reply_tokens.token_hash(token))
            .first()
        )
        if found is None:
            return _record(mail, InboundOutcome.UNKNOWN_TOKEN, mark=mark)
        if mark and InboundMail.objects.filter(message_hash=mark).exclude(pk=mail.pk).exists():
            # Under the token's lock, so a copy read at the same time waits for this one.
            return _record(mail, InboundOutcome.REPEATED)
        if not _from_player(found, sender):
            return _record(mail, InboundOutcome.WRONG_SENDER, found, mark=mark)
        with translation.override(found.player.locale):
            answer, written = _answer(found, line)
        if answer is Answer.PLAYED:
            found.used_at = timezone.now()
            found.save(update_fields=["used_at"])
        outcome = _OUTCOMES.get(answer, InboundOutcome.REFUSED)
        queue = functools.partial(_queue_answer, found.player_id, found.table.code, answer, written)
        transaction.on_commit(queue)
        return _record(mail, outcome, found, mark=mark, detail=answer)


_OUTCOMES = {Answer.PLAYED: InboundOutcome.PLAYED, Answer.TURNED_OFF: InboundOutcome.TURNED_OFF}


def _from_player(found: ReplyToken, sender: str) -> bool:
    """Whether the reply comes from the token's player's confirmed address."""
    email = EmailAddress.objects.filter(player=found.player).first()
    return email is not None and email.confirmed and mailbox(email.address) == mailbox(sender)


def _answer(found: ReplyToken, line: str | None) -> tuple[Answer, str]:
    """Play the reply's move, or say why not; with the move as the player reads it."""
    table = selectors.table_unseen(found.table.code)
    if not reply_tokens.plays_by_reply(preferences_of(found.player), table.seats.all()):
        return Answer.TURNED_OFF, ""
    if found.used_at is not None:
        return Answer.USED, ""
    if found.expires_at <= timezone.now():
        return Answer.EXPIRED, ""
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
    mail: InboundMail,
    outcome: InboundOutcome,
    found: ReplyToken | None = None,
    *,
    mark: str = "",
    detail: str = "",
) -> InboundOutcome:
    """What became of the mail, and nothing more of it: its post is dropped."""
    mail.outcome, mail.message_hash, mail.detail = outcome, mark, detail
    mail.player_id = found.player_id if found else None
    mail.table_id = found.table_id if found else None
    mail.payload, mail.content_type = None, ""
    mail.save()
    return outcome


def _queue_answer(player_id: int, code: str, answer: Answer, written: str) -> None:
    send_quietly(
        SEND_ANSWER,
        (player_id, code, str(answer), written),
        "the answer to a reply of player %s is lost",
        player_id,
    )
