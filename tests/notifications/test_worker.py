"""Notices through real Celery workers over a real broker (Redis in CI) to the loopback
Postmark: a move made through the API mails the opponent, several workers racing over
the same notices send each exactly once, and over one player's turn mails keep their
spacing and fold them into one."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.utils import timezone

from bansugoroku.celery import app
from bansugoroku.games.models import Player
from harness.postmark import FakePostmark
from harness.workers import worker_processes
from notifications.consent.addresses import address_suppress
from notifications.models import (
    Attempt,
    ConfirmationMail,
    EmailAddress,
    Notice,
    SuppressionReason,
    default_kinds,
)
from notifications.tasks import send_due, send_notice
from tests.client import Api, mover, open_table
from tests.factories import (
    EmailAddressFactory,
    GameFactory,
    PlayerFactory,
    PreferencesFactory,
    SeatFactory,
)
from tests.notifications.helpers import deliver
from tests.processes import with_broker_down, worker_running

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not app.conf.broker_url.startswith(("redis://", "amqp://")),
        reason="a real worker over Redis or RabbitMQ: set CELERY_BROKER_URL, as CI does",
    ),
]


def confirm(api: Api, address: str) -> None:
    player = Player.objects.get(pk=api.get("players/me").body["id"])
    EmailAddressFactory(player=player, address=address)


def play_a_turn(code: str, *players: Api) -> Api:
    """The player to move plays their whole turn through the API; returns them."""
    player, state = mover(code, *players)
    while state["game"]["turn"]["yours"] and state["game"]["turn"]["legal_moves"]:
        body = {"version": state["version"], "moves": [state["game"]["turn"]["legal_moves"][0]]}
        answer = player.post(f"tables/{code}/moves", body)
        assert answer.status == 200, answer.body
        state = answer.body
    return player


def test_a_move_through_the_api_mails_the_opponent(api, postmark, settings):
    settings.NOTICE_LOOKING_WINDOW = timedelta(0)  # the test client looks at every table
    app.control.purge()
    host, guest = api.new_player("Aiko"), api.new_player("Ben")
    confirm(host, "aiko@example.com")
    confirm(guest, "ben@example.com")
    with worker_running():
        code = open_table(host, guest)
        played = play_a_turn(code, host, guest)
        other, address = (
            (guest, "ben@example.com") if played is host else (host, "aiko@example.com")
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            to_other = [m for m in postmark.received if m.to == address]
            if any(m.body["Subject"] == f"Your turn at {code}" for m in to_other):
                break
            time.sleep(0.1)
        else:
            raise AssertionError(f"no turn mail to {address}: {postmark.received}")
    mail = next(m for m in to_other if m.body["Subject"] == f"Your turn at {code}")
    mover_name = "Aiko" if played is host else "Ben"
    assert f"{mover_name} played " in mail.body["TextBody"]
    assert f"/tables/{code}" in mail.body["HtmlBody"]


def test_the_confirmation_mail_goes_out_through_the_worker(api, postmark):
    """The request only queues it: a worker process mails the link, never to a
    suppressed mailbox, and a provider that is down leaves the address's mail failed."""
    app.control.purge()
    address_suppress(address="angry@example.com", reason=SuppressionReason.COMPLAINED)
    aiko, mallory, ben = (api.new_player(name) for name in ("Aiko", "Mallory", "Ben"))
    with worker_processes(postmark):
        for player, address in ((mallory, "Angry+1@Example.com"), (aiko, "aiko@example.com")):
            assert player.call("PATCH", "players/me", {"email": address}).status == 200
        (mail,) = postmark.wait_for(1)
        assert mail.to == "aiko@example.com" and "/settings/email/confirm?token=" in str(mail.body)
        postmark.answer = "down"
        assert ben.call("PATCH", "players/me", {"email": "ben@example.com"}).status == 200
        deadline = time.monotonic() + 20
        while not ben.get("players/me/notices").body["email"]["mail_failed"]:
            assert time.monotonic() < deadline, "the failed mail never showed"
            time.sleep(0.1)
    assert [m.to for m in postmark.received] == ["aiko@example.com", "ben@example.com"]
    states = dict(EmailAddress.objects.values_list("address", "confirmation_mail"))
    assert states == {
        "Angry+1@example.com": ConfirmationMail.DONE,
        "aiko@example.com": ConfirmationMail.DONE,
        "ben@example.com": ConfirmationMail.FAILED,
    }


def test_a_broker_that_is_down_leaves_the_confirmation_mail_failed():
    """A process whose broker is a closed port sets an address: it is kept, and its
    mail shows as failed, for the player to send again."""
    script = (
        "from bansugoroku.games import services; from notifications.consent import addresses;"
        "player, _ = services.player_create(name='Aiko');"
        "addresses.email_set(player=player, address='aiko@example.com')"
    )
    done = with_broker_down(script)
    assert done.returncode == 0, done.stderr
    assert "the confirmation mail of address" in done.stderr
    email = EmailAddress.objects.get()
    assert (email.address, email.confirmation_mail) == ("aiko@example.com", "failed")


@pytest.fixture
def two_workers(postmark: FakePostmark) -> Iterator[None]:
    """Two worker processes of four threads each, on the test's broker and database."""
    with worker_processes(postmark, count=2, threads=4):
        yield


def test_two_workers_racing_over_the_same_notices_send_each_once(postmark, two_workers):
    postmark.delay = 0.05  # a slow provider widens the window for a double send
    app.control.purge()
    count = 12
    for n in range(count):
        host = PlayerFactory(name=f"Host {n}", address=f"host{n}@example.com")
        SeatFactory(table__host=host)  # each: one notice, to the host
    deadline = time.monotonic() + 30
    while Notice.objects.count() < count and time.monotonic() < deadline:
        time.sleep(0.1)
    ids = list(Notice.objects.values_list("pk", flat=True))
    assert len(ids) == count
    for _ in range(3):  # the same notices queued again and again, as the relay would
        for notice_id in ids:
            send_notice.delay(notice_id)
        send_due.delay()

    mails = postmark.wait_for(count, timeout=60)
    time.sleep(2)  # any double send would arrive by now
    assert len(postmark.received) == count
    assert Counter(m.to for m in mails) == {f"host{n}@example.com": 1 for n in range(count)}
    assert set(Notice.objects.values_list("status", flat=True)) == {"sent"}
    assert Attempt.objects.count() == count


def test_workers_keep_a_players_turn_mail_spacing_while_one_is_in_flight(postmark):
    """Two turn mails of one player are claimed at once: the first reserves the spacing
    while the provider holds it, so the second waits (without waiting for the provider)
    and is folded into the first, which lists both tables."""
    postmark.delay = 30
    app.control.purge()
    host = EmailAddressFactory().player
    PreferencesFactory(player=host, email_kinds=default_kinds() | {"opponent_joined": False})
    tables = [GameFactory(host=host).table for _ in range(2)]
    for table in tables:
        deliver(table)  # both notices are pending before either is claimed
    with worker_processes(postmark, threads=2, NOTICE_EMAIL_SPACING="1h"):
        postmark.wait_for_arrival(1)
        deadline = time.monotonic() + 20
        later = timezone.now() + timedelta(minutes=30)
        while not Notice.objects.filter(next_attempt_at__gt=later).exists():
            assert time.monotonic() < deadline, "the second claim waited for the provider"
            time.sleep(0.1)
        assert postmark.arrived == 1
        postmark.release()
        (mail,) = postmark.wait_for(1)
        time.sleep(1)  # a second mail would arrive by now
    assert postmark.arrived == 1
    assert mail.body["Subject"] == "Your turn at 2 tables"
    done = {n.pk: (n.status, n.outcome) for n in Notice.objects.filter(kind="your_turn")}
    sent = next(pk for pk, (status, _) in done.items() if status == "sent")
    assert sorted(done.values()) == [("sent", "sent"), ("skipped", f"folded into {sent}")]
