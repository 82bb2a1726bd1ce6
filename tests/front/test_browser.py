"""The play pages end to end in a real headless Chromium (Debian's, driven by Playwright):
two browsers create a table, join by the invitation link and play a whole game by
clicking, at a phone's size and a desktop's. Any console error or failed request fails
the test. Screenshots go to the git-ignored .screenshots/ folder."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from bansugoroku.celery import app
from bansugoroku.front.identity import COOKIE
from engine.rules import WinKind
from tests.finished_games import won_table
from tests.front.browsers import (
    DESKTOP,
    PHONE,
    act,
    assert_fits,
    my_turn,
    needs_chromium,
    play_if_drafted,
    play_one_move,
    points,
    shoot,
    version,
)
from tests.processes import worker_running
from tests.wins import WINS

pytestmark = needs_chromium

GAME_SECONDS = 120
"""A game by clicking took 13 to 50 s here (50 to 160 moves, on a busy 2-core machine);
the limit only stops a stuck test."""


def keyboard_one_move(page: Any) -> None:
    """Focus a movable stone and press Enter, then the same on a lit point."""
    stone = page.locator(f'[data-point="{max(points(page, "data-movable"))}"]')
    stone.focus()
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.dataset.point") == stone.get_attribute(
        "data-point"
    ), "the focus stays on the chosen stone"
    target = page.locator(f'[data-point="{min(points(page, "data-legal"))}"]')
    target.focus()
    before = version(page)
    page.keyboard.press(" ")
    assert version(page) == before, "a drafted move sends nothing"
    assert page.locator('[data-test="undo"]').is_visible()


def drag_one_move(page: Any, shot: str) -> None:
    """Drag a stone to a legal point (tapping it first shows where, tapping again drops
    the choice)."""
    stone = page.locator(f'[data-point="{max(points(page, "data-movable"))}"]')
    stone.click()
    shoot(page, shot)
    target = page.locator(f'[data-point="{min(points(page, "data-legal"))}"]')
    stone.click()
    assert points(page, "data-legal") == []
    stone.drag_to(target)
    page.locator('[data-test="undo"]').wait_for(state="visible", timeout=5000)
    play_if_drafted(page)


def first_load_bytes(chromium: Any, server: str, cookies: list[Any], path: str) -> int:
    """Bytes a fresh browser transfers for a page and what it loads (headers and bodies)."""
    context = chromium.new_context()
    context.add_cookies(cookies)
    page = context.new_page()
    responses: list[Any] = []
    page.on("response", lambda response: responses.append(response))
    try:
        page.goto(server + path, wait_until="load")
        return sum(
            sizes["responseBodySize"] + sizes["responseHeadersSize"]
            for sizes in (response.request.sizes() for response in responses)
        )
    finally:
        context.close()


def test_two_browsers_play_a_whole_game_by_clicking(
    chromium, server, settings_for_play, viewport, players
):
    size = f"{viewport['width']}x{viewport['height']}"
    aiko, ben = players
    a, b = aiko.page, ben.page

    a.goto(server + "/")
    shoot(a, f"{size}-home")
    assert_fits(a)
    a.fill("#new_name", "Aiko")
    a.click('[data-test="play-friend"]')
    a.wait_for_url(re.compile(r"/tables/[A-Z0-9]{6}$"))
    invite = a.locator('[data-test="invite-link"]').get_attribute("href")
    assert invite and re.search(r"/t/[A-Z0-9]{6}$", invite)
    assert a.locator(".qr-box svg").count() == 1
    aiko.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    a.click('[data-test="copy-link"]')
    assert a.evaluate("navigator.clipboard.readText()") == invite
    shoot(a, f"{size}-invite")

    b.goto(invite)
    shoot(b, f"{size}-join")
    assert_fits(b)
    b.fill("#join_name", "Ben")
    b.click('[data-test="join"]')
    b.wait_for_url(re.compile(r"/tables/[A-Z0-9]{6}$"))
    assert b.url.endswith(invite[-6:])

    a.locator('[data-test="start"]').wait_for(state="visible")  # the join, by polling
    act(a, a.locator('[data-test="start"]'))
    assert a.locator('[data-test="dice"] svg').count() == 2
    assert re.search(r"\S+ \w", a.locator("#dice-name").inner_text())

    # Aiko starts (the host starts the first game), the first move by keyboard.
    assert my_turn(a) and not my_turn(b)
    keyboard_one_move(a)
    while my_turn(a):
        play_one_move(a)
    b.locator("[data-movable]").first.wait_for(timeout=5000)  # Ben's page sees it
    assert "Aiko played" in b.locator("#news").inner_text()
    drag_one_move(b, f"{size}-choosing")
    assert_fits(b)
    shoot(b, f"{size}-game")

    started = time.monotonic()
    moves = 0
    undone = False
    while not a.locator('[data-test="play-again"]').is_visible():
        assert time.monotonic() - started < GAME_SECONDS, "the game did not end"
        for page in (a, b):
            while my_turn(page):
                play_one_move(page)
                moves += 1
                if not undone and page.locator('[data-test="undo"]').is_visible():
                    page.locator('[data-test="undo"]').click()  # back to the turn's start
                    assert page.locator('[data-test="undo"]').is_hidden()
                    undone = True
        a.wait_for_timeout(20)
    assert undone, "some turn had a move to take back"
    b.locator('[data-test="play-again"]').wait_for(state="visible")
    ended = a.locator("#status").inner_text()
    assert re.search(r"won the game by (iri-gachi|mushi-gachi|mujō-gachi)", ended), ended
    shoot(a, f"{size}-end")
    shoot(b, f"{size}-end-other")
    assert_fits(a)

    act(b, b.locator('[data-test="play-again"]'))
    a.locator('[data-test="dice"] svg').first.wait_for(timeout=5000)
    assert re.search(r"Score: you [0-3], \w+ [0-3]", a.locator("#score").inner_text())

    # The next game: Ben resigns, after saying so twice.
    b.click('[data-test="resign"]')
    b.click("#resign-dialog button[value=cancel]")
    assert b.locator('[data-test="resign"]').is_visible(), "cancelling changes nothing"
    b.click('[data-test="resign"]')
    act(b, b.locator('[data-test="resign-confirm"]'))
    a.locator('[data-test="play-again"]').wait_for(state="visible", timeout=5000)
    assert "Ben resigned: you win the game" in a.locator("#status").inner_text()
    print(f"{size}: a game of {moves} moves took {time.monotonic() - started:.1f} s")

    weight = first_load_bytes(chromium, server, aiko.context.cookies(), a.url.split(server)[1])
    print(f"{size}: the table page's first load transferred {weight} bytes")
    assert weight < 150_000
    polls = ben.network_statuses
    print(f"{size}: Ben's page had {polls.count(304)} answers 304 of {len(polls)}")
    assert polls.count(304) > 0, "polling revalidates with the ETag"
    assert aiko.problems == [], aiko.problems[:5]
    assert ben.problems == [], ben.problems[:5]


@pytest.mark.parametrize("viewport", [PHONE], ids=["phone"], indirect=True)
def test_the_end_of_a_game_names_the_win_the_engine_made(
    chromium, server, settings_for_play, players, host, guest
):
    """Each kind of win, played to its end through the API: both players' pages name it
    as the engine's result gives it, the same name as the history page's."""
    aiko, ben = players
    for win in WINS:
        code, winner = won_table(host, guest, win)
        for watched, player in ((aiko, host), (ben, guest)):
            watched.context.add_cookies([{"name": COOKIE, "value": player.token, "url": server}])
            watched.page.goto(f"{server}/tables/{code}")
            status = watched.page.locator("#status").inner_text()
            if win.kind is WinKind.RESIGNED:
                said = "resigned: you win" if player is winner else "You resigned"
                assert said in status, status
            else:
                assert f"won the game by {win.label}:" in status, status
                assert status.startswith("You won") is (player is winner), status
    assert aiko.problems == [] and ben.problems == []


@pytest.mark.skipif(
    not app.conf.broker_url.startswith(("redis://", "amqp://")),
    reason="a real worker over Redis or RabbitMQ: set CELERY_BROKER_URL, as CI does",
)
@pytest.mark.parametrize("viewport", [DESKTOP], ids=["desktop"], indirect=True)
def test_a_whole_game_against_the_cpu_in_the_browser(chromium, server, settings_for_play, players):
    """The CPU's turns, played by a real worker, appear on the page without a reload."""
    aiko, _ = players
    page = aiko.page
    app.control.purge()
    with worker_running():
        page.goto(server + "/")
        page.fill("#new_name", "Aiko")
        page.select_option("select[name=level]", "easy")
        page.click('[data-test="play-cpu"]')
        page.wait_for_url(re.compile(r"/tables/[A-Z0-9]{6}$"))
        started = time.monotonic()
        saw_the_cpu = False
        while not page.locator('[data-test="play-again"]').is_visible():
            assert time.monotonic() - started < GAME_SECONDS, "the game did not end"
            if my_turn(page):
                saw_the_cpu |= "CPU (Easy) played" in page.locator("#news").inner_text()
                play_one_move(page)
            else:
                page.wait_for_timeout(20)
    assert saw_the_cpu
    assert re.search(r"won the game by", page.locator("#status").inner_text())
    assert aiko.problems == []


@pytest.mark.parametrize("viewport", [PHONE], ids=["phone"], indirect=True)
def test_the_opening_roll_is_shown_and_the_higher_starts(
    chromium, server, settings_for_play, players
):
    aiko, _ = players
    page = aiko.page
    page.goto(server + "/")
    page.fill("#new_name", "Aiko")
    page.select_option("select[name=level]", "easy")
    page.locator("details.house-rules summary").click()
    page.check("input[name=start][value=roll]")
    page.click('[data-test="play-cpu"]')
    page.wait_for_url(re.compile(r"/tables/[A-Z0-9]{6}$"))
    page.locator("#news", has_text="Opening roll").wait_for()  # the page started the game
    news = page.locator("#news").inner_text()
    rolled = re.search(r"Opening roll: you (\d), CPU \(Easy\) (\d)\.", news)
    assert rolled, news
    mine, theirs = int(rolled[1]), int(rolled[2])
    assert mine != theirs and my_turn(page) == (mine > theirs)
    assert aiko.problems == []


@pytest.mark.parametrize("viewport", [PHONE], ids=["phone"], indirect=True)
def test_a_player_leaves_after_saying_so_twice_and_the_other_page_says_it_closed(
    chromium, server, settings_for_play, players
):
    aiko, ben = players
    a, b = aiko.page, ben.page
    a.goto(server + "/")
    a.fill("#new_name", "Aiko")
    a.click('[data-test="play-friend"]')
    a.wait_for_url(re.compile(r"/tables/[A-Z0-9]{6}$"))
    b.goto(a.locator('[data-test="invite-link"]').get_attribute("href"))
    b.fill("#join_name", "Ben")
    b.click('[data-test="join"]')
    b.wait_for_url(re.compile(r"/tables/[A-Z0-9]{6}$"))
    a.locator('[data-test="start"]').wait_for(state="visible")
    act(a, a.locator('[data-test="start"]'))

    b.click('[data-test="leave"]')
    b.click("#leave-dialog button[value=cancel]")
    assert b.locator('[data-test="leave"]').is_visible(), "staying changes nothing"
    b.click('[data-test="leave"]')
    shoot(b, "leave-dialog")
    act(b, b.locator('[data-test="leave-confirm"]'))

    closed = "A player left this table: it is closed."
    assert b.locator("#status").inner_text() == closed
    a.locator("#status", has_text=closed).wait_for(timeout=5000)  # by polling
    for page in (a, b):
        for action in ("leave", "resign", "undo", "play-again"):
            assert page.locator(f'[data-test="{action}"]').is_hidden(), action
        assert page.locator("[data-movable]").count() == 0
    shoot(a, "left-other")
    assert aiko.problems == [] and ben.problems == []
