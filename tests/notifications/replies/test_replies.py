"""Playing a turn by replying to its "your turn" e-mail: the mail shows the board and how
to answer; a reply through Postmark's inbound webhook, parsed by anymail, plays the move
through the page's own service, or plays nothing and says why; and nothing anyone else
sends plays, answers or is logged."""

from __future__ import annotations

import functools
import logging
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from bansugoroku.games import services
from bansugoroku.games.models import Game, Player
from engine.notation import mirror_play, parse_play, position_id
from engine.side import Side
from harness.postmark import Received
from notifications.mails.content import your_turn
from notifications.mails.messages import notice_email
from notifications.models import InboundMail, Kind, Notice, ReplyToken
from notifications.replies.play import read_inbound, read_pending
from tests.engine.helpers import make
from tests.factories import EmailAddressFactory, GameFactory, PlayerFactory, PreferencesFactory
from tests.notifications.helpers import deliver, send_answers, unseen
from tests.notifications.inbound import PATH, basic, inbound, quoted_reply
from tests.notifications.replying import AIKO, DOMAIN, new_game, plays, turn_mail, version
from tests.races import Race

AUTHORIZED = {"Authorization": basic()}


def post(body: dict | bytes, secret: str = "hook:s3cret") -> int:
    """As Postmark posts: no cookie, no CSRF token; then what the webhook kept is read,
    as the worker reads it (`read_inbound`, here through the sweep that reads all)."""
    answer = Client(enforce_csrf_checks=True).post(
        PATH, body, content_type="application/json", headers={"Authorization": basic(secret)}
    )
    read_pending(older_than=0)
    return answer.status_code


def reply(mail: Received, text: str, sender: str = AIKO, **kwargs: object) -> int:
    return post(inbound(mail.body["ReplyTo"], sender, text, **kwargs))


@pytest.mark.django_db
def test_the_turn_mail_shows_the_board_the_roll_and_how_to_reply(replies):
    table = new_game()
    mail = turn_mail(table, replies)
    reply_to = mail.body["ReplyTo"]
    assert re.fullmatch(rf"play\+[a-z2-7]{{24}}@{DOMAIN}", reply_to)
    text, html = mail.body["TextBody"], mail.body["HtmlBody"]
    legal = plays(table)
    for part in (text, html):
        assert "Reply with your move on the first line" in part
        assert any(play in part for play in legal)  # the example is a legal play
    assert "X: your stones" in text  # the text board's legend
    assert "<table" in html and "<script" not in html and "<img" not in html
    token = ReplyToken.objects.get()
    assert (token.table_version, token.used_at) == (version(table), None)
    assert reply_to.partition("+")[2].partition("@")[0] not in str(token.token_hash)


@pytest.mark.django_db
def test_a_reply_plays_the_move_confirms_it_and_tells_the_opponent(
    replies, django_capture_on_commit_callbacks
):
    table = new_game()
    mail = turn_mail(table, replies)
    move = plays(table)[-1]
    before = version(table)
    with django_capture_on_commit_callbacks(execute=True):
        assert reply(mail, quoted_reply(move, mail.body["TextBody"])) == 200
    assert version(table) == before + 1
    game = Game.objects.get(table=table)
    assert game.turn_seat == 1  # Ben's turn now
    assert send_answers() == ["sent"]
    answer = replies.received[-1]
    assert answer.to == AIKO and f"You played {move}" in answer.body["Subject"]
    assert InboundMail.objects.get().outcome == "played"
    ben = Player.objects.get(name__startswith="Player")
    deliver(table)
    assert Notice.objects.filter(player=ben, kind=Kind.YOUR_TURN).exists()
    # The opponent's mail names the move in their numbering.
    ben_mail = turn_mail(table, replies)
    assert mirror_play(move).split()[0] in ben_mail.body["TextBody"]


@pytest.mark.django_db
def test_the_same_mail_posted_again_a_second_reply_or_a_forward_never_move_twice(
    replies, django_capture_on_commit_callbacks
):
    table = new_game()
    mail = turn_mail(table, replies)
    move = plays(table)[0]
    body = inbound(mail.body["ReplyTo"], AIKO, move)
    with django_capture_on_commit_callbacks(execute=True):
        assert post(body) == 200
        assert post(body) == 200  # the provider posts it again
        assert reply(mail, move) == 200  # a second reply
        assert reply(mail, move, sender="someone@example.org") == 200  # forwarded
    assert Game.objects.get(table=table).turn_seat == 1
    outcomes = list(InboundMail.objects.order_by("pk").values_list("outcome", "detail"))
    assert outcomes == [
        ("played", "played"),
        ("repeated", ""),
        ("refused", "used"),
        ("wrong_sender", ""),
    ]
    send_answers()
    subjects = [r.body["Subject"] for r in replies.received if r.to == AIKO][1:]
    assert len(subjects) == 2 and "Nothing was played" in subjects[1]
    assert all(r.to != "someone@example.org" for r in replies.received)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("written", "answer"),
    [
        ("13/8 8/3 7/1", "not_a_play"),
        ("I think 13/10", "not_a_play"),
        ("ok", "not_forced"),
        ("", "no_move"),
    ],
)
def test_a_reply_that_is_not_a_whole_legal_play_changes_nothing_and_lists_the_plays(
    replies, django_capture_on_commit_callbacks, written, answer
):
    table = new_game()
    mail = turn_mail(table, replies)
    before = version(table)
    with django_capture_on_commit_callbacks(execute=True):
        assert reply(mail, quoted_reply(written, "Your move is awaited")) == 200
    assert version(table) == before
    assert InboundMail.objects.get().detail == answer
    assert send_answers() == ["sent"]
    said = replies.received[-1]
    assert "Nothing was played" in said.body["Subject"]
    assert "Your legal plays:" in said.body["TextBody"]
    assert "X: your stones" in said.body["TextBody"]  # the board, to choose from
    assert plays(table)[0] in said.body["TextBody"]
    # The answer can be replied to with the move: it has a reply address of its own.
    assert said.body["ReplyTo"] != mail.body["ReplyTo"]
    with django_capture_on_commit_callbacks(execute=True):
        assert reply(said, plays(table)[0]) == 200
    assert version(table) == before + 1


@pytest.mark.django_db
def test_moves_that_leave_the_turn_open_are_taken_back(replies, django_capture_on_commit_callbacks):
    table = new_game()
    mail = turn_mail(table, replies)
    first_move = plays(table)[0].split()[0]
    before = version(table)
    with django_capture_on_commit_callbacks(execute=True):
        assert reply(mail, first_move) == 200
    assert version(table) == before
    assert Game.objects.get(table=table).pending == []
    assert InboundMail.objects.get().detail == "incomplete"


@pytest.mark.django_db
def test_a_reply_after_the_table_moved_on_plays_nothing(
    replies, django_capture_on_commit_callbacks
):
    table = new_game()
    mail = turn_mail(table, replies)
    move = plays(table)[0]
    aiko = Player.objects.get(name="Aiko")
    services.game_move(player=aiko, code=table.code, version=version(table), moves=parse_play(move))
    after = version(table)
    with django_capture_on_commit_callbacks(execute=True):
        assert reply(mail, move) == 200
    assert version(table) == after
    assert InboundMail.objects.get().detail == "moved_on"
    send_answers()
    assert "changed since" in replies.received[-1].body["TextBody"]


@pytest.mark.django_db
def test_an_expired_reply_address_plays_nothing(replies, django_capture_on_commit_callbacks):
    table = new_game()
    mail = turn_mail(table, replies)
    ReplyToken.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    before = version(table)
    with django_capture_on_commit_callbacks(execute=True):
        assert reply(mail, plays(table)[0]) == 200
    assert version(table) == before
    assert InboundMail.objects.get().detail == "expired"


@pytest.mark.django_db
def test_unknown_tokens_strangers_and_malformed_mail_get_no_answer(
    replies, django_capture_on_commit_callbacks
):
    table = new_game()
    mail = turn_mail(table, replies)
    move = plays(table)[0]
    sent = len(replies.received)
    with django_capture_on_commit_callbacks(execute=True):
        assert post(inbound(f"play+{'a' * 24}@{DOMAIN}", AIKO, move)) == 200
        assert post(inbound(f"hello@{DOMAIN}", AIKO, move)) == 200
        assert reply(mail, move, sender="mallory@example.org") == 200
        malformed = inbound(mail.body["ReplyTo"], AIKO, move)
        malformed["FromFull"] = {"Email": "", "Name": ""}
        assert post(malformed) == 200  # kept, and found to be no mail when read
    assert send_answers() == []
    assert len(replies.received) == sent
    outcomes = sorted(InboundMail.objects.values_list("outcome", flat=True))
    assert outcomes == ["malformed", "unknown_token", "unknown_token", "wrong_sender"]
    assert Game.objects.get(table=table).turn_seat == 0


@pytest.mark.django_db
def test_the_sender_is_matched_as_a_mailbox(replies):
    table = new_game()
    mail = turn_mail(table, replies)
    assert reply(mail, plays(table)[0], sender="Aiko@EXAMPLE.com") == 200
    assert InboundMail.objects.get().outcome == "played"


@pytest.mark.django_db
def test_the_webhook_exists_only_behind_its_secret_and_domain(replies, settings):
    body = inbound(f"play+{'a' * 24}@{DOMAIN}", AIKO, "13/10")
    assert post(body, secret="hook:wrong") == 401
    settings.INBOUND_DOMAIN = None
    assert post(body) == 404
    settings.INBOUND_DOMAIN = DOMAIN
    settings.ANYMAIL = settings.ANYMAIL | {"WEBHOOK_SECRET": ""}
    assert post(body) == 404
    assert not InboundMail.objects.exists()


@pytest.mark.django_db
def test_without_inbound_mail_the_turn_mail_offers_no_reply(postmark, settings):
    settings.NOTICE_LOOKING_WINDOW = timedelta(0)
    table = new_game()
    mail = turn_mail(table, postmark)
    assert "ReplyTo" not in mail.body or not mail.body["ReplyTo"]
    assert "Reply with your move" not in mail.body["TextBody"]
    assert "X: your stones" in mail.body["TextBody"]  # the board is drawn all the same
    assert not ReplyToken.objects.exists()


@pytest.mark.django_db
def test_players_can_turn_it_off_and_off_for_the_cpu_only(
    replies, django_capture_on_commit_callbacks
):
    table = new_game(cpu="easy")
    aiko = Player.objects.get(name="Aiko")
    PreferencesFactory(player=aiko, play_by_reply_cpu=False)
    assert "Reply with your move" not in turn_mail(table, replies).body["TextBody"]
    human = new_game()
    mail = turn_mail(human, replies)
    assert "Reply with your move" in mail.body["TextBody"]
    aiko = Player.objects.get(pk=human.host_id)
    aiko.notice_prefs.play_by_reply = False
    aiko.notice_prefs.save()
    before = version(human)
    with django_capture_on_commit_callbacks(execute=True):
        assert reply(mail, plays(human)[0]) == 200
    assert version(human) == before
    assert InboundMail.objects.get().outcome == "turned_off"


FORCED = make({1: 14}, {19: 3, 20: 3, 21: 3, 22: 3, 23: 3}, bar=(1, 0))
"""Aiko's last stone on the bar facing White's home closed but for her 24: with 6-1
the only play is to enter with the 1 and run on with the 6."""


@pytest.mark.django_db
def test_a_forced_play_is_offered_and_played_with_ok(replies, django_capture_on_commit_callbacks):
    table = new_game()
    turn = Game.objects.get(table=table)
    stored = Side(turn.turn_seat).sees(FORCED)
    Game.objects.filter(pk=turn.pk).update(position=position_id(stored), dice=[6, 1])
    assert plays(table) == ["bar/24 24/18"]
    mail = turn_mail(table, replies)
    for part in (mail.body["TextBody"], mail.body["HtmlBody"]):
        assert "Your only play is" in part and "bar/24 24/18" in part
    before = version(table)
    with django_capture_on_commit_callbacks(execute=True):
        assert reply(mail, "OK") == 200
    assert version(table) == before + 1
    send_answers()
    assert "You played bar/24 24/18" in replies.received[-1].body["Subject"]


@pytest.mark.django_db
def test_no_token_reaches_the_log(replies, caplog, django_capture_on_commit_callbacks):
    table = new_game()
    mail = turn_mail(table, replies)
    token = mail.body["ReplyTo"].partition("+")[2].partition("@")[0]
    with caplog.at_level(logging.DEBUG), django_capture_on_commit_callbacks(execute=True):
        reply(mail, "13/99")
        reply(mail, plays(table)[0], sender="mallory@example.org")
        reply(mail, plays(table)[0])
    send_answers()
    assert token not in caplog.text
    assert InboundMail.objects.count() == 3


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("same_mail", [False, True], ids=["two replies", "one mail posted twice"])
def test_two_replies_read_at_once_play_once(replies, same_mail):
    """Two workers read at once: two replies, or the provider's two posts of one mail
    (the second then waits for the first under the token's lock, and finds it)."""
    table = new_game()
    mail = turn_mail(table, replies)
    move = plays(table)[0]
    message_id = "<once@mail.example.net>" if same_mail else None
    for _ in range(2):
        body = inbound(mail.body["ReplyTo"], AIKO, move, message_id=message_id)
        Client().post(PATH, body, content_type="application/json", headers=AUTHORIZED)
    kept = InboundMail.objects.order_by("pk").values_list("pk", flat=True)
    race = Race(*(functools.partial(read_inbound, pk) for pk in kept))
    outcomes = race.start().answers()
    assert sorted(outcomes) == (["played", "repeated"] if same_mail else ["played", "refused"])
    assert Game.objects.get(table=table).turn_seat == 1
    assert not InboundMail.objects.exclude(payload=None).exists()  # nothing of it kept


@pytest.mark.django_db
def test_the_admin_counts_each_outcome(replies, admin_client):
    table = new_game()
    mail = turn_mail(table, replies)
    reply(mail, plays(table)[0], sender="mallory@example.org")
    reply(mail, plays(table)[0], sender="eve@example.org")
    page = admin_client.get("/admin/notifications/inboundmail/").content.decode()
    assert re.search(r"Wrong sender \(2\)|wrong_sender \(2\)", page, re.IGNORECASE), page[:2000]


@pytest.mark.django_db
@pytest.mark.parametrize("body", [b"not json", b"[]", b"{}", b'{"FromFull": 3}', b"\xff"])
def test_a_body_that_is_no_mail_is_refused_or_counted_never_a_500(replies, body):
    answer = Client().post(PATH, body, content_type="application/json", headers=AUTHORIZED)
    assert answer.status_code == 200, answer.content[:200]
    read_pending(older_than=0)
    assert set(InboundMail.objects.values_list("outcome", flat=True)) <= {
        "malformed",
        "unknown_token",
    }


@pytest.mark.django_db
def test_an_html_only_reply_plays(replies):
    table = new_game()
    mail = turn_mail(table, replies)
    html = (
        f'<div dir="ltr">{plays(table)[0]}<br></div><div class="gmail_quote">'
        f"<blockquote>{mail.body['HtmlBody']}</blockquote></div>"
    )
    before = version(table)
    assert reply(mail, "", html=html) == 200
    assert version(table) == before + 1


@pytest.mark.django_db
def test_a_mail_listing_two_tables_gives_each_its_own_address(replies):
    aiko = PlayerFactory(name="Aiko")
    EmailAddressFactory(player=aiko, address=AIKO)
    first, second = (GameFactory(host=aiko).table for _ in range(2))
    unseen(first)
    unseen(second)
    said = your_turn(aiko, by_mail=True)
    assert [table.code for table in said.tables] == [first.code, second.code]
    addresses = [table.reply.address for table in said.tables if table.reply]
    assert len(set(addresses)) == 2 and said.reply_to == addresses[0]
    mail = notice_email(aiko, AIKO, Kind.YOUR_TURN, said)
    text = str(mail.body)
    assert f"For this table, send it to {addresses[1]}." in text
    assert f"send it to {addresses[0]}" not in text  # the first is the mail's Reply-To
    before = version(second)
    assert post(inbound(addresses[1], AIKO, plays(second)[0])) == 200
    assert (version(first), version(second)) == (version(first), before + 1)
    assert InboundMail.objects.get().table_id == second.pk


@pytest.mark.django_db
@pytest.mark.parametrize(
    "header", [("Auto-Submitted", "auto-replied"), ("Precedence", "bulk"), ("X-Autoreply", "yes")]
)
def test_an_automatic_reply_is_never_a_move_nor_answered(
    replies, django_capture_on_commit_callbacks, header
):
    """An out-of-office notice sent back to the reply address: no answer, or two robots
    would write to each other for ever."""
    table = new_game()
    mail = turn_mail(table, replies)
    assert mail.header("Auto-Submitted") == "auto-generated"
    body = inbound(mail.body["ReplyTo"], AIKO, plays(table)[0])
    body["Headers"].append({"Name": header[0], "Value": header[1]})
    before = version(table)
    with django_capture_on_commit_callbacks(execute=True):
        assert post(body) == 200
    assert version(table) == before
    assert send_answers() == []
    assert InboundMail.objects.get().outcome == "automatic"


@pytest.mark.django_db
def test_an_answer_says_it_is_automatic(replies, django_capture_on_commit_callbacks):
    table = new_game()
    mail = turn_mail(table, replies)
    with django_capture_on_commit_callbacks(execute=True):
        reply(mail, "no move here")
    send_answers()
    assert replies.received[-1].header("Auto-Submitted") == "auto-replied"
