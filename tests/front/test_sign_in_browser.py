"""A "your turn" mail opened on a second device, in a real headless Chromium (Debian's,
driven by Playwright): the table's link lands on its invitation, whose seats are both
taken; it asks for a sign-in link, follows the mailed one and plays, while the first
device still plays too. Any console error or failed request fails the test."""

from __future__ import annotations

import re

from django.core import mail

from tests.factories import EmailAddressFactory, GameFactory, PlayerFactory
from tests.front.browsers import (
    DESKTOP,
    PHONE,
    Watched,
    assert_fits,
    my_turn,
    needs_chromium,
    play_one_move,
    shoot,
)
from tests.notifications.helpers import send_sign_ins

pytestmark = needs_chromium


def test_a_second_device_signs_in_from_a_mails_link_and_plays(chromium, server, settings_for_play):
    settings_for_play.SITE_URL = server  # the worker mails the link, outside any request
    aiko = PlayerFactory(name="Aiko")
    EmailAddressFactory(player=aiko, address="aiko@example.com")
    code = GameFactory(host=aiko, guest=PlayerFactory(name="Ben")).table.code  # Aiko's turn
    send_sign_ins()  # what earlier tests left on the broker
    laptop = Watched(chromium, DESKTOP)
    laptop.context.add_cookies([{"name": "player", "value": aiko.token, "url": server}])
    laptop.page.goto(f"{server}/tables/{code}")
    laptop.page.locator("[data-movable]").first.wait_for(timeout=5000)

    phone = Watched(chromium, PHONE, has_touch=True, is_mobile=True)
    page = phone.page
    page.goto(f"{server}/tables/{code}")  # the "your turn" mail's link
    assert page.url == f"{server}/t/{code}"
    assert page.get_by_text("Both seats at this table are taken.").is_visible()
    shoot(page, "sign-in-360x740-full-table")
    page.click('[data-test="sign-in"]')
    page.fill('[data-test="sign-in-email"]', "aiko@example.com")
    assert_fits(page)
    page.click('[data-test="send-sign-in"]')
    page.locator('[data-test="sent"]').wait_for()
    shoot(page, "sign-in-360x740-sent")
    assert send_sign_ins() == ["sent"]
    (message,) = mail.outbox
    link = re.search(r"https?://\S+/sign-in/[\w-]+", str(message.body)).group(0)

    page.goto(link)
    assert page.get_by_text("This browser will play as Aiko").is_visible()
    shoot(page, "sign-in-360x740-use")
    page.click('[data-test="use-device"]')
    page.wait_for_url(f"{server}/tables/{code}")  # the table waiting for her move
    page.locator("[data-movable]").first.wait_for(timeout=5000)
    before = laptop.page.locator("#board").get_attribute("data-version")
    while my_turn(page):  # the whole turn: a draft is sent by its last move's Play
        play_one_move(page)
    shoot(page, "sign-in-360x740-played")
    # The first device plays on: it sees the move made on the second.
    laptop.page.locator(f'#board:not([data-version="{before}"])').wait_for(timeout=5000)
    assert phone.problems == [] and laptop.problems == []
