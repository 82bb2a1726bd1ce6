"""What the inbound webhook takes from outside: it keeps a mail and answers, bounded in
size; the worker reads it in time linear in it, whatever its HTML; and only a mail whose
receiving server vouches for its sender's domain is played."""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.test import Client

from harness.serving import HOST, PROCFILE_WEB, gunicorn
from notifications.models import InboundMail
from notifications.replies.play import read_inbound
from notifications.replies.sender_auth import authentic
from tests.notifications.helpers import send_answers
from tests.notifications.inbound import PATH, SECRET, basic, inbound, received_spf
from tests.notifications.replying import AIKO, new_game, plays, turn_mail, version
from tests.processes import process_env

LIMIT = 512 * 1024
AUTHORIZED = {"Authorization": basic()}


def filled(pattern: str, fits: Callable[[str], bool]) -> str:
    """`pattern` repeated as often as the body it goes into stays within the limit."""
    low, high = 1, LIMIT
    while low < high:
        count = (low + high + 1) // 2
        low, high = (count, high) if fits(pattern * count) else (low, count - 1)
    return pattern * low


HOSTILE = {
    "comments": "<!--",
    "open angles": "<",
    "character references": "&#",
    "long reference": "&#9",
    "unclosed CDATA": "<![CDATA[x",
    "nested tags": "<b>",
    "nested quotes": '<blockquote class="gmail_quote">',
    "one attribute": None,  # a single tag whose attribute fills the body
}


def hostile_html(kind: str, body_of: Callable[[str], dict]) -> str:
    def fits(html: str) -> bool:
        return len(json.dumps(body_of(html)).encode()) <= LIMIT

    if kind == "one attribute":
        tag = '<p title="{}">hello</p>'
        return tag.format(filled("a", lambda a: fits(tag.format(a))))
    if kind == "long reference":
        return "&#" + filled("9", lambda nines: fits("&#" + nines))
    return filled(HOSTILE[kind], fits)


def kept(body: dict | bytes, **headers: str) -> tuple[int, InboundMail | None]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    answer = Client().post(
        PATH, data, content_type="application/json", headers=AUTHORIZED | headers
    )
    return answer.status_code, InboundMail.objects.order_by("pk").last()


@pytest.mark.django_db
@pytest.mark.parametrize("kind", HOSTILE)
def test_a_hostile_reply_at_the_size_limit_is_read_in_well_under_half_a_second(replies, kind):
    table = new_game()
    mail = turn_mail(table, replies)
    body_of = lambda html: inbound(mail.body["ReplyTo"], AIKO, "", html)  # noqa: E731
    html = hostile_html(kind, body_of)
    body = body_of(html)
    size = len(json.dumps(body).encode())
    assert LIMIT - 1024 < size <= LIMIT, size
    if kind == "nested tags":
        assert html.count("<b>") >= 100_000
    status, stored = kept(body)
    assert status == 200 and stored is not None and stored.outcome == "pending"
    started = time.process_time()
    outcome = read_inbound(stored.pk)
    spent = time.process_time() - started
    assert spent < 0.5, f"{kind}: {spent:.2f} s of CPU"
    assert outcome == "refused", outcome  # read, found no move, answered so
    stored.refresh_from_db()
    assert stored.payload is None and stored.detail in ("no_move", "not_a_play")


@pytest.mark.django_db
def test_a_mail_past_the_limit_is_refused_before_it_is_read(replies):
    table = new_game()
    mail = turn_mail(table, replies)
    attribute = '<p title="' + "a" * 1_000_000 + '">13/10</p>'
    status, stored = kept(inbound(mail.body["ReplyTo"], AIKO, "", attribute))
    assert status == 413 and stored is None
    # A body that claims to be small is cut to its claim, and found no mail.
    status, stored = kept(b'{"FromFull": {"Email": "' + b"a" * LIMIT, CONTENT_LENGTH="100")
    assert status == 200 and stored is not None and len(bytes(stored.payload)) == 100
    assert read_inbound(stored.pk) == "malformed"


@pytest.mark.django_db
def test_the_webhook_keeps_the_mail_and_the_worker_reads_it_once(replies):
    """The post is answered before anything of it is read; a second read of the same
    kept mail (the sweep after a lost message) does nothing."""
    table = new_game()
    mail = turn_mail(table, replies)
    before = version(table)
    status, stored = kept(inbound(mail.body["ReplyTo"], AIKO, plays(table)[0]))
    assert status == 200 and stored is not None and stored.esp == "postmark"
    assert version(table) == before  # not played yet: the worker plays it
    assert read_inbound(stored.pk) == "played"
    assert read_inbound(stored.pk) == ""
    assert version(table) == before + 1
    assert Client().get(PATH, headers=AUTHORIZED).status_code == 405


GOOGLE = "mx.google.com"


def results(*values: str) -> list[tuple[str, str]]:
    """Authentication-Results headers of Google's receiving server."""
    return [("Authentication-Results", f"{GOOGLE}; {value}") for value in values]


def spf(*results: str, sender: str = AIKO) -> list[tuple[str, str]]:
    """Received-SPF headers as Postmark writes them, topmost first."""
    return [("Received-SPF", received_spf(result, sender)) for result in results]


@pytest.mark.parametrize(
    ("headers", "trusted", "passes"),
    [
        # Postmark's own header, on top: the sender's server is allowed by its domain.
        (spf("Pass"), (), True),
        (spf("Fail"), (), False),
        (spf("SoftFail"), (), False),
        (spf("None"), (), False),
        ([], (), False),
        # SPF passed, but for a server of another domain than the From line's.
        (spf("Pass", sender="bounce@mallory.example.org"), (), False),
        # A bounce address of a subdomain of the sender's is aligned.
        (spf("Pass", sender="bounces@mail.example.com"), (), True),
        # The sender wrote a passing one below the provider's failing one.
        (spf("Fail", "Pass"), (), False),
        # SpamAssassin: a valid DKIM signature of the author's domain.
        ([("X-Spam-Tests", "DKIM_SIGNED,DKIM_VALID,DKIM_VALID_AU,SPF_PASS")], (), True),
        ([("X-Spam-Tests", "DKIM_SIGNED,DKIM_VALID,SPF_HELO_NONE")], (), False),
        # Authentication-Results count only from a server named trusted.
        (results("dmarc=pass (p=NONE) header.from=example.com"), (GOOGLE,), True),
        (results("dmarc=pass header.from=example.com"), (), False),
        (results("dmarc=pass header.from=mallory.example.org"), (GOOGLE,), False),
        (
            results("dkim=pass header.d=example.com; spf=fail smtp.mailfrom=a@x.org"),
            (GOOGLE,),
            True,
        ),
        (results("dkim=fail header.d=example.com; dmarc=fail"), (GOOGLE,), False),
        (results("dkim=pass header.d=mallory.example.org"), (GOOGLE,), False),
        (results("spf=pass smtp.mailfrom=bounce@example.com"), (GOOGLE,), True),
        ([("Authentication-Results", f"{GOOGLE} (x; dmarc=pass); dkim=none")], (GOOGLE,), False),
    ],
)
def test_the_receiving_servers_word_for_the_sender(headers, trusted, passes):
    assert authentic(AIKO, headers, trusted) is passes


def test_a_long_authentication_header_is_read_in_linear_time():
    value = "mx.example.net; " + "dkim=pass header.d=(" * 20_000 + "; spf=" * 20_000
    started = time.process_time()
    assert not authentic(AIKO, [("Authentication-Results", value)] * 5, ["mx.example.net"])
    assert time.process_time() - started < 0.5


@pytest.mark.django_db
@pytest.mark.parametrize("spf", ["Fail", "SoftFail", ""])
def test_a_reply_its_server_does_not_vouch_for_is_not_played_nor_answered(
    replies, settings, admin_client, django_capture_on_commit_callbacks, spf
):
    table = new_game()
    mail = turn_mail(table, replies)
    sent = len(replies.received)
    before = version(table)
    # The sender's own Authentication-Results claims a pass: no server we trust wrote it.
    forged = (("Authentication-Results", "mx.google.com; dmarc=pass header.from=example.com"),)
    body = inbound(mail.body["ReplyTo"], AIKO, plays(table)[0], spf=spf, headers=forged)
    with django_capture_on_commit_callbacks(execute=True):
        status, stored = kept(body)
        assert status == 200 and stored is not None
        assert read_inbound(stored.pk) == "unauthenticated"
    assert version(table) == before
    assert send_answers() == [] and len(replies.received) == sent
    page = admin_client.get("/admin/notifications/inboundmail/").content.decode()
    assert "Unauthenticated (1)" in page, page[:2000]
    # The same mail, once the server that wrote that header is trusted, plays.
    settings.INBOUND_AUTHSERV_IDS = ["mx.google.com"]
    body = inbound(mail.body["ReplyTo"], AIKO, plays(table)[0], spf=spf, headers=forged)
    status, stored = kept(body)
    assert read_inbound(stored.pk) == "played"


def timed_get(port: int, path: str) -> tuple[int, float]:
    """The status of a GET and its time to answer, in seconds."""
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        started = time.perf_counter()
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        return response.status, time.perf_counter() - started
    finally:
        conn.close()


def posted(port: int, body: bytes) -> int:
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        headers = {"Content-Type": "application/json", **AUTHORIZED}
        conn.request("POST", PATH, body, headers)
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


SENDERS = 4
"""Posts the provider makes at once."""
WARM_UP = 9
"""Posts before the clock starts, three for each of the Procfile's web workers."""


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_web_process_answers_while_twenty_hostile_replies_arrive(tmp_path):
    """Through gunicorn as the Procfile runs it: 20 replies at the size limit, of every
    hostile kind, posted by four senders at once as a provider delivers; /healthz answers
    in under 100 ms all the while (but for the scheduler's noise: see below), and every
    one of them is kept for the worker. (Twenty
    at once queue behind each other in the workers, which run one request at a time:
    then the unlucky /healthz waits for a few 10 ms stores, not for any reading.)"""
    env = process_env(
        INBOUND_DOMAIN="reply.example.com",
        INBOUND_PROVIDER="postmark",
        ANYMAIL_WEBHOOK_SECRET=SECRET,
    )
    body_of = lambda html: inbound(f"play+{'a' * 24}@reply.example.com", AIKO, "", html)  # noqa: E731
    kinds = list(HOSTILE)
    bodies = [json.dumps(body_of(hostile_html(kinds[n % len(kinds)], body_of))) for n in range(20)]
    with gunicorn(PROCFILE_WEB, env, tmp_path / "web.log") as (port, _):
        assert timed_get(port, "/healthz")[0] == 200
        for body in bodies[:WARM_UP]:  # each worker warmed up: connected, its code loaded
            assert posted(port, body.encode()) == 200
        with ThreadPoolExecutor(SENDERS) as pool:
            sent = [pool.submit(posted, port, body.encode()) for body in bodies]
            waits = []
            while not all(future.done() for future in sent) or len(waits) < 10:
                status, took = timed_get(port, "/healthz")
                assert status == 200
                waits.append(took)
                time.sleep(0.01)
        statuses = [future.result() for future in sent]
    assert statuses == [200] * 20
    # Nine in ten under 100 ms and none past half a second: on two cores shared with
    # the senders (and whatever else runs), one probe may wait for the scheduler; a
    # process reading a hostile body took seconds to a minute.
    waits.sort()
    told = f"/healthz took {[round(w * 1000) for w in waits]} ms"
    assert waits[len(waits) * 9 // 10 - 1] < 0.1 and waits[-1] < 0.5, told
    assert InboundMail.objects.filter(outcome="pending").count() == WARM_UP + 20
