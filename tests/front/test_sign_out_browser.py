"""Signing out of a phone's browser, in headless Chromium with the service worker
running: after it, with the network cut, no page the player saw is readable from any
cache, and the worker keeps nothing."""

from __future__ import annotations

from tests.client import Api, mover, open_table
from tests.front.browsers import as_player, controlled, needs_chromium, shoot

pytestmark = needs_chromium

CACHED = """async () => {
  const found = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) found.push(new URL(request.url).pathname);
  }
  return found;
}"""
"""Every path the page's origin holds in the Cache API."""


def test_after_signing_out_no_page_is_readable_offline(chromium, server, settings_for_play):
    host, guest = Api().new_player("Aiko"), Api().new_player("Ben")
    code = open_table(host, guest)
    player = mover(code, host, guest)[0]
    watched = as_player(chromium, server, player.token)
    page = watched.page
    page.goto(server + "/me/tables")
    controlled(page)
    seen = ["/me/tables", f"/tables/{code}", "/rules", "/settings", "/", f"/t/{code}", "/data"]
    for path in seen:
        page.goto(server + path)
    kept = set(page.evaluate(CACHED))
    assert {"/me/tables", f"/tables/{code}", "/rules"} <= kept  # what the app shows offline
    assert not kept & {"/settings", "/", f"/t/{code}", "/data"}, kept

    page.goto(server + "/settings")
    page.click('[data-test="sign-out-here"]')
    page.locator('[data-test="signed-out-here"]').wait_for()
    shoot(page, "signed-out-360x740")
    assert page.evaluate(CACHED) == []
    assert watched.context.cookies() == []
    assert Api(player.token).get("players/me").status == 401

    watched.context.set_offline(True)
    watched.problems.clear()
    for path in seen:
        try:
            page.goto(server + path)
        except Exception as error:  # the browser could load nothing: nothing was kept
            assert "net::ERR_" in str(error), error
            continue
        raise AssertionError(f"{path} was readable offline: {page.content()[:300]}")
    watched.context.close()
