"""The count of tables waiting for the player's move on every page, and the next table
to go to after a turn: one query, only for a browser with a player."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from bansugoroku.front.identity import COOKIE
from bansugoroku.games.models import Player
from bansugoroku.games.player_tokens import token_hash
from bansugoroku.games.services import player_token_add
from tests.client import Api, mover, open_table

pytestmark = pytest.mark.django_db


def browser(api: Api) -> Client:
    client = Client()
    client.cookies[COOKIE] = api.token or ""
    return client


def shown_count(page: str) -> int:
    found = re.search(r'data-test="waiting-count"[^>]*>(\d+)<', page)
    return int(found.group(1)) if found else 0


def test_every_page_counts_the_tables_waiting_for_the_players_move(host: Api, guest: Api):
    codes = [open_table(host, guest) for _ in range(3)]
    movers = [mover(code, host, guest)[0].token for code in codes]
    for player in (host, guest):
        mine = movers.count(player.token)
        for page in ("/", "/me/tables", "/settings", "/rules", f"/tables/{codes[0]}"):
            assert shown_count(browser(player).get(page).content.decode()) == mine, page
    assert "waiting-count" not in Client().get("/").content.decode()


def test_a_browser_signed_in_by_mail_counts_and_finds_its_tables(host: Api, guest: Api):
    codes = [open_table(host, guest) for _ in range(2)]
    player = mover(codes[0], host, guest)[0]
    waiting = [code for code in codes if mover(code, host, guest)[0].token == player.token]
    signed_in = Client()
    own = Player.objects.get(token_hash=token_hash(player.token or ""))
    signed_in.cookies[COOKIE] = player_token_add(player=own)
    assert shown_count(signed_in.get("/").content.decode()) == len(waiting)
    answer = signed_in.get("/me/next-table", {"not": "none"}).json()
    assert (answer["count"], answer["next"]) == (len(waiting), f"/tables/{waiting[0]}")


def test_the_count_costs_one_query_and_none_without_a_player(host: Api, guest: Api):
    open_table(host, guest)
    with CaptureQueriesContext(connection) as nobody:
        Client().get("/")
    assert len(nobody) == 0
    with CaptureQueriesContext(connection) as player:
        browser(host).get("/")
    # The home page's own player lookup, and the count.
    assert len(player) == 2
    assert "count(*) OVER ()" in player.captured_queries[1]["sql"]


def test_the_next_table_is_the_longest_waiting_other_than_this_one(host: Api, guest: Api):
    codes = [open_table(host, guest) for _ in range(4)]
    player = mover(codes[0], host, guest)[0]
    waiting = [code for code in codes if mover(code, host, guest)[0].token == player.token]
    answer = browser(player).get("/me/next-table", {"not": waiting[0]}).json()
    assert answer["count"] == len(waiting)
    assert (
        answer["label"]
        == f"{len(waiting)} table{'s wait' if len(waiting) > 1 else ' waits'} for your move"
    )
    assert answer["next"] == (f"/tables/{waiting[1]}" if len(waiting) > 1 else None)
    first = browser(player).get("/me/next-table", {"not": "not a code"}).json()
    assert first["next"] == f"/tables/{waiting[0]}"
    nobody = {"count": 0, "label": "0 tables wait for your move", "next": None}
    assert Client().get("/me/next-table").json() == nobody
    assert Client().post("/me/next-table").status_code == 405


def test_the_table_page_counts_and_finds_the_next_table_in_one_query(host: Api, guest: Api):
    codes = [open_table(host, guest) for _ in range(3)]
    player = mover(codes[0], host, guest)[0]
    waiting = [code for code in codes if mover(code, host, guest)[0].token == player.token]
    other = player.post("tables", {"rules": {}}).body["code"]  # waiting for a guest
    with CaptureQueriesContext(connection) as queries:
        html = browser(player).get(f"/tables/{other}").content.decode()
    assert sum("count(*) OVER ()" in q["sql"] for q in queries.captured_queries) == 1
    assert shown_count(html) == len(waiting)
    assert f'data-test="next-table" href="/tables/{waiting[0]}"' in html
    mine = browser(player).get(f"/tables/{waiting[0]}").content.decode()
    assert 'id="next-table" data-ask="/me/next-table?not=' in mine
    assert re.search(r'id="next-table"[^>]*hidden', mine), "my turn here: no link yet"
