"""A table with a clock in two real Chromium browsers, with a day made a few seconds long
(CLOCK_DAY_SECONDS, the trials' setting): the host chooses the clock on the home page,
both pages show whose time runs and until when, and the clock runs out: early on the
game is cancelled, later the player to move loses on time. The sweep is the beat's task
body, run here when the deadline has passed. And a mover in their quiet hours, on a
clock of real days: both pages say their clock stands, and until when."""

from __future__ import annotations

import re
import time
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from bansugoroku.games import services, timeouts
from bansugoroku.games.models import Player, Table
from tests.client import Api, mover, open_table
from tests.finished_games import whole_play
from tests.front.browsers import PHONE, act, as_player, needs_chromium, shoot

pytestmark = needs_chromium

DAY_SECONDS = 3


def wait_past_deadline(code: str) -> None:
    deadline = Table.objects.get(code=code).deadline
    assert deadline is not None
    time.sleep(max(0.0, (deadline - timezone.now()).total_seconds()) + 0.2)


@pytest.mark.parametrize("viewport", [PHONE], ids=["phone"], indirect=True)
def test_two_players_on_a_short_clock_see_it_run_and_run_out(
    chromium, server, settings_for_play, players
):
    settings_for_play.CLOCK_DAY_SECONDS = DAY_SECONDS
    aiko, ben = players
    a, b = aiko.page, ben.page
    a.goto(server + "/")
    a.fill("#new_name", "Aiko")
    a.click("details.house-rules summary")
    a.select_option("#new_clock", "1")
    a.click('[data-test="play-friend"]')
    a.wait_for_url(re.compile(r"/tables/[A-Z0-9]{6}$"))
    code = a.url.rsplit("/", 1)[1]
    assert "Clock: 1 day a move, banked up to 2 days." in a.locator("#rules").inner_text()
    b.goto(a.locator('[data-test="invite-link"]').get_attribute("href"))
    b.fill("#join_name", "Ben")
    b.click('[data-test="join"]')
    b.wait_for_url(re.compile(r"/tables/[A-Z0-9]{6}$"))
    a.locator('[data-test="start"]').wait_for(state="visible")
    Player.objects.update(auto_vacation=False)  # so that the clocks run out
    act(a, a.locator('[data-test="start"]'))

    mine = a.locator("#clock").inner_text()
    assert re.fullmatch(r"Your time: \d seconds? left, until .+\. Ben: 3 seconds\.", mine), mine
    b.locator("#clock", has_text="Aiko's time:").wait_for(timeout=5000)
    shoot(a, "clock-running")
    wait_past_deadline(code)
    assert timeouts.sweep(now=timezone.now()).cancelled == 1
    cancelled = "before each side had played two turns: the game is cancelled"
    for page in (a, b):
        page.locator("#status", has_text=cancelled).wait_for(timeout=5000)
        assert page.locator("#clock").is_hidden()

    # The next game, four turns in: the player to move then loses on time.
    act(a, a.locator('[data-test="play-again"]'))
    for _ in range(4):
        table = Table.objects.select_related("current_game").get(code=code)
        mover = Player.objects.get(seats__table=table, seats__number=table.current_game.turn_seat)
        play = [(m[0], m[1]) for m in whole_play(code)]
        services.game_move(player=mover, code=code, version=table.version, moves=play)
    table = Table.objects.select_related("current_game").get(code=code)
    loser = a if table.current_game.turn_seat == 0 else b
    winner = b if loser is a else a
    loser.locator("#clock", has_text="Your time:").wait_for(timeout=5000)
    wait_past_deadline(code)
    assert timeouts.sweep(now=timezone.now()).timed_out == 1
    loser.locator("#status", has_text="Your time to move ran out:").wait_for(timeout=5000)
    winner.locator("#status", has_text="time to move ran out: you win the game on time").wait_for(
        timeout=5000
    )
    shoot(winner, "clock-won-on-time")
    assert aiko.problems == [] and ben.problems == []


def test_the_movers_quiet_hours_stand_their_clock_on_both_pages(
    chromium, server, settings_for_play
):
    """The mover's night is now's UTC hour and the next; both readers are in Tokyo. The
    time left is their bank, 3 days less the moment since: the night is not in it."""
    host, guest = Api().new_player("Aiko"), Api().new_player("Ben")
    code = open_table(host, guest, clock_days=3)
    moving, _ = mover(code, host, guest)
    now = timezone.now()
    night = {"start_hour": now.hour, "end_hour": (now.hour + 2) % 24, "days_off": []}
    assert moving.put("players/me/quiet-hours", {"time_zone": "UTC", **night}).status == 200
    ends = now.replace(minute=0, second=0, microsecond=0) + timedelta(hours=2)
    ends = ends.astimezone(ZoneInfo("Asia/Tokyo"))
    until = f"until {ends:%b} {ends.day}, {ends.year}, {ends.hour % 12 or 12}:00"
    name = moving.player().name
    other = guest if moving is host else host
    readers = {
        moving: ("Your time", "Your quiet hours: your clock stands"),
        other: (f"{name}'s time", f"{name}'s quiet hours: their clock stands"),
    }
    for api, (running, stands) in readers.items():
        assert api.token is not None
        watched = as_player(chromium, server, api.token, timezone_id="Asia/Tokyo")
        watched.page.goto(f"{server}/tables/{code}")
        clock = watched.page.locator("#clock")
        clock.wait_for(timeout=5000)
        text = clock.inner_text()
        assert f"{running}: 2 days 23 hours left, until " in text, text
        assert f"{stands} {until}" in text, text
        shoot(watched.page, f"table-quiet-hours-{'mover' if api is moving else 'opponent'}-360x740")
        assert watched.problems == [], watched.problems[:5]
        watched.context.close()
