"""The table page from "your turn" to the move, in a real Chromium at a phone's size and
a desktop's: what happened while the player was away (a hit, then their pass; the CPU's
plays between their passes), told in words and on the board, and the turn as a draft
that only the Play button sends, by touch and by keyboard."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from bansugoroku.celery import app
from bansugoroku.front.identity import COOKIE
from bansugoroku.games import outbox
from bansugoroku.games.models import Game, Table, Turn
from engine.notation import position_id
from engine.position import Position
from engine.side import Side
from tests.client import Api, mover, open_table
from tests.finished_games import whole_play
from tests.front.browsers import PHONE, act, assert_fits, my_turn, points, shoot, version
from tests.processes import worker_running

pytestmark = pytest.mark.usefixtures("settings_for_play")

CLOSED_HOME = (2, 2, 2, 2, 2, 2)
"""The mover's home, points 1 to 6, every one made: a stone on the bar cannot enter."""


def seen(mover: list[int], bar: tuple[int, int] = (0, 0)) -> Position:
    """A position from the mover's side: the points 1-24 as listed (the opponent's
    stones negative), the opponent's other stones off the bar on their own points 13,
    14 and 15 (the mover's 12, 11 and 10), a wall the mover's runners get past."""
    points = list(mover) + [0] * (24 - len(mover))
    left = 15 - bar[1] + sum(n for n in points if n < 0)
    for point, count in ((12, 5), (11, 5), (10, left - 10)):
        points[point - 1] = -count
    return Position(tuple(points), bar, (0, 0))


def put(code: str, position: Position, dice: list[int]) -> None:
    """Set the turn being played at the table: the position from the mover's side."""
    game = Game.objects.get(table__code=code)
    stored = Side(game.turn_seat).sees(position)
    Game.objects.filter(pk=game.pk).update(position=position_id(stored), dice=dice, pending=[])


def open_as(watched: Any, server: str, player: Api, code: str) -> Any:
    watched.context.add_cookies([{"name": COOKIE, "value": player.token, "url": server}])
    page = watched.page
    page.goto(f"{server}/tables/{code}")
    return page


def told(page: Any) -> list[str]:
    return page.locator('[data-test="since"] li').all_inner_texts()


def last_marked(page: Any) -> set[int]:
    return set(page.locator(".pt.last").evaluate_all("els => els.map(e => +e.dataset.point)"))


def test_back_after_a_hit_and_a_pass_the_page_tells_both_and_the_plays_after(
    chromium, server, viewport, players, host, guest
):
    """Ben hits Aiko's blot closing his home: her roll passes, and he plays on until she
    can enter. Her page lists each of those turns since her last play, the hit and her
    passes included, marks where his plays went, and says the turn is hers."""
    code = open_table(host, guest, {"finish": "bear_off", "muji": "off"})
    aiko, state = mover(code, host, guest)
    ben = guest if aiko is host else host
    aiko.post(f"tables/{code}/moves", {"version": state["version"], "moves": whole_play(code)})
    # Ben's home made but for his 3 point, where her blot stands, with two spares to hit it.
    home = [2, 2, -1, 2, 3, 3] + [0] * 6 + [3]
    put(code, seen(home), [3, 2])
    version = ben.state(code)["version"]
    hit = ben.post(f"tables/{code}/moves", {"version": version, "moves": [[6, 3], [5, 3]]})
    assert hit.status == 200, hit.body
    while not aiko.state(code)["game"]["turn"]["yours"]:
        version = ben.state(code)["version"]
        answer = ben.post(f"tables/{code}/moves", {"version": version, "moves": whole_play(code)})
        assert answer.status == 200, answer.body
    since = aiko.state(code)["game"]["since_your_play"]
    passes = [t for t in since if t["passed"]]
    assert since[0]["hit"] and passes and all(t["yours"] for t in passes)

    watched = players[0]
    page = open_as(watched, server, aiko, code)
    lines = told(page)
    assert len(lines) == len(since), lines
    hit_line = r"Turn \d+: Ben played \S+ \S+ with 3-2 and hit your stone: it waits on the bar\."
    assert re.fullmatch(hit_line, lines[0]), lines[0]
    assert re.fullmatch(r"Turn \d+: you could not move with \d-\d: your turn passed\.", lines[1])
    assert all(
        "Ben played" in line for line, t in zip(lines, since, strict=True) if not t["passed"]
    )
    news = page.locator("#news").inner_text()
    assert "Since your last play:" in news
    assert re.search(r"Turn \d+ is yours: you rolled \d-\d\.", news), news
    latest = [t for t in since if not t["passed"]][-1]["moves"]
    assert last_marked(page) == {p for move in latest for p in move if 1 <= p <= 24}
    size = f"{viewport['width']}x{viewport['height']}"
    shoot(page, f"{size}-away-hit-and-pass")
    assert_fits(page)
    assert watched.problems == []


def test_the_point_where_their_latest_play_hit_is_marked(
    chromium, server, viewport, players, host, guest
):
    """Ben hits Aiko's blot on his 3 point (her 22) and she can enter at once: her board
    marks that point as hit, apart from the others his play touched, and says so to a
    screen reader."""
    code = open_table(host, guest, {"finish": "bear_off", "muji": "off"})
    aiko, state = mover(code, host, guest)
    ben = guest if aiko is host else host
    aiko.post(f"tables/{code}/moves", {"version": state["version"], "moves": whole_play(code)})
    put(code, seen([0, 0, -1, 0, 0, 3, 5, 4, 0, 0, 0, 0, 3]), [3, 2])  # his home open
    version = ben.state(code)["version"]
    hit = ben.post(f"tables/{code}/moves", {"version": version, "moves": [[6, 3], [6, 4]]})
    assert hit.status == 200, hit.body
    latest = aiko.state(code)["game"]["since_your_play"][-1]
    assert latest["moves"] == [[19, 22], [19, 21]] and latest["hits"] == [True, False]

    page = open_as(players[0], server, aiko, code)
    assert my_turn(page)
    # In her numbering, as the board and the mails have it: his 6 point is her 19.
    assert told(page) == [
        "Turn 2: Ben played 19/22* 19/21 with 3-2 and hit your stone: it waits on the bar."
    ]
    struck = page.locator(".pt[data-struck]")
    assert struck.evaluate_all("els => els.map(e => +e.dataset.point)") == [22]
    assert struck.get_attribute("aria-label").endswith(". Their last play hit your stone here.")
    assert last_marked(page) == {19, 21, 22}
    assert page.locator(".pt[data-struck] .hit").evaluate(
        "e => getComputedStyle(e).strokeDasharray"
    ) in ("none", ""), "a solid mark, not the dashes of the points merely played"
    shoot(page, f"{viewport['width']}x{viewport['height']}-hit-marked")
    assert players[0].problems == []


def test_the_wait_and_the_close_stay_right_while_the_page_is_open(
    chromium, server, viewport, players, host, guest, settings
):
    """Ben's page stays open while Aiko takes her time: how long she has kept him waiting
    grows as the page polls, the close is told once it is a week away, and when she
    plays the wait is his, with no reload."""
    settings.IDLE_CLOSE_DAYS = 45
    code = open_table(host, guest)
    aiko, state = mover(code, host, guest)
    ben = guest if aiko is host else host
    name = "Aiko" if aiko is host else "Ben"
    players[0].page.clock.install()
    page = open_as(players[0], server, ben, code)
    wait, closing = page.locator('[data-test="wait"]'), page.locator('[data-test="closing"]')
    assert wait.is_hidden() and closing.is_hidden(), "the game has only just started"
    page.clock.fast_forward("02:00:00")
    expect(wait).to_have_text(f"Waiting for {name} for 2 hours")
    assert closing.is_hidden()
    page.clock.fast_forward(38 * 24 * 3600 * 1000)
    expect(closing).to_have_text("Closes in 7 days without a move")
    expect(wait).to_have_text(f"Waiting for {name} for 38 days")
    aiko.post(f"tables/{code}/moves", {"version": state["version"], "moves": whole_play(code)})
    expect(wait).to_have_text(re.compile(r"^Waiting for you for 38 days$"))
    assert players[0].problems == []


@pytest.mark.skipif(
    not app.conf.broker_url.startswith(("redis://", "amqp://")),
    reason="a real worker over Redis or RabbitMQ: set CELERY_BROKER_URL, as CI does",
)
def test_the_cpus_plays_between_your_passes_are_all_told(chromium, server, viewport, players):
    """Aiko on the bar before the CPU's closed home, its three runners far back: the
    worker plays the CPU's turns and Aiko's rolls pass between them until she can enter.
    Her page, open all along, lists every one of the CPU's plays, not only her passes."""
    aiko = Api().new_player("Aiko")
    created = aiko.post(
        "tables",
        {"opponent": "cpu", "cpu_level": "normal", "rules": {"finish": "bear_off", "muji": "off"}},
    )
    code = created.body["code"]
    app.control.purge()
    assert aiko.post(f"tables/{code}/start", {"version": aiko.state(code)["version"]}).status == 200
    cpu_seat = 1 - aiko.state(code)["you"]["seat"]
    game = Game.objects.get(table__code=code)
    Game.objects.filter(pk=game.pk).update(turn_seat=cpu_seat)
    Table.objects.filter(code=code).update(cpu_to_move=True)
    put(code, seen([*CLOSED_HOME] + [0] * 17 + [3], bar=(0, 1)), [6, 5])
    app.control.purge()  # the turn the start queued, if the CPU moved first

    page = open_as(players[0], server, aiko, code)
    assert not my_turn(page)
    with worker_running():
        outbox.queue_cpu_turn(code, game.number, game.turn_number)
        page.locator("[data-movable]").first.wait_for(timeout=60_000)
    since = aiko.state(code)["game"]["since_your_play"]
    plays = [t for t in since if not t["passed"]]
    assert len(plays) >= 2 and any(t["passed"] for t in since), since
    lines = told(page)
    assert len(lines) == len(since)
    # The CPU may be shut out too when Aiko's entering piece blocks it: its passes are
    # told as the other side's, so each kind of line is counted against the history.
    cpu_lines = [line for line in lines if "CPU (Normal) played" in line]
    your_passes = [line for line in lines if "you could not move" in line]
    cpu_passes = [line for line in lines if "CPU (Normal) could not move" in line]
    assert len(cpu_lines) == len(plays)
    assert len(your_passes) == sum(t["passed"] and t["yours"] for t in since)
    assert len(cpu_passes) == sum(t["passed"] and not t["yours"] for t in since)
    assert last_marked(page) == {p for move in plays[-1]["moves"] for p in move if 1 <= p <= 24}
    size = f"{viewport['width']}x{viewport['height']}"
    shoot(page, f"{size}-away-cpu-run")
    assert players[0].problems == []


def focused(page: Any, mark: str) -> bool:
    return bool(page.evaluate(f"document.activeElement.hasAttribute('{mark}')"))


def arrow_to(page: Any, mark: str) -> None:
    """Press the arrow keys until the focus is on a place with `mark`."""
    for key in ("ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown") * 2:
        if focused(page, mark):
            return
        page.keyboard.press(key)
    assert focused(page, mark), f"the arrows reach a place with {mark}"


def test_a_turn_is_a_draft_until_play_and_the_last_die_does_not_end_it(
    chromium, server, viewport, players, host, guest
):
    code = open_table(host, guest)
    aiko, state = mover(code, host, guest)
    page = open_as(players[0], server, aiko, code)
    start = page.locator("#board").inner_html()
    before = version(page)
    play = page.locator('[data-test="play"]')
    undo = page.locator('[data-test="undo"]')

    # Two moves by touch: the board shows them, nothing is sent, and Undo takes them back.
    for _ in range(2):
        page.locator(f'[data-point="{max(points(page, "data-movable"))}"]').click()
        page.locator(f'[data-point="{min(points(page, "data-legal"))}"]').click()
    assert version(page) == before and play.is_visible() and undo.is_visible()
    assert not my_turn(page), "both dice drafted: no stone to move"
    assert page.locator(".die.used").count() == 2
    assert "Play to end your turn, or Undo to change it." in page.locator("#status").inner_text()
    size = f"{viewport['width']}x{viewport['height']}"
    shoot(page, f"{size}-draft")
    assert_fits(page)
    undo.click()
    assert play.is_hidden() and my_turn(page) and page.locator(".die.used").count() == 1
    undo.click()
    assert undo.is_hidden() and page.locator("#board").inner_html() == start
    assert aiko.state(code)["game"]["turn"]["pending"] == [], "the server saw none of it"

    # The same by keyboard, from the board, where the focus is when the turn begins:
    # arrows to a stone, Enter, arrows to a lit point, Enter; twice; then Enter plays.
    page.reload()
    assert focused(page, "data-movable")
    for _ in range(2):
        arrow_to(page, "data-movable")
        page.keyboard.press("Enter")
        assert focused(page, "data-selected")
        arrow_to(page, "data-legal")
        page.keyboard.press("Enter")
    assert play.is_visible() and version(page) == before
    page.keyboard.press("Enter")
    page.locator(f'#board:not([data-version="{before}"])').wait_for(timeout=5000)
    turn = state["game"]["turn"]
    sent = Turn.objects.get(game__table__code=code, number=turn["number"])
    assert len(sent.moves) == 2, "the whole play, in one request"
    assert players[0].problems == []


@pytest.mark.parametrize("viewport", [PHONE], ids=["phone"], indirect=True)
def test_playing_at_once_is_kept_in_the_browser_and_sends_each_move(
    chromium, server, players, host, guest
):
    code = open_table(host, guest)
    aiko, _ = mover(code, host, guest)
    page = open_as(players[0], server, aiko, code)
    page.locator('[data-test="at-once"]').check()
    page.reload()
    assert page.locator('[data-test="at-once"]').is_checked(), "kept in this browser"
    page.locator(f'[data-point="{max(points(page, "data-movable"))}"]').click()
    act(page, page.locator(f'[data-point="{min(points(page, "data-legal"))}"]'))
    assert len(aiko.state(code)["game"]["turn"]["pending"]) == 1, "sent at once"
    page.locator(f'[data-point="{max(points(page, "data-movable"))}"]').click()
    act(page, page.locator(f'[data-point="{min(points(page, "data-legal"))}"]'))
    assert not aiko.state(code)["game"]["turn"]["yours"], "the last die ended the turn"
    assert page.locator('[data-test="play"]').is_hidden()
    assert players[0].problems == []
