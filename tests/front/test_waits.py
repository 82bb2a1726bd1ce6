"""What my tables and the table page say of a table's wait: how long since the last
move, which colour the player plays, where its games and the rules are, and, once the
idle close nears, in how many days it closes."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from bansugoroku.front.identity import COOKIE
from bansugoroku.games.models import Table
from tests.client import Api, mover, open_table
from tests.moments import START

pytestmark = pytest.mark.django_db


def html(api: Api, path: str) -> str:
    client = Client()
    client.cookies[COOKIE] = api.token or ""
    answer = client.get(path)
    assert answer.status_code == 200
    return answer.content.decode()


def idle_for(code: str, delta: timedelta) -> None:
    Table.objects.filter(code=code).update(active_at=timezone.now() - delta)


@pytest.mark.parametrize(
    ("idle_days", "closing"),
    [
        (1, None),
        (37, None),
        (38, "Closes in 7 days without a move"),
        (44, "Closes in 1 day without a move"),
    ],
)
def test_the_close_is_told_from_a_week_before(host, guest, settings, idle_days, closing):
    settings.IDLE_CLOSE_DAYS = 45
    code = open_table(host, guest)
    idle_for(code, timedelta(days=idle_days, hours=1))
    for page in ("/me/tables", f"/tables/{code}"):
        shown = html(host, page)
        if closing is None:
            assert 'data-test="closing">' not in shown, page
        else:
            assert f'data-test="closing">{closing}<' in shown, page


def test_the_wait_is_told_to_both_seats(host: Api, guest: Api):
    code = open_table(host, guest)
    idle_for(code, timedelta(hours=3, minutes=5))
    player, _ = mover(code, host, guest)
    other = guest if player is host else host
    mine = html(player, f"/tables/{code}")
    assert 'data-test="wait">Waiting for you for 3\xa0hours' in mine
    name = "Aiko" if player is host else "Ben"
    theirs = html(other, "/me/tables")
    assert f'data-test="wait">Waiting for {name} for 3\xa0hours' in theirs


def test_the_table_page_says_the_colour_and_links_the_games_and_the_rules(host, guest):
    code = open_table(host, guest)
    assert 'data-test="colour">You play Black.<' in html(host, f"/tables/{code}")
    page = html(guest, f"/tables/{code}")
    assert 'data-test="colour">You play White.<' in page
    assert f'href="/tables/{code}/games" data-test="games-link"' in page
    assert 'href="/rules" data-test="rules-link"' in page


def test_a_table_waiting_for_a_guest_tells_no_wait(host: Api):
    code = host.post("tables", {"rules": {}}).body["code"]
    assert 'data-test="wait">' not in html(host, f"/tables/{code}")


def test_no_wait_is_told_in_its_first_minute(host: Api, guest: Api):
    """It would read "for 0 minutes"."""
    code = open_table(host, guest)
    idle_for(code, timedelta(seconds=30))
    assert 'data-test="wait"' not in html(host, "/me/tables")
    assert 'data-test="wait" hidden></p>' in html(host, f"/tables/{code}")
    idle_for(code, timedelta(minutes=2))
    assert 'data-test="wait">Waiting for' in html(host, "/me/tables")


def test_my_tables_give_each_clocks_deadline_soonest_first_within_my_turns(host, guest):
    codes = [open_table(host, guest, clock_days=days) for days in (7, 1, 3, None)]
    shown = html(host, "/me/tables")
    rows = {code: row for row in shown.split("<li")[1:] for code in codes if f"table-{code}" in row}
    mine = []
    for code in codes:
        table = Table.objects.get(code=code)
        if table.deadline is None:
            assert 'data-test="deadline"' not in rows[code]
        elif table.seat_to_move == 0:  # the host's turn
            assert "Your time: " in rows[code] and " left, until " in rows[code], rows[code]
            mine.append((table.deadline, code))
        else:
            assert "Ben&#x27;s time runs until " in rows[code], rows[code]
    order = [code for code in codes if code in dict((c, d) for d, c in mine)]
    shown_order = sorted(order, key=shown.index)
    assert shown_order == [code for _, code in sorted(mine)], "soonest deadline first"


def test_my_tables_say_when_the_opponent_is_on_vacation(host, guest):
    code = open_table(host, guest, clock_days=3)
    assert 'data-test="away"' not in html(host, "/me/tables")
    assert guest.post("players/me/vacation", {"days": 2}).status == 200

    shown = html(host, "/me/tables")

    row = next(row for row in shown.split("<li")[1:] if f"table-{code}" in row)
    assert 'data-test="away">Ben is on vacation until ' in row and " UTC</span>" in row
    zone = {"time_zone": "America/New_York", "start_hour": None, "end_hour": None}
    assert host.put("players/me/quiet-hours", zone | {"days_off": []}).status == 200
    row = next(row for row in html(host, "/me/tables").split("<li") if f"table-{code}" in row)
    assert " EST</span>" in row or " EDT</span>" in row, "in the reader's own zone"
    assert 'data-test="away"' not in html(guest, "/me/tables"), "only the opponent's"


def test_my_tables_give_the_time_left_without_my_quiet_hours(host, guest):
    """A 12-hour night in UTC from midnight: a day's clock started at noon has 36 hours
    to its deadline, of which 24 count."""
    night = {"time_zone": "UTC", "start_hour": 0, "end_hour": 12, "days_off": []}
    for player in (host, guest):
        assert player.put("players/me/quiet-hours", night).status == 200
    with time_machine.travel(START, tick=False):
        code = open_table(host, guest, clock_days=1)
        me, _ = mover(code, host, guest)
        row = next(row for row in html(me, "/me/tables").split("<li") if f"table-{code}" in row)
    assert "Your time: 1\xa0day left, until " in row, row
