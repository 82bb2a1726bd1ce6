"""A player's page in the browser: only for players who came to the lobby, showing of
their tables and games only those against others who did; the replay of those games for
anyone, and nothing else; the Block button; and names shown as the text they are."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from bansugoroku.front.identity import COOKIE
from bansugoroku.games import services
from bansugoroku.games.models import Block, Game, Player
from tests.factories import GameFactory, PlayerFactory, TableFactory
from tests.finished_games import play_out
from tests.front.browsers import PHONE, Watched, assert_fits, shoot
from tests.front.pages import browser, page

pytestmark = pytest.mark.django_db


def lobby_game(host: Player, guest: Player, *, finished: bool = True) -> Game:
    """The first game of a table the host opened in the lobby and the guest took there,
    which lists them both; played to its end unless not `finished`."""
    table = TableFactory(host=host, open=True)
    services.seat_take(player=guest, code=table.code)
    table.refresh_from_db()
    services.table_start(player=host, code=table.code, version=table.version)
    if finished:
        play_out(table.code, random.Random(table.code))
    return Game.objects.select_related("table").get(table=table, number=1)


def replay_path(player: Player, game: Game) -> str:
    return f"/players/{player.pk}/games/{game.table.code}/{game.number}"


def test_the_page_shows_rating_record_tables_and_games_against_listed_players_only():
    aiko, ben, dai = PlayerFactory(name="Aiko"), PlayerFactory(name="Ben"), PlayerFactory()
    public = lobby_game(aiko, ben)
    playing = lobby_game(aiko, dai, finished=False)
    hidden = GameFactory(host=aiko, guest=PlayerFactory(name="Chie"), finished=True)

    answer = browser().get(f"/players/{aiko.pk}")
    assert answer.status_code == 200 and answer["Cache-Control"] == "no-store"
    html = answer.content.decode()
    aiko.refresh_from_db()
    rating = f"Rating {round(aiko.rating)} ± {round(aiko.rating_deviation)}"
    assert 'data-test="name">Aiko<' in html and rating in html
    assert "2 played, " in html, "the record counts the game against Chie too"
    assert 'data-test="kinds"' in html
    assert f'href="{replay_path(aiko, public)}"' in html
    assert hidden.table.code not in html and "Chie" not in html
    assert f'href="/players/{ben.pk}"' in html and f'href="/players/{dai.pk}"' in html
    assert playing.table.code not in html, "a table being played has no public address"
    assert 'data-test="block"' not in html, "a visitor with no player has no button"


def test_an_unlisted_or_unknown_player_is_404():
    aiko = PlayerFactory(name="Aiko")
    chie = PlayerFactory(name="Chie")
    GameFactory(host=aiko, guest=chie, finished=True)  # by a code: neither is listed
    for player_id in (chie.pk, aiko.pk, 999999999):
        page(browser(), f"/players/{player_id}", 404)
    page(browser(chie.token), f"/players/{chie.pk}", 404)
    page(browser(), "/players/99999999999999999999", 404)


def test_a_visitor_with_no_player_replays_a_public_game_from_either_side():
    aiko, ben = PlayerFactory(name="Aiko"), PlayerFactory(name="Ben")
    game = lobby_game(aiko, ben)
    html = page(browser(), replay_path(aiko, game))
    turns = game.turns.count()
    assert html.count("<li data-turn=") == turns
    assert html.count('<li data-turn="1" class="mine">') == (game.starter == 0)
    assert "1. Aiko" in html or "1. Ben" in html
    assert not re.search(r"\d\. You<|You won", html), 'nobody is "You" to a stranger'
    assert f'href="/players/{aiko.pk}" data-test="owner">Aiko<' in html
    assert 'data-test="dice-check">✓' in html
    assert "export.json" not in html and 'data-test="dice-json"' not in html
    assert "My tables</a> ›" not in html
    from_ben = page(browser(), replay_path(ben, game))
    assert 'data-test="owner">Ben<' in from_ben and from_ben.count("<li data-turn=") == turns


def test_the_public_replay_costs_as_few_queries_as_the_seats_own(django_assert_num_queries):
    """The player, the game with its table, its seats with their players, its turns, its
    turns again for the dice check and its review."""
    aiko, ben = PlayerFactory(name="Aiko"), PlayerFactory(name="Ben")
    path = replay_path(aiko, lobby_game(aiko, ben))
    with django_assert_num_queries(6):
        page(browser(), path)


def test_only_the_players_public_games_replay():
    aiko, ben, eve = PlayerFactory(name="Aiko"), PlayerFactory(name="Ben"), PlayerFactory()
    public = lobby_game(aiko, ben)
    chie = PlayerFactory(name="Chie")
    with_chie = GameFactory(host=aiko, guest=chie, finished=True)
    playing = lobby_game(aiko, eve, finished=False)
    others = lobby_game(ben, eve)
    code = public.table.code
    for path in (
        replay_path(aiko, with_chie),  # Chie never came to the lobby
        replay_path(chie, with_chie),
        replay_path(aiko, playing),
        replay_path(aiko, others),  # a game of other players
        f"/players/{aiko.pk}/games/ZZZZZZ/1",
        f"/players/{aiko.pk}/games/{code}/2",
        f"/players/{aiko.pk}/games/{code}/0",
        f"/players/{aiko.pk}/games/{code}/99999999999999999999",
        f"/players/{aiko.pk}/games/%00%27;--/1",
        f"/players/{chie.pk}/games/{code}/1",
        f"/players/999999999/games/{code}/1",
    ):
        page(browser(aiko.token), path, 404)
    page(browser(), replay_path(aiko, public))
    page(browser(), f"/players/{aiko.pk}/games/{code.lower()}/1")


def test_blocking_from_the_page_hides_the_tables_in_the_lobby_until_unblocked():
    aiko, ben = PlayerFactory(name="Aiko"), PlayerFactory(name="Ben")
    lobby_game(aiko, ben)
    waiting, bens = TableFactory(host=aiko, open=True), TableFactory(host=ben, open=True)
    client = browser(ben.token)
    assert 'data-test="block"' in page(client, f"/players/{aiko.pk}")
    assert waiting.code in page(client, "/lobby")
    assert bens.code in page(browser(aiko.token), "/lobby")

    answer = client.post(f"/players/{aiko.pk}/block")
    assert answer.status_code == 302 and answer["Location"] == f"/players/{aiko.pk}"
    assert Block.objects.filter(blocker=ben, blocked=aiko).count() == 1
    html = page(client, f"/players/{aiko.pk}")
    assert 'data-test="unblock"' in html and 'data-test="block"' not in html
    assert waiting.code not in page(client, "/lobby")
    assert bens.code not in page(browser(aiko.token), "/lobby"), "both ways"

    assert client.post(f"/players/{aiko.pk}/unblock").status_code == 302
    assert not Block.objects.exists()
    assert waiting.code in page(client, "/lobby")


def test_no_button_on_ones_own_page_nor_for_a_browser_with_no_player():
    aiko, ben = PlayerFactory(name="Aiko"), PlayerFactory(name="Ben")
    lobby_game(aiko, ben)
    own = page(browser(aiko.token), f"/players/{aiko.pk}")
    assert 'data-test="block"' not in own and 'data-test="unblock"' not in own
    answer = browser().post(f"/players/{aiko.pk}/block")
    assert answer.status_code == 302 and not Block.objects.exists()
    myself = browser(aiko.token).post(f"/players/{aiko.pk}/block")
    assert myself.status_code == 409 and not Block.objects.exists()
    assert browser(ben.token).post("/players/999999999/block").status_code == 404


def test_the_button_needs_the_csrf_token_and_a_post():
    aiko, ben = PlayerFactory(name="Aiko"), PlayerFactory(name="Ben")
    lobby_game(aiko, ben)
    client = Client(enforce_csrf_checks=True)
    client.cookies.update(browser(ben.token).cookies)
    assert client.post(f"/players/{aiko.pk}/block").status_code == 403
    assert browser(ben.token).get(f"/players/{aiko.pk}/block").status_code == 405
    assert not Block.objects.exists()


def test_a_hostile_name_shows_as_text():
    hostile, ben = PlayerFactory(name="<script>x</script>"), PlayerFactory(name="Ben")
    game = lobby_game(hostile, ben)
    TableFactory(host=hostile, open=True)
    shown = "&lt;script&gt;x&lt;/script&gt;"
    for path in (
        f"/players/{hostile.pk}",
        f"/players/{ben.pk}",
        replay_path(hostile, game),
        replay_path(ben, game),
        "/lobby",
    ):
        html = page(browser(ben.token), path)
        assert "<script>x" not in html and shown in html, path


def test_the_lobby_links_each_host_to_their_page():
    table = TableFactory(host=PlayerFactory(name="Aiko"), open=True)
    html = page(browser(), "/lobby")
    assert f'href="/players/{table.host.pk}" data-test="host"' in html


@pytest.mark.django_db(transaction=True)
def test_the_page_and_its_replay_fit_and_block_in_a_browser(chromium, server, viewport):
    size = "phone" if viewport == PHONE else "desktop"
    aiko = PlayerFactory(name="Aiko Kawaguchi-Yamamoto")
    ben = PlayerFactory(name="Ben")
    game = lobby_game(aiko, ben)
    lobby_game(aiko, PlayerFactory(name="Chie"), finished=False)
    watched = Watched(chromium, viewport)
    watched.context.add_cookies([{"name": COOKIE, "value": ben.token, "url": server}])
    b = watched.page
    TableFactory(host=aiko, open=True)
    try:
        b.goto(f"{server}/lobby")
        shoot(b, f"profile-{size}-lobby")
        assert_fits(b)
        b.click('[data-test="host"]')
        b.wait_for_url(f"{server}/players/{aiko.pk}")
        shoot(b, f"profile-{size}")
        assert_fits(b)
        b.click('[data-test="block"]')
        b.locator('[data-test="unblock"]').wait_for()
        shoot(b, f"profile-{size}-blocked")
        b.click(f'[data-test="game-{game.table.code}-1"]')
        b.wait_for_url(f"{server}{replay_path(aiko, game)}")
        b.click('[data-step="-1"]')
        assert b.locator("[data-frame-title]").inner_text().startswith("Turn ")
        shoot(b, f"profile-{size}-replay")
        assert_fits(b)
        assert watched.problems == []
    finally:
        watched.context.close()
