"""Sending notices: through anymail's Postmark backend to a loopback server, with the
rules that keep them few and true (spacing and folding, not while looking, never about
a turn already played), and what errors do. The clock is moved, never waited for."""

from __future__ import annotations

import importlib
from datetime import timedelta

import pytest
import time_machine
from django.apps import apps
from django.utils import timezone

from bansugoroku.games import services
from bansugoroku.games.models import Seat
from engine.names import roll_name
from notifications.channels import sending
from notifications.channels.registry import Recipient, push_sender
from notifications.mails import content
from notifications.making import make_notices
from notifications.models import (
    Attempt,
    EmailMode,
    Event,
    Notice,
    Preferences,
    PushSubscription,
    Suppression,
    TableMute,
)
from tests.factories import EmailAddressFactory, GameFactory, PlayerFactory, TurnFactory
from tests.notifications.helpers import deliver, notice, unseen
from tests.notifications.loopback import Reply
from tests.notifications.push_service import Browser, check_vapid

pytestmark = pytest.mark.django_db


def test_a_your_turn_mail_says_which_table_what_was_rolled_and_links_to_it(postmark):
    host, guest = (
        PlayerFactory(name="Aiko", address="aiko@example.com"),
        PlayerFactory(name="Ben", address="ben@example.com"),
    )
    table = GameFactory(host=host, guest=guest).table
    deliver(table)
    unseen(table)

    assert sending.send_notice(notice(table, host, "your_turn").pk) == "sent"

    (mail,) = postmark.received
    assert mail.path == "/email"
    assert mail.headers["X-Postmark-Server-Token"] == "test-token"
    assert mail.to == "aiko@example.com"
    assert mail.body["Subject"] == f"Your turn at {table.code}"
    text, html = mail.body["TextBody"], mail.body["HtmlBody"]
    link = f"https://play.example.com/tables/{table.code}"
    assert "Hello Aiko," in text and f"Table {table.code}, against Ben." in text
    assert "You rolled " in text and link in text
    assert f'<a href="{link}">' in html and "You rolled " in html
    unsubscribe = mail.header("List-Unsubscribe")
    assert unsubscribe and unsubscribe.startswith("<https://play.example.com/api/v1/unsubscribe/")
    assert mail.header("List-Unsubscribe-Post") == "List-Unsubscribe=One-Click"
    assert "https://play.example.com/settings/notices" in text
    page = unsubscribe[1:-1].replace("/api/v1/", "/")
    assert f"Stop e-mails like this one: {page}" in text
    assert f'<a href="{page}">Stop e-mails like this one</a>' in html


def test_the_dice_carry_their_old_name_and_japanese_uses_the_original_terms(postmark):
    host = PlayerFactory(name="愛子", address="aiko@example.com", locale="ja")
    table = GameFactory(host=host, guest=PlayerFactory(name="Ben")).table
    deliver(table)
    unseen(table)
    sending.send_notice(notice(table, host, "your_turn").pk)

    (mail,) = postmark.received
    assert mail.body["Subject"] == f"{table.code} の卓であなたの番です"
    table.refresh_from_db()
    dice = sorted(table.current_game.dice, reverse=True)
    kanji = roll_name((dice[0], dice[1])).kanji
    assert f"あなたの賽は {kanji}（{dice[0]}・{dice[1]}） です。" in mail.body["TextBody"]


@pytest.mark.parametrize(
    ("locale", "subject", "link"),
    [
        ("en", "Your turn at {code}", "Open table {code}"),
        ("de", "Du bist am Zug am Tisch {code}", "Tisch {code} öffnen"),
        ("fr", "À vous de jouer à la table {code}", "Ouvrir la table {code}"),
        ("ru", "Ваш ход за столом {code}", "Открыть стол {code}"),
        ("ja", "{code} の卓であなたの番です", "卓 {code} を開く"),
    ],
)
def test_the_subject_and_the_link_put_the_code_where_the_language_does(
    postmark, locale, subject, link
):
    host = PlayerFactory(name="Aiko", address="aiko@example.com", locale=locale)
    table = GameFactory(host=host, guest=PlayerFactory(name="Ben")).table
    deliver(table)
    unseen(table)
    sending.send_notice(notice(table, host, "your_turn").pk)

    (mail,) = postmark.received
    assert mail.body["Subject"] == subject.format(code=table.code)
    assert f">{link.format(code=table.code)}</a>" in mail.body["HtmlBody"]


def test_who_is_told_what_and_never_the_cpu(postmark):
    host, guest = (
        PlayerFactory(name="Aiko", address="a@example.com"),
        PlayerFactory(name="Ben", address="b@example.com"),
    )
    table = GameFactory(host=host, guest=guest).table
    made = deliver(table)
    assert {(n.kind, n.player_id) for n in made} == {
        ("opponent_joined", host.pk),
        ("your_turn", host.pk),
    }
    services.game_resign(player=guest, code=table.code, version=table.version)
    over = [n for n in deliver(table) if n.kind == "game_over"]
    assert sorted(n.player_id for n in over) == sorted([host.pk, guest.pk])

    alone = PlayerFactory(name="Chie", address="c@example.com")
    cpu_table = GameFactory(host=alone, cpu="easy").table
    assert {n.player_id for n in deliver(cpu_table)} <= {alone.pk}


def test_an_event_handed_on_twice_makes_its_notices_once():
    table = GameFactory(
        host=PlayerFactory(name="Aiko", address="a@example.com"), guest=PlayerFactory(name="Ben")
    ).table
    first = deliver(table)
    again = make_notices(table.pk, Event.objects.filter(table=table))
    assert Notice.objects.filter(table=table).count() == len(first) == 2
    assert sorted(again) == sorted(n.pk for n in first)


def test_no_notice_about_a_turn_already_played(postmark):
    host = PlayerFactory(name="Aiko", address="a@example.com")
    table = GameFactory(host=host, guest=PlayerFactory(name="Ben")).table
    deliver(table)
    TurnFactory(game=table.current_game)

    answer = sending.send_notice(notice(table, host, "your_turn").pk)

    assert answer == "skipped: the turn was played already"
    assert postmark.received == []


def test_a_player_looking_at_the_table_is_told_only_once_they_leave(postmark):
    host = PlayerFactory(name="Aiko", address="a@example.com")
    table = GameFactory(
        host=host, guest=PlayerFactory(name="Ben")
    ).table  # the host has just looked: they started it
    deliver(table)
    turn = notice(table, host, "your_turn")
    seen = Seat.objects.get(table=table, player=host).last_seen_at

    assert sending.send_notice(turn.pk).startswith("delayed")
    turn.refresh_from_db()
    assert turn.status == "pending" and turn.next_attempt_at == seen + timedelta(minutes=5)
    assert turn.pk not in sending.due_notices()
    with time_machine.travel(seen + timedelta(minutes=5, seconds=1)):
        assert turn.pk in sending.due_notices()
        assert sending.send_notice(turn.pk) == "sent"
    assert len(postmark.received) == 1


def test_a_looking_window_of_0_never_waits(postmark, settings):
    settings.NOTICE_LOOKING_WINDOW = timedelta(0)
    host = PlayerFactory(name="Aiko", address="a@example.com")
    table = GameFactory(host=host, guest=PlayerFactory(name="Ben")).table
    deliver(table)
    assert sending.send_notice(notice(table, host, "your_turn").pk) == "sent"


def test_turn_mails_are_spaced_and_the_next_lists_every_waiting_table_oldest_first(postmark):
    host = PlayerFactory(name="Aiko", address="a@example.com")
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        first = GameFactory(host=host, guest=PlayerFactory(name="Ben")).table
        deliver(first)
        unseen(first)
        assert sending.send_notice(notice(first, host, "your_turn").pk) == "sent"
    later = []
    for minutes, name in ((10, "Chie"), (20, "Daichi")):
        with time_machine.travel(start + timedelta(minutes=minutes), tick=False):
            table = GameFactory(host=host, guest=PlayerFactory(name=name)).table
            deliver(table)
            unseen(table)
            answer = sending.send_notice(notice(table, host, "your_turn").pk)
            assert answer.startswith("delayed"), answer
            later.append(table)
    assert len(postmark.received) == 1

    with time_machine.travel(start + timedelta(hours=3, seconds=1), tick=False):
        assert sending.send_notice(notice(later[0], host, "your_turn").pk) == "sent"
        folded = notice(later[1], host, "your_turn")
        assert folded.status == "skipped" and folded.outcome.startswith("folded into")
        assert sending.send_notice(folded.pk).startswith("not due")

    assert len(postmark.received) == 2
    text = postmark.received[1].body["TextBody"]
    assert postmark.received[1].body["Subject"] == "Your turn at 3 tables"
    codes = [first.code, later[0].code, later[1].code]
    positions = [text.index(f"Table {code},") for code in codes]
    assert positions == sorted(positions), "oldest first"


def test_a_spacing_of_0_sends_each_turn(postmark, settings):
    settings.NOTICE_EMAIL_SPACING = timedelta(0)
    host = PlayerFactory(name="Aiko", address="a@example.com")
    for name in ("Ben", "Chie"):
        table = GameFactory(host=host, guest=PlayerFactory(name=name)).table
        deliver(table)
        unseen(table)
        assert sending.send_notice(notice(table, host, "your_turn").pk) == "sent"
    assert len(postmark.received) == 2


def test_each_turn_sends_a_mail_each_turn_and_spaced_waits_3_hours(postmark):
    host = PlayerFactory(name="Aiko", address="a@example.com")
    Preferences.objects.create(player=host, email_mode=EmailMode.EACH_TURN)
    answers = []
    for name in ("Ben", "Chie"):
        table = GameFactory(host=host, guest=PlayerFactory(name=name)).table
        deliver(table)
        unseen(table)
        answers.append(sending.send_notice(notice(table, host, "your_turn").pk))
    assert answers == ["sent", "sent"]

    Preferences.objects.filter(player=host).update(email_mode=EmailMode.SPACED)
    table = GameFactory(host=host, guest=PlayerFactory(name="Dai")).table
    deliver(table)
    unseen(table)
    assert sending.send_notice(notice(table, host, "your_turn").pk).startswith("delayed")
    assert len(postmark.received) == 2


def test_the_players_of_before_keep_their_spacing(db):
    """Before the choice, "each_turn" meant at most one every 3 hours: the migration
    keeps what they got."""
    host, guest = PlayerFactory(name="Aiko"), PlayerFactory(name="Ben")
    Preferences.objects.create(player=host, email_mode="each_turn")
    Preferences.objects.create(player=guest, email_mode=EmailMode.DAILY_DIGEST)
    migration = importlib.import_module("notifications.migrations.0007_email_mode_spaced")

    migration.spaced_as_before(apps, None)

    modes = dict(Preferences.objects.values_list("player__name", "email_mode"))
    assert modes == {"Aiko": EmailMode.SPACED, "Ben": EmailMode.DAILY_DIGEST}
    assert Preferences(player=host).email_mode == EmailMode.SPACED, "the default too"


def test_the_daily_digest_sends_one_a_day(postmark):
    host = PlayerFactory(name="Aiko", address="a@example.com")
    Preferences.objects.create(player=host, email_mode=EmailMode.DAILY_DIGEST)
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        first = GameFactory(host=host, guest=PlayerFactory(name="Ben")).table
        deliver(first)
        unseen(first)
        assert sending.send_notice(notice(first, host, "your_turn").pk) == "sent"
    with time_machine.travel(start + timedelta(hours=5), tick=False):
        second = GameFactory(host=host, guest=PlayerFactory(name="Chie")).table
        deliver(second)
        unseen(second)
        answer = sending.send_notice(notice(second, host, "your_turn").pk)
    next_day = (start + timedelta(days=1)).isoformat()
    assert answer == f"delayed until {next_day}: a turn e-mail went out recently"


def test_a_transient_error_is_retried_later_with_a_growing_pause(postmark):
    postmark.answer = "down"
    host = PlayerFactory(name="Aiko", address="a@example.com")
    table = GameFactory(host=host, guest=PlayerFactory(name="Ben")).table
    deliver(table)
    unseen(table)
    turn = notice(table, host, "your_turn")
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        assert sending.send_notice(turn.pk).startswith("retry at")
    turn.refresh_from_db()
    assert (turn.status, turn.attempts) == ("pending", 1)
    assert turn.next_attempt_at == start + timedelta(minutes=1)
    with time_machine.travel(start + timedelta(minutes=1, seconds=1), tick=False):
        sending.send_notice(turn.pk)
    turn.refresh_from_db()
    assert turn.next_attempt_at == start + timedelta(minutes=3, seconds=1)
    postmark.answer = "ok"
    with time_machine.travel(start + timedelta(minutes=4), tick=False):
        assert sending.send_notice(turn.pk) == "sent"
    outcomes = list(
        Attempt.objects.filter(notice=turn).order_by("pk").values_list("outcome", flat=True)
    )
    assert outcomes == ["transient", "transient", "sent"]


def test_a_turn_mail_that_failed_gives_the_spacing_back(postmark):
    """Its claim took the spacing; no mail went out, so the next turn mail goes at once
    (and tells the failed one's table too)."""
    postmark.answer = "down"
    host = EmailAddressFactory().player
    failed, second = GameFactory(host=host).table, GameFactory(host=host).table
    for table in (failed, second):
        deliver(table)
        unseen(table)
    assert sending.send_notice(notice(failed, host, "your_turn").pk).startswith("retry at")
    assert Preferences.objects.get(player=host).last_turn_email_at is None
    postmark.answer = "ok"

    assert sending.send_notice(notice(second, host, "your_turn").pk) == "sent"

    assert postmark.received[-1].body["Subject"] == "Your turn at 2 tables"
    assert notice(failed, host, "your_turn").outcome.startswith("folded into")


def test_a_permanent_error_suppresses_the_address_and_stops_its_mail(postmark):
    postmark.answer = "inactive"
    host, guest = PlayerFactory(name="Aiko", address="Aiko@Example.com"), PlayerFactory(name="Ben")
    table = GameFactory(host=host, guest=guest).table
    deliver(table)
    unseen(table)

    assert sending.send_notice(notice(table, host, "your_turn").pk) == "failed: permanent error"

    assert Suppression.objects.get().address == "aiko@example.com"
    attempt = Attempt.objects.get(notice__kind="your_turn")
    assert attempt.outcome == "permanent" and "inactive" in attempt.error
    postmark.answer = "ok"
    joined = notice(table, host, "opponent_joined")
    assert sending.send_notice(joined.pk) == "skipped: the address is suppressed"
    assert len(postmark.received) == 1


def test_a_your_turn_push_reaches_the_browser_signed_and_encrypted(push_service):
    """The whole way: the event's notice, the channel, pywebpush, a push service that
    checks the VAPID signature, and the browser that decrypts what it says."""
    host = PlayerFactory(name="Aiko")
    browser = Browser(push_service, "aiko-phone")
    push_service.route("/push/", Reply(201))
    browser.subscribe(host)
    table = GameFactory(host=host, guest=PlayerFactory(name="Ben")).table
    deliver(table)
    unseen(table)

    assert sending.send_notice(notice(table, host, "your_turn", "push").pk) == "sent"

    (request,) = push_service.requests
    check_vapid(request, audience=push_service.url)
    said = browser.decrypt(request)
    assert said["kind"] == "your_turn" and said["table"] == table.code
    assert said["url"].endswith(f"/tables/{table.code}") and said["title"]
    assert said["badge"] == 1, "the tables waiting for her move, for the app's icon"
    assert request.headers["topic"] == table.code


def test_a_push_counts_every_table_waiting_for_the_players_move(db):
    aiko = PlayerFactory(name="Aiko")
    waiting = [GameFactory(host=aiko).table for _ in range(3)]  # the host's move, each
    GameFactory(guest=aiko)  # the other host's move
    sent: list[dict[str, object]] = []
    send = push_sender(lambda player, payload: sent.append(payload))
    send(Recipient(aiko, ""), "your_turn", waiting[0].code, content.your_turn(aiko))
    assert sent[0]["badge"] == 3


def test_no_push_notice_is_made_for_a_player_with_nowhere_to_receive_it():
    host = PlayerFactory(name="Aiko")
    table = GameFactory(host=host, guest=PlayerFactory(name="Ben")).table
    deliver(table)
    assert not Notice.objects.filter(channel="push").exists()


def test_a_push_service_that_says_gone_stops_push_for_the_player(push_service):
    host = PlayerFactory(name="Aiko")
    push_service.route("/push/", Reply(410))
    Browser(push_service, "old-laptop").subscribe(host)
    table = GameFactory(host=host, guest=PlayerFactory(name="Ben")).table
    deliver(table)
    unseen(table)

    answer = sending.send_notice(notice(table, host, "your_turn", "push").pk)

    assert answer == "failed: permanent error"
    assert not PushSubscription.objects.filter(player=host).exists()
    assert Preferences.objects.get(player=host).push_stopped_at is not None
    joined = notice(table, host, "opponent_joined", "push")
    assert sending.send_notice(joined.pk) == "skipped: push failed for good"
    assert len(push_service.requests) == 1


def test_without_a_confirmed_address_nothing_is_mailed(postmark):
    host = PlayerFactory(name="Aiko")
    table = GameFactory(host=host, guest=PlayerFactory(name="Ben")).table
    deliver(table)
    unseen(table)
    answer = sending.send_notice(notice(table, host, "your_turn").pk)
    assert answer == "skipped: no confirmed e-mail address"
    assert postmark.received == []


def test_a_muted_table_is_neither_told_nor_listed(postmark, settings):
    settings.NOTICE_EMAIL_SPACING = timedelta(0)
    host = PlayerFactory(name="Aiko", address="a@example.com")
    told, muted = (
        GameFactory(host=host, guest=PlayerFactory(name="Ben")).table,
        GameFactory(host=host, guest=PlayerFactory(name="Chie")).table,
    )
    TableMute.objects.create(player=host, table=muted)
    for table in (told, muted):
        deliver(table)
        unseen(table)

    assert not Notice.objects.filter(table=muted).exists(), "muted when the event came"
    assert sending.send_notice(notice(told, host, "your_turn").pk) == "sent"
    (mail,) = postmark.received
    assert told.code in mail.body["TextBody"] and muted.code not in mail.body["TextBody"]
