"""The play pages without a browser: the forms that create a player, a table and a
seat, the table page's access, and their answers to bad and hostile input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.test import Client

from bansugoroku.front.identity import COOKIE
from bansugoroku.front.texts import point_names, table_texts
from bansugoroku.games.models import CpuLevel, Player, Seat, Table
from engine.rules import WinKind
from tests.factories import PlayerFactory, SeatFactory, TableFactory
from tests.front.pages import NEW_TABLE, seated_client

pytestmark = pytest.mark.django_db


def a_table(host_name: str = "Aiko") -> tuple[Table, str]:
    host = PlayerFactory(name=host_name)
    return TableFactory(host=host), host.token


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_the_first_form_makes_a_player_and_remembers_it(client, level):
    answer = client.post("/new", NEW_TABLE | {"opponent": level, "finish": "bear_off"})
    assert answer.status_code == 302
    code = answer["Location"].removeprefix("/tables/")
    table = Table.objects.get(code=code)
    assert table.host.name == "Aiko" and table.finish == "bear_off"
    assert table.seats.get(number=1).cpu == level
    assert table.state == "ready", "its page starts the first game as it opens (table.js)"
    cookie = answer.cookies[COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    page = client.get(answer["Location"])
    assert page.status_code == 200
    assert table.code in page.content.decode()


@pytest.mark.parametrize(
    ("sent", "cpu"),
    [
        ({"opponent": "cpu", "level": "hard"}, "hard"),
        ({"opponent": "cpu"}, "normal"),
        ({"opponent": "friend", "level": "hard"}, ""),
        ({}, ""),
    ],
)
def test_the_two_buttons_make_a_friends_or_the_cpus_table(client, sent, cpu):
    fields = {key: value for key, value in NEW_TABLE.items() if key != "opponent"}
    answer = client.post("/new", fields | sent)
    assert answer.status_code == 302
    table = Table.objects.get(code=answer["Location"].removeprefix("/tables/"))
    assert table.seats.get(number=1).cpu == cpu
    assert table.state == ("ready" if cpu else "waiting"), "the page starts a CPU's game"


@pytest.mark.parametrize(
    "sent", [{"opponent": "robot"}, {"opponent": "cpu", "level": "expert"}, {"muji": "x"}]
)
def test_a_bad_new_table_form_is_400_with_the_rules_open_when_they_were_wrong(client, sent):
    answer = client.post("/new", NEW_TABLE | sent)
    assert answer.status_code == 400 and Table.objects.count() == 0
    assert ('class="house-rules" open' in answer.content.decode()) == ("muji" in sent)


def test_a_browser_with_a_player_keeps_it(client):
    client.post("/new", NEW_TABLE)
    assert 'name="name"' not in client.get("/").content.decode()
    client.post("/new", {key: value for key, value in NEW_TABLE.items() if key != "name"})
    assert Player.objects.count() == 1
    assert Table.objects.filter(host__name="Aiko").count() == 2


@pytest.mark.parametrize(
    "change",
    [
        {"name": "Ai\u202eko"},
        {"name": "   "},
        {"name": "x" * 41},
        {"finish": "sudden_death"},
        {"opponent": "grandmaster"},
        {"start": ""},
    ],
    ids=["bidi-override", "blank", "too-long", "finish", "opponent", "no-start"],
)
def test_a_bad_form_is_shown_again_with_why(client, change):
    answer = client.post("/new", NEW_TABLE | change)
    assert answer.status_code == 400
    assert 'class="errorlist' in answer.content.decode()
    assert Player.objects.count() == 0 and Table.objects.count() == 0


def test_the_forms_need_the_csrf_token():
    assert Client(enforce_csrf_checks=True).post("/new", NEW_TABLE).status_code == 403


def test_the_forms_only_take_post(client):
    assert client.get("/new").status_code == 405
    assert client.get("/join").status_code == 405


def test_joining_seats_the_browser_and_opens_the_table(client):
    table, _ = a_table()
    answer = client.post("/join", {"name": "Ben", "code": table.code.lower(), "entropy": "ab"})
    assert answer.status_code == 302 and answer["Location"] == f"/tables/{table.code}"
    seat = Seat.objects.get(table=table, number=1)
    assert seat.player is not None and seat.player.name == "Ben" and seat.entropy == "ab"
    assert client.get(answer["Location"]).status_code == 200


@pytest.mark.parametrize(
    "typed",
    [
        "{code}",
        "{lower}",
        " {code} ",
        "{a}-{b}",
        "{a} {b}",
        "{a}\u2013{b}",
        "{la} - {lb}",
        "http://127.0.0.1:8000/t/{code}",
        "https://bansugoroku.example/t/{lower}?utm_source=chat",
        "Join me: https://bansugoroku.example/t/{code} !",
        "http://testserver/tables/{code}",
        "http://testserver/tables/{code}/games/2#turn-3",
        "/t/{lower}",
    ],
)
def test_the_code_field_takes_the_code_as_typed_or_a_link(client, typed):
    table, _ = a_table()
    code = table.code
    a, b = code[:3], code[3:]
    typed = typed.format(code=code, lower=code.lower(), a=a, b=b, la=a.lower(), lb=b.lower())
    answer = client.post("/join", {"name": "Ben", "code": typed})
    assert answer.status_code == 302 and answer["Location"] == f"/tables/{code}", typed


def test_a_code_that_is_none_is_refused_by_what_it_became(client):
    missing = client.post("/join", {"name": "Ben", "code": "http://testserver/t/zz-zzzz"})
    assert missing.status_code == 404 and "No table has the code ZZZZZZ" in missing.content.decode()


def test_a_join_that_fails_says_why_and_keeps_the_new_player(client):
    table, _ = a_table()
    SeatFactory(table=table)
    full = client.post("/join", {"name": "Cleo", "code": table.code})
    assert full.status_code == 404 and "No table has the code" in full.content.decode()
    assert COOKIE in full.cookies
    missing = client.post("/join", {"code": "ZZZZZZ"})
    assert missing.status_code == 404 and "No table has the code ZZZZZZ" in missing.content.decode()
    hostile = client.post("/join", {"code": "<script>"})
    assert hostile.status_code == 404 and "<script>" not in hostile.content.decode()
    assert client.post("/join", {"code": "x" * 301}).status_code == 400
    assert Player.objects.filter(name="Cleo").count() == 1


def test_joining_a_full_table_looks_like_a_code_with_no_table_to_a_stranger():
    """The page a stranger gets, headers and all, is the unknown code's but for the code
    itself (and the CSRF token, masked afresh in every page); the table's player is sent
    to the table."""
    table, host = a_table()
    SeatFactory(table=table)
    stranger = seated_client(PlayerFactory(name="Cleo").token)
    unknown = "ZZZZZZ" if table.code != "ZZZZZZ" else "YYYYYY"
    full = stranger.post("/join", {"code": table.code})
    missing = stranger.post("/join", {"code": unknown})

    def normal(response) -> tuple[int, bytes, dict[str, str]]:
        content = response.content.replace(table.code.encode(), unknown.encode())
        content = re.sub(rb'name="csrfmiddlewaretoken" value="\w+"', b"csrf", content)
        return response.status_code, content, dict(response.items())

    assert normal(full) == normal(missing)
    assert full.status_code == 404 and "No table has the code" in full.content.decode()
    mine = seated_client(host).post("/join", {"code": table.code})
    assert mine.status_code == 302 and mine["Location"] == f"/tables/{table.code}"


def test_joining_counts_as_a_join_guess(client, monkeypatch):
    from bansugoroku.limits.throttles import JoinCodeThrottle

    monkeypatch.setattr(JoinCodeThrottle, "THROTTLE_RATES", {"join": "2/min"})
    answers = [client.post("/join", {"name": "Eve", "code": f"ABCDE{c}"}) for c in "FGH"]
    assert [a.status_code for a in answers] == [404, 404, 429]
    assert int(answers[-1]["Retry-After"]) >= 1


def test_the_table_page_is_for_the_players_at_the_table(client):
    table, token = a_table()
    assert client.get(f"/tables/{table.code}")["Location"] == f"/t/{table.code}"
    stranger = PlayerFactory(name="Eve").token
    assert seated_client(stranger).get(f"/tables/{table.code}")["Location"] == f"/t/{table.code}"
    assert seated_client("stale").get(f"/tables/{table.code}").status_code == 302
    assert seated_client(token).get("/tables/%00%00").status_code == 302
    page = seated_client(token).get(f"/tables/{table.code.lower()}")
    assert page.status_code == 200
    content = page.content.decode()
    state = json.loads(
        re.search(r'<script id="state" type="application/json">(.*?)</script>', content).group(1)
    )
    assert state["code"] == table.code and state["you"]["is_host"]
    assert f'data-test="invite-link" href="http://testserver/t/{table.code}"' in content
    assert '<svg width="' in content and 'class="qr"' in content
    assert "<script>" not in content, "no inline script, as the CSP wants"


def test_the_invitation_offers_the_right_thing(client):
    table, token = a_table()
    assert 'data-test="join"' in client.get(f"/t/{table.code}").content.decode()
    seated = seated_client(token).get(f"/t/{table.code}").content.decode()
    assert f'href="/tables/{table.code}"' in seated and 'data-test="join"' not in seated
    SeatFactory(table=table)
    full = client.get(f"/t/{table.code}").content.decode()
    assert "Both seats" in full and 'data-test="join"' not in full


def test_every_sentence_the_script_uses_is_handed_to_it():
    script = (Path(__file__).parents[2] / "bansugoroku/front/static/front/table.js").read_text()
    used = set(re.findall(r"texts\.(\w+)", script)) | set(re.findall(r'texts\["(\w+)"', script))
    used = used - {"cpu_", "win_", "notation_"} | {f"cpu_{level}" for level in CpuLevel}
    used |= {f"win_{kind}" for kind in WinKind if kind not in (WinKind.RESIGNED, WinKind.TIME)}
    used |= {"notation_bar", "notation_off"}
    assert used - set(table_texts()) == set()
    assert set(table_texts()) - used == set(), "no sentence the script never shows"
    assert point_names()[0] == "In 1 (1)" and point_names()[23] == "their In 1 (24)"


def test_the_table_page_and_the_replay_draw_one_board(played):
    """One layout (front/board.py): the table page draws the same points as the game's
    replay and the rules, and its script is handed where every place's stones go, home
    (In 1, point 1) at the bottom right."""
    client = seated_client(played.host.token)
    table_page = client.get(f"/tables/{played.code}").content.decode()
    replay = client.get(f"/tables/{played.code}/games/1").content.decode()
    rules = client.get("/rules").content.decode()
    drawn = re.compile(r'<polygon class="point (?:dark|light)" points="([^"]+)"')
    points = drawn.findall(table_page)
    assert len(points) == 24
    assert points == drawn.findall(replay) == drawn.findall(rules)[:24]
    number = re.compile(r'<tspan class="number">(\d+)</tspan>')
    assert sorted(int(n) for n in number.findall(table_page)) == list(range(1, 25))
    assert '<tspan class="number">10</tspan> Out 3<' in table_page, "a number by its name"
    assert '>their Out 1 <tspan class="number">13</tspan>' in table_page
    config = json.loads(
        re.search(r'<script id="config" type="application/json">(.*?)</script>', table_page)[1]
    )
    areas = {place: tuple(at["area"]) for place, at in config["places"].items()}
    lowest = max(areas[str(point)][1] for point in range(1, 25))
    assert areas["1"][1] == lowest and areas["1"][0] > areas["24"][0] == 0
