"""Players read one name for each thing wherever they look: the CPU is "CPU (Normal)" on
the table page, in their tables, in a game's history, in its export and in a notice,
all named by `bansugoroku.games.vocabulary`."""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.utils import translation

from bansugoroku.front.identity import COOKIE
from bansugoroku.front.texts import table_texts
from bansugoroku.games import services, vocabulary
from bansugoroku.games.models import CpuLevel, Event
from notifications.mails import content
from tests.client import Api
from tests.factories import PlayerFactory, TableFactory
from tests.front.browsers import needs_chromium


def test_every_cpu_level_has_a_name_and_a_choice():
    """A level is named in one entry; the seat's name and the form's choice follow it."""
    for level in CpuLevel:
        assert vocabulary.cpu_name(level).startswith("CPU (")
        assert str(vocabulary.cpu_choice(level)).startswith("The CPU, ")
    assert vocabulary.cpu_name("normal") == "CPU (Normal)"


@needs_chromium
def test_the_cpu_has_one_name_wherever_a_player_reads_it(
    transactional_db: None, server: str, chromium: Any
) -> None:
    host = PlayerFactory(name="Aiko")
    table = TableFactory(host=host, cpu=CpuLevel.NORMAL)
    table = services.table_start(player=host, code=table.code, version=table.version).table
    services.game_resign(player=host, code=table.code, version=table.version)
    name = "CPU (Normal)"

    context = chromium.new_context()
    context.add_cookies([{"name": COOKIE, "value": host.token, "url": server}])
    page = context.new_page()
    page.goto(f"{server}/tables/{table.code}")
    status = page.locator("#status").inner_text()
    assert f"You resigned: {name} wins the game" in status, status
    context.close()

    pages = Client()
    pages.cookies[COOKIE] = host.token
    mine = pages.get("/me/tables").content.decode()
    assert f"against {name}" in mine
    games = pages.get(f"/tables/{table.code}/games").content.decode()
    assert f"{name} won by resignation" in games
    history = pages.get(f"/tables/{table.code}/games/1").content.decode()
    assert f"{name} won by resignation" in history

    export = Api(host.token).get(f"tables/{table.code}/games/1/export.mat")
    assert export.status == 200
    assert f'; [Player 2 "{name}"]' in export.body.decode()

    ended = Event.objects.get(table=table, kind="game_ended")
    said = content.for_notice("game_over", ended, host)
    assert said.intro == [f"{name} won, worth 1 point."]
    assert f", {name} 1." in said.tables[0].lines[0]


def test_the_points_are_named_from_the_readers_side_in_their_language():
    """The engine numbers the points; the names are translated once, so German reads
    "Gegner-Außen 1" on the table page as in a replay's text (once also "gegnerisches
    Außen 1")."""
    assert [vocabulary.point_name(p) for p in (1, 7, 13, 24, 25, 0)] == [
        "In 1",
        "Out 6",
        "their Out 1",
        "their In 1",
        "the bar",
        "off",
    ]
    with translation.override("de"):
        assert vocabulary.point_name(13) == "Gegner-Außen 1"


def test_a_point_read_out_carries_the_number_plays_are_written_in():
    """A play reads "11/15"; a screen reader names the point with both, "Out 3 (10)"."""
    assert [vocabulary.numbered_point_name(p) for p in (10, 13, 25, 0)] == [
        "Out 3 (10)",
        "their Out 1 (13)",
        "the bar",
        "off",
    ]
    with translation.override("de"):
        assert vocabulary.numbered_point_name(13) == "Gegner-Außen 1 (13)"


def test_bar_and_off_in_a_plays_notation_are_in_the_readers_language():
    assert vocabulary.play_text("bar/22* 6/off") == "bar/22* 6/off"
    expected = {
        "de": "Bar/22* 6/raus",
        "fr": "barre/22* 6/sortie",
        "ru": "бар/22* 6/выход",
        "ja": "バー/22* 6/上がり",
    }
    for locale, text in expected.items():
        with translation.override(locale):
            assert vocabulary.play_text("bar/22* 6/off") == text, locale


def test_the_table_page_gets_the_notation_words_of_its_language():
    with translation.override("ja"):
        texts = table_texts()
    assert (texts["notation_bar"], texts["notation_off"]) == ("バー", "上がり")
