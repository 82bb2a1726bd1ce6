"""The site installed as an app, in a phone-sized headless Chromium: installable by
Chromium's own criteria, the waiting count on the app's icon, a tapped notice opening
its table, and the player's tables and a table readable with the network cut, the
table as its page last saw it.

Screenshots go to the git-ignored .screenshots/ folder."""

from __future__ import annotations

import json
import time
from typing import Any

from tests.client import Api, mover, open_table
from tests.front.browsers import (
    CHROMIUM,
    PHONE,
    as_player,
    assert_fits,
    chromium_args,
    controlled,
    my_turn,
    needs_chromium,
    shoot,
    version,
)

pytestmark = needs_chromium

WAIT = 30.0
"""Seconds to wait for the browser at each step: far more than it needs."""


def test_the_site_installs_and_its_icon_shows_the_count_of_tables_waiting(
    chromium, server, settings_for_play, tmp_path
):
    """Installable by Chromium's own criteria, installed and launched through the
    DevTools protocol (PWA.install, PWA.launch), and the count the operating system
    would show on the icon read back (PWA.getOsAppState). In a browser profile of its
    own: Chromium installs nothing from an incognito one, which a new context is."""
    host, guest = Api().new_player("Aiko"), Api().new_player("Ben")
    codes = [open_table(host, guest) for _ in range(3)]
    player = mover(codes[0], host, guest)[0]
    waiting = [code for code in codes if mover(code, host, guest)[0].token == player.token]
    profile = chromium.browser_type.launch_persistent_context(
        tmp_path, executable_path=CHROMIUM, args=chromium_args(), viewport=PHONE
    )
    profile.add_cookies([{"name": "player", "value": player.token, "url": server}])
    page = profile.pages[0]
    page.goto(server + "/")
    controlled(page)
    devtools = profile.new_cdp_session(page)
    manifest = devtools.send("Page.getAppManifest")
    assert manifest["url"] == server + "/manifest.webmanifest"
    assert manifest["errors"] == []
    assert devtools.send("Page.getInstallabilityErrors") == {"installabilityErrors": []}
    start = server + json.loads(manifest["data"])["start_url"]
    scope = "start => navigator.serviceWorker.getRegistration(start).then(r => r.scope)"
    assert page.evaluate(scope, start) == server + "/"  # the worker controls the start URL

    app = {"manifestId": server + "/"}
    devtools.send("PWA.install", app)
    with profile.expect_page() as launched:
        devtools.send("PWA.launch", app)
    window = launched.value
    window.wait_for_load_state()
    assert window.url == start
    badge = lambda: devtools.send("PWA.getOsAppState", app)["badgeCount"]  # noqa: E731
    deadline = time.monotonic() + WAIT
    while badge() != len(waiting):
        assert time.monotonic() < deadline, f"badge {badge()}, not {len(waiting)}"
        window.wait_for_timeout(20)
    # next_table.js tells app.js the count after a turn.
    window.evaluate("document.dispatchEvent(new CustomEvent('waiting-count', {detail: 0}))")
    while badge() != 0:
        assert time.monotonic() < deadline, "the badge stays"
        window.wait_for_timeout(20)
    shoot(window, "app-installed-my-tables-360x740")
    profile.close()


def delivered(watched: Any, server: str, payload: dict[str, Any]) -> dict[str, Any]:
    """Deliver `payload` to the worker as a push service would (the DevTools protocol),
    and return the notice it shows. One delivery in about twenty shows nothing (see
    test_service_worker.py), so it is delivered up to three times."""
    page = watched.page
    devtools = watched.context.new_cdp_session(page)
    registrations: list[dict[str, Any]] = []
    devtools.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    devtools.send("ServiceWorker.enable")
    deadline = time.monotonic() + WAIT
    while not registrations:
        assert time.monotonic() < deadline, "no worker registration"
        page.wait_for_timeout(20)
    registration_id = registrations[0]["registrationId"]
    for _ in range(3):
        devtools.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": server, "registrationId": registration_id, "data": json.dumps(payload)},
        )
        deadline = time.monotonic() + WAIT / 3
        while time.monotonic() < deadline:
            page.wait_for_timeout(20)
            shown = page.evaluate(
                "navigator.serviceWorker.ready.then(r => r.getNotifications())"
                ".then(all => all.map(n => n.tag))"
            )
            if shown:
                return {"tag": shown[0]}
    raise AssertionError("the push message showed no notice")


TAP = """tag => self.registration.getNotifications({tag}).then(([notice]) =>
  self.dispatchEvent(new NotificationEvent("notificationclick", {notification: notice})))"""
"""A tap on the notice: the event the browser gives the worker, with the notice shown.
Headless Chromium draws no notices to tap, and the DevTools protocol has no tap."""


def test_a_tapped_notice_opens_its_table(chromium, server, settings_for_play):
    host, guest = Api().new_player("Aiko"), Api().new_player("Ben")
    code = open_table(host, guest)
    player = mover(code, host, guest)[0]
    watched = as_player(chromium, server, player.token)
    watched.context.grant_permissions(["notifications"], origin=server)
    page = watched.page
    page.goto(server + "/me/tables")
    controlled(page)
    payload = {"kind": "your_turn", "title": "Your turn", "body": "Ben played", "table": code}
    shown = delivered(watched, server, {**payload, "url": f"/tables/{code}"})
    assert shown == {"tag": code}
    (worker,) = watched.context.service_workers
    worker.evaluate(TAP, code)
    page.wait_for_url(f"{server}/tables/{code}", timeout=WAIT * 1000)
    assert page.locator("#board").is_visible()
    watched.context.close()


def test_with_the_network_cut_my_tables_and_a_table_load_and_say_so(
    chromium, server, settings_for_play
):
    # The page's next poll, failing too, says the server can't be reached: not before
    # the move's own answer is read.
    settings_for_play.PLAY_POLL_MS = 60_000
    host, guest = Api().new_player("Aiko"), Api().new_player("Ben")
    code = open_table(host, guest)
    player = mover(code, host, guest)[0]
    watched = as_player(chromium, server, player.token)
    page = watched.page
    page.goto(server + "/me/tables")
    controlled(page)
    page.reload()  # now through the worker, which keeps a copy
    page.goto(f"{server}/tables/{code}")
    page.locator("[data-movable]").first.wait_for()
    assert page.locator('[data-test="offline"]').is_hidden()

    watched.context.set_offline(True)
    watched.problems.clear()
    page.goto(server + "/me/tables")
    assert page.locator(f'[data-test="table-{code}"]').is_visible()
    assert page.locator('[data-test="offline"]').is_visible()
    shoot(page, "app-offline-my-tables-360x740")
    page.locator(f'[data-test="table-{code}"]').click()
    page.wait_for_url(f"{server}/tables/{code}")
    offline = page.locator('[data-test="offline"]')
    assert "moves need a connection" in offline.inner_text()
    before = page.locator("#board").get_attribute("data-version")
    page.locator('[data-test="at-once"]').check()
    page.locator("[data-movable]").first.click()
    page.locator("[data-legal]").first.click()
    page.get_by_text("Not sent: this needs a connection.").wait_for(timeout=WAIT * 1000)
    assert page.locator("#board").get_attribute("data-version") == before
    assert Api(player.token).state(code)["version"] == int(before or 0)  # nothing queued
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, "app-offline-table-360x740")
    assert_fits(page)
    watched.context.close()


PROBLEMS_SHOWN = """() => {
  const box = document.getElementById("problem");
  window.problemsShown = [];
  new MutationObserver(() => window.problemsShown.push(box.textContent))
    .observe(box, {childList: true, characterData: true, subtree: true});
}"""
"""Record every text the page's problem line shows: the next failed poll soon replaces
a move's "not sent" with "can't be reached"."""


def test_offline_a_table_shows_the_opponents_move_its_page_last_polled(
    chromium, server, settings_for_play
):
    """The worker's copy of the table page holds the state of its load; the page shows
    the newer one it polled since, still saying it may be out of date."""
    host, guest = Api().new_player("Aiko"), Api().new_player("Ben")
    code = open_table(host, guest)
    opponent, table = mover(code, host, guest)
    player = guest if opponent is host else host
    watched = as_player(chromium, server, player.token)
    page = watched.page
    page.goto(server + "/me/tables")
    controlled(page)
    page.goto(f"{server}/tables/{code}")  # through the worker, which keeps this copy
    loaded = str(table["version"])
    page.locator(f'#board[data-version="{loaded}"]').wait_for()
    assert not my_turn(page)

    play = {"version": table["version"], "moves": table["game"]["turn"]["plays_left"][0]["moves"]}
    assert opponent.post(f"tables/{code}/moves", play).status == 200
    polled = str(Api(player.token).state(code)["version"])
    assert polled != loaded
    page.locator(f'#board[data-version="{polled}"]').wait_for(timeout=WAIT * 1000)
    assert my_turn(page), "the opponent's play left a move to make"

    watched.context.set_offline(True)
    watched.problems.clear()
    page.reload()
    page.locator("#board[data-version]").wait_for()
    assert version(page) == polled, "the state of the last load, not the one polled since"
    assert my_turn(page)
    assert "played" in page.locator("#news").inner_text()
    offline = page.locator('[data-test="offline"]')
    assert offline.is_visible()
    assert "may be out of date" in offline.inner_text()
    page.evaluate(PROBLEMS_SHOWN)
    page.locator('[data-test="at-once"]').check()
    page.locator("[data-movable]").first.click()
    page.locator("[data-legal]").first.click()
    deadline = time.monotonic() + WAIT
    while not any(
        "Not sent: this needs a connection." in text
        for text in page.evaluate("window.problemsShown")
    ):
        assert time.monotonic() < deadline, "the move did not say it needs a connection"
        page.wait_for_timeout(20)
    assert version(page) == polled
    assert str(Api(player.token).state(code)["version"]) == polled  # nothing queued
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, "app-offline-polled-table-360x740")

    # Online again, the page from the network shows the server's newer state.
    watched.context.set_offline(False)
    mine = Api(player.token).state(code)
    play = {"version": mine["version"], "moves": mine["game"]["turn"]["plays_left"][0]["moves"]}
    assert Api(player.token).post(f"tables/{code}/moves", play).status == 200
    page.reload()
    page.locator("#board[data-version]").wait_for()
    assert version(page) == str(Api(player.token).state(code)["version"]) != polled
    assert page.locator('[data-test="offline"]').is_hidden()
    watched.context.close()


def test_the_settings_explain_installing_on_an_iphone(chromium, server, settings_for_play):
    iphone = (
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 "
        "(KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1"
    )
    watched = as_player(chromium, server, Api().new_player("Aiko").token, user_agent=iphone)
    page = watched.page
    page.goto(server + "/settings")
    steps = page.locator('[data-platform="ios"]')
    assert steps.get_attribute("open") is not None
    assert page.locator('[data-platform="android"]').get_attribute("open") is None
    assert "Add to Home Screen" in steps.inner_text()
    assert page.locator('[data-test="install"]').is_hidden()  # Safari offers no prompt
    page.evaluate("document.getElementById('app').scrollIntoView()")
    shoot(page, "app-settings-iphone-360x740")
    assert_fits(page)
    assert watched.problems == []
    watched.context.close()
