"""The player's pages: my tables, a table's games, one game's history, settings, rules and
data. Who may see what (a stranger gets the same 404 as for no table), and bad input."""

import json
import re

import pytest
from django.test import Client
from django.utils.html import escape

from bansugoroku.games import reviews
from bansugoroku.games.models import Game, GameReview
from engine.rules import WinKind
from tests.finished_games import won_table
from tests.front.pages import browser, page
from tests.wins import WINS

pytestmark = pytest.mark.django_db


def frames(html: str) -> list[dict]:
    found = re.search(r'<script id="replay-frames" type="application/json">(.*?)</script>', html)
    assert found, "the replay's positions are in the page"
    return json.loads(found.group(1))


def test_my_tables_lists_the_players_tables_waiting_for_them_first(host, guest, api):
    from tests.client import open_table

    other = api.new_player("Chie")
    first = open_table(host, guest)
    second = open_table(host, other)
    html = page(browser(host.token), "/me/tables")
    assert f'href="/tables/{first}"' in html and f'href="/tables/{second}"' in html
    mine = [code for code in (first, second) if host.state(code)["game"]["turn"]["yours"]]
    listed = re.findall(r'data-test="table-(\w+)"', html)
    assert listed[: len(mine)] == sorted(mine, key=listed.index)
    assert "against Ben" in html and "against Chie" in html


def test_my_tables_without_a_player_points_to_the_home_page(db):
    html = page(browser(), "/me/tables")
    assert "has no player yet" in html
    assert "has no player yet" in page(browser("stale-token"), "/me/tables")


def test_my_tables_of_a_player_without_tables(host):
    assert "You sit at no table yet" in page(browser(host.token), "/me/tables")


def test_a_finished_game_shows_its_turns_replay_exports_and_dice_check(played):
    client = browser(played.host.token)
    html = page(client, f"/tables/{played.code}/games/1")
    history = played.host.get(f"tables/{played.code}/games/1").body
    steps = frames(html)
    assert len(steps) == len(history["turns"]) + 1  # the start, then after each turn
    assert all(len(step["circles"]) > 0 and step["text"] for step in steps)
    assert html.count("<li data-turn=") == len(history["turns"])
    first = history["turns"][0]
    assert first["dice_name"]["kanji"] in html and first["dice_name"]["reading"] in html
    assert 'class="hit"' in html  # the played game has a hit in it
    assert f"/api/v1/tables/{played.code}/games/1/export.json" in html
    assert f"/api/v1/tables/{played.code}/games/1/export.mat" in html
    dice = played.host.get(f"tables/{played.code}/games/1/dice").body
    assert dice["seed"] in html and 'data-test="dice-check">✓' in html
    assert "won" in html and "iri-gachi" in html or "gachi" in html


def test_a_finished_game_shows_its_review_with_hards_play_beside_the_worst(played):
    client = browser(played.guest.token)
    html = page(client, f"/tables/{played.code}/games/1")
    assert 'data-test="review-pending"' in html, "no worker ran: the review is to come"
    game = Game.objects.get(table__code=played.code, number=1)
    reviews.store_review(game.pk)
    html = page(client, f"/tables/{played.code}/games/1")
    plays = GameReview.objects.get(game=game).plays
    marked = [play for play in plays if play["marked"]]
    assert 'data-test="review-pending"' not in html and marked
    assert html.count("data-review-turn=") == len(plays)
    assert html.count('class="marked"') == len(marked)
    boards = re.findall(r'<svg [^>]*class="board"', html)
    assert len(boards) == 1 + 2 * len(marked)  # the replay's, then pairs
    assert "<h3>You</h3>" in html and "<h3>Aiko</h3>" in html
    for play in marked:
        assert f"<code>{escape(play['best']['notation'])}</code>" in html
    client.cookies["django_language"] = "ja"
    assert "悪手" in page(client, f"/tables/{played.code}/games/1")


def test_the_history_writes_bar_and_off_in_the_readers_language(played):
    """The API keeps the machine's notation (`bar/22`); the page a German reads says
    "Bar/22", in the list of turns and in the replay's titles."""
    client = browser(played.guest.token)
    client.cookies["django_language"] = "de"
    html = page(client, f"/tables/{played.code}/games/1")
    turns = played.host.get(f"tables/{played.code}/games/1").body["turns"]
    words = [t["notation"] for t in turns if "bar/" in t["notation"] or "/off" in t["notation"]]
    assert any("bar/" in notation for notation in words), "the game has a hit"
    for notation in words:
        german = escape(notation.replace("bar/", "Bar/").replace("/off", "/raus"))
        assert f"<code>{german}</code>" in html
    assert "<code>bar/" not in html and "bar/" not in json.dumps(frames(html))


def test_the_list_of_a_tables_games(played):
    html = page(browser(played.guest.token), f"/tables/{played.code}/games")
    assert f'href="/tables/{played.code}/games/1"' in html


def test_a_game_in_progress_keeps_its_seed_secret(host, guest, table):
    html = page(browser(host.token), f"/tables/{table}/games/1")
    assert "stays secret" in html and "dice-check" not in html
    assert len(frames(html)) == 1  # only the start: no turn played yet


@pytest.mark.parametrize(
    "path",
    [
        "/tables/{code}/games",
        "/tables/{code}/games/1",
    ],
)
def test_a_stranger_gets_404_as_for_no_table(played, api, path):
    stranger = api.new_player("Eve")
    body = page(browser(stranger.token), path.format(code=played.code), 404)
    assert played.code not in body or "Eve" not in body
    page(browser(), path.format(code=played.code), 404)
    page(browser("stale"), path.format(code=played.code), 404)
    page(browser(played.host.token), path.format(code="ZZZZZZ"), 404)


@pytest.mark.parametrize(
    "path",
    [
        "/tables/{code}/games/2",
        "/tables/{code}/games/0",
        "/tables/{code}/games/99999999999999999999",
        "/tables/{code}/games/-1",
        "/tables/%00%27;--/games/1",
        "/tables/" + "A" * 500 + "/games",
    ],
)
def test_malformed_or_missing_games_are_404(played, path):
    page(browser(played.host.token), path.format(code=played.code), 404)


def test_settings_show_the_name_and_the_language_switch(host):
    html = page(browser(host.token), "/settings")
    assert 'value="Aiko"' in html and 'data-test="language"' in html
    assert 'action="/language"' in html


def test_settings_without_a_player_offer_the_language_only(db):
    html = page(browser(), "/settings")
    assert 'data-test="name"' not in html and 'data-test="language"' in html


@pytest.mark.parametrize("path", ["/", "/rules", "/data", "/settings"])
def test_every_page_has_one_language_switch(db, path):
    """In the footer, or on the settings page in its own section instead."""
    assert page(browser(), path).count('data-test="language"') == 1


def test_the_language_follows_accept_language(db):
    html = page(browser(**{"Accept-Language": "de-AT,de;q=0.9"}), "/rules")
    assert '<option value="de" lang="de" selected>' in page(
        browser(**{"Accept-Language": "de"}), "/settings"
    )
    assert "Regeln" in html or "Innen" in html


@pytest.mark.parametrize("language", ["en", "de", "fr", "ru", "ja"])
def test_every_page_renders_in_every_language(played, language):
    client = browser(played.host.token)
    client.cookies["django_language"] = language
    for path in (
        "/me/tables",
        "/settings",
        "/rules",
        "/data",
        f"/tables/{played.code}/games",
        f"/tables/{played.code}/games/1",
    ):
        html = page(client, path)
        assert f'<option value="{language}" lang="{language}" selected>' in html or (
            path != "/settings"
        )


def test_switching_the_language_sets_the_cookie_and_the_players_locale(host):
    client = browser(host.token)
    answer = client.post("/language", {"language": "ja", "next": "/rules"})
    assert answer.status_code == 302 and answer["Location"] == "/rules"
    assert answer.cookies["django_language"].value == "ja"
    assert host.player().locale == "ja"
    assert "入勝" in page(client, "/rules")


@pytest.mark.parametrize("language", ["", "xx", "de-DE", "en\x00", "<script>"])
def test_an_unknown_language_is_400(host, language):
    answer = browser(host.token).post("/language", {"language": language, "next": "/"})
    assert answer.status_code == 400
    assert host.player().locale == "en"


def test_the_switch_never_redirects_to_another_site(db):
    answer = browser().post("/language", {"language": "fr", "next": "https://evil.example/"})
    assert answer.status_code == 302 and answer["Location"] == "/settings"


def test_the_switch_needs_the_csrf_token(db):
    client = Client(enforce_csrf_checks=True)
    assert client.post("/language", {"language": "fr"}).status_code == 403


def test_the_switch_takes_only_post(db):
    assert browser().get("/language").status_code == 405


def test_the_rules_draw_their_diagrams_and_name_the_wins(db):
    html = page(browser(), "/rules")
    assert html.count("<svg") == 3
    for win in ("iri-gachi", "mushi-gachi", "mujō-gachi", "muji-gachi"):
        assert win in html


def test_the_data_page_states_the_retention_periods(settings, db):
    settings.RETENTION_TABLE_DAYS, settings.RETENTION_PLAYER_DAYS = 123, 45
    html = page(browser(), "/data")
    assert "123 days after the last play at the table" in html and "at least 45 days" in html


@pytest.mark.parametrize("path", ["/me/tables", "/settings", "/rules", "/data"])
def test_the_pages_take_no_post(db, path):
    assert browser().post(path).status_code == 405


def test_the_api_stays_english_whatever_the_language(host):
    """Apps switch on `code` and translate themselves; a half-translated answer helps
    no one."""
    answer = browser(**{"Accept-Language": "de"}).get("/api/v1/players/me")
    assert answer.status_code == 401
    assert answer.json()["detail"] == "Authentication credentials were not provided."
    assert "Accept-Language" not in answer.get("Vary", "")
    client = browser(host.token)
    client.cookies["django_language"] = "ja"
    refused = client.patch("/api/v1/players/me", {"name": ""}, content_type="application/json")
    assert refused.status_code == 400
    assert "この" not in refused.content.decode()


def test_the_page_says_its_language(db):
    assert '<html lang="ja">' in page(browser(**{"Accept-Language": "ja"}), "/rules")


def test_my_tables_costs_the_same_queries_for_one_table_or_three(
    host, guest, api, django_assert_num_queries
):
    from tests.client import open_table

    open_table(host, guest)
    client = browser(host.token)
    # The player's token, every table in one, and the header's count of those waiting.
    with django_assert_num_queries(3):
        page(client, "/me/tables")
    for name in ("Chie", "Dan"):
        open_table(host, api.new_player(name))
    with django_assert_num_queries(3):
        assert page(client, "/me/tables").count('data-test="table-') == 3


def test_a_resigned_game_says_so(host, guest, table):
    version = host.state(table)["version"]
    assert host.post(f"tables/{table}/resign", {"version": version}).status == 200
    html = page(browser(guest.token), f"/tables/{table}/games/1")
    assert "You won by resignation: 1 point" in html
    assert "Ben won by resignation" in page(browser(host.token), f"/tables/{table}/games")
    assert 'data-test="dice-check">✓' in html  # over, so the seed is shown and checked


@pytest.mark.parametrize("win", WINS, ids=[w.kind.value for w in WINS])
def test_the_history_page_names_the_win_the_engine_made(host, guest, win):
    """The name comes from the kind the engine gave the result; the page guessed it
    before, and named iri-gachi the muji-gachi made with all 15 home."""
    code, winner = won_table(host, guest, win)
    html = page(browser(winner.token), f"/tables/{code}/games/1")
    (shown,) = re.findall(r'data-test="result">(.*?)</p>', html, re.S)
    if win.kind is WinKind.RESIGNED:
        assert "You won by resignation" in shown and "gachi" not in shown
    else:
        assert f"<strong>{win.label}</strong>" in shown, shown


def test_dice_that_do_not_match_the_seed_are_flagged(played):
    from bansugoroku.games.models import Turn

    turn = Turn.objects.filter(game__table__code=played.code).order_by("number").first()
    turn.dice = [turn.dice[0] % 6 + 1, turn.dice[1]]  # a die the seed did not give
    turn.save()
    html = page(browser(played.host.token), f"/tables/{played.code}/games/1")
    assert 'data-test="dice-check">✗' in html


@pytest.mark.parametrize(
    ("level", "english", "german"),
    [("easy", "Easy", "leicht"), ("normal", "Normal", "normal"), ("hard", "Hard", "schwer")],
)
def test_a_cpu_opponent_is_named_by_its_level(host, level, english, german):
    created = host.post("tables", {"opponent": "cpu", "cpu_level": level})
    assert created.status == 201, created.body
    client = browser(host.token)
    assert f"against CPU ({english})" in page(client, "/me/tables")
    client.cookies["django_language"] = "de"
    assert f"gegen CPU ({german})" in page(client, "/me/tables")


def test_a_games_history_page_costs_seven_queries(played, django_assert_num_queries):
    """The token, the table with its seats, the game, its turns, its turns again for the
    dice check, its review, and the header's count of tables waiting."""
    client = browser(played.host.token)
    with django_assert_num_queries(7):
        page(client, f"/tables/{played.code}/games/1")


@pytest.mark.django_db
def test_only_the_pages_get_a_message_storage(client):
    """The admin's notes after a change need it; the API, which shows none, does not."""
    assert hasattr(client.get("/").wsgi_request, "_messages")
    assert not hasattr(client.get("/api/v1/players/me").wsgi_request, "_messages")
