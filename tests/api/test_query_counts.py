"""How many queries a request costs, counted the way production runs them.

`transaction=True` runs each request in autocommit as in production, so the counts
carry no test savepoints; a change's BEGIN and COMMIT are round trips and count.
The bearer token is looked up in the query that loads the table for the table's read
and changes (`bansugoroku.api.auth.BearerToken`): they take no query of their own for
authentication.
"""

from __future__ import annotations

import pytest
from django.db import connection

from bansugoroku.games.models import Game, Turn
from tests.client import Api, open_table

pytestmark = pytest.mark.django_db(transaction=True)


def to_move(host: Api, guest: Api, code: str) -> tuple[Api, dict]:
    state = host.state(code)
    if state["game"]["turn"]["yours"]:
        return host, state
    return guest, guest.state(code)


def test_a_move_within_a_turn_takes_two_queries(host, guest, django_assert_num_queries):
    # seats with players (and which holds the token), table (FOR UPDATE) and game, then
    # one statement updating the game, the seat and the table; in a transaction (here
    # the test's savepoint and its release), as every change
    code = open_table(host, guest)
    player, state = to_move(host, guest, code)
    body = {"version": state["version"], "moves": [state["game"]["turn"]["legal_moves"][0]]}

    with django_assert_num_queries(4) as captured:
        answer = player.post(f"tables/{code}/moves", body)

    assert answer.status == 200 and answer.body["game"]["turn"]["yours"]
    _, read, write, _ = (query["sql"] for query in captured)
    assert read.rstrip().endswith("FOR UPDATE OF t"), read
    assert "UPDATE games_game" in write and "UPDATE games_table" in write, write


@pytest.mark.parametrize("clock_days", [None, 3], ids=["no clock", "clock"])
def test_a_move_ending_the_turn_takes_two_queries_whatever_the_passes(
    host, guest, django_assert_num_queries, clock_days
):
    # seats with table (FOR UPDATE) and game, then one statement inserting the turn (and
    # any passes after it) and its event and updating the game and the table; on a
    # clock, the same statement writes both seats' banks and the next deadline
    code = open_table(host, guest, clock_days=clock_days)
    player, state = to_move(host, guest, code)
    first = state["game"]["turn"]["legal_moves"][0]
    after = player.post(f"tables/{code}/moves", {"version": state["version"], "moves": [first]})
    second = after.body["game"]["turn"]["legal_moves"][0]
    game = Game.objects.get(table__code=code)

    with django_assert_num_queries(4) as captured:
        answer = player.post(
            f"tables/{code}/moves", {"version": after.body["version"], "moves": [second]}
        )

    assert answer.status == 200
    write = captured[2]["sql"]
    assert "UPDATE games_table" in write and "UPDATE games_game" in write, write
    assert "INSERT INTO games_turn" in write and "INSERT INTO games_event" in write
    assert ("clock_left" in write) is (clock_days is not None), write
    turns = Turn.objects.filter(game=game).order_by("number")
    assert [t.number for t in turns] == list(range(1, len(turns) + 1))
    assert turns[0].moves == [first, second]


def test_a_change_that_is_not_a_move_locks_the_table(host, guest, django_assert_num_queries):
    # BEGIN, seats with table and game (table FOR UPDATE), the write, COMMIT
    code = open_table(host, guest)
    state = host.state(code)

    with django_assert_num_queries(4) as captured:
        answer = host.post(f"tables/{code}/leave", {"version": state["version"]})

    assert answer.status == 200, answer.body
    assert captured[1]["sql"].rstrip().endswith("FOR UPDATE OF t"), captured[1]["sql"]


def test_a_move_ending_the_turn_writes_only_the_columns_it_changed(host, guest):
    # Not the table's seed, state or score, nor the game's opening or result: the turn's
    # statement stays within the 50 values of which psycopg keeps the parsing.
    code = open_table(host, guest)
    player, state = to_move(host, guest, code)
    first = state["game"]["turn"]["legal_moves"][0]
    after = player.post(f"tables/{code}/moves", {"version": state["version"], "moves": [first]})
    second = after.body["game"]["turn"]["legal_moves"][0]
    statements = []

    def keep(execute, sql, params, many, context):
        statements.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(keep):
        answer = player.post(
            f"tables/{code}/moves", {"version": after.body["version"], "moves": [second]}
        )

    assert answer.status == 200
    sql, params = next((s, p) for s, p in statements if "INSERT INTO games_turn" in s)
    assert len(params) <= 50, sql
    for column in ("next_seed", "closed_reason", "score_black", "starter", "winner"):
        assert f'"{column}"' not in sql
    for column in ("version", "turn_number", "active_at"):
        assert f'"{column}"' in sql


def test_the_table_state_takes_one_query(host, guest, django_assert_num_queries):
    # the seats with their players (and which holds the token), the table and its game
    code = open_table(host, guest)

    with django_assert_num_queries(1):
        answer = guest.get(f"tables/{code}")

    assert answer.status == 200


def test_the_events_since_take_three_queries(host, guest, django_assert_num_queries):
    code = open_table(host, guest)
    with django_assert_num_queries(3):  # player, the table with its seats, the events
        answer = host.get(f"tables/{code}/events?after=1")
    assert answer.status == 200 and len(answer.body["events"]) == 2


def test_an_unchanged_table_answers_304_in_two_queries(host, guest, django_assert_num_queries):
    code = open_table(host, guest)
    etag = guest.get(f"tables/{code}").headers["ETag"]

    with django_assert_num_queries(2):
        answer = guest.get(f"tables/{code}", **{"If-None-Match": etag})

    assert answer.status == 304


def test_my_tables_take_the_same_queries_for_2_or_12_tables(host, guest, django_assert_num_queries):
    # player; the caller's seats with their tables, games, other seats and their players
    open_table(host, guest)
    assert host.post("tables", {}).status == 201  # a table still waiting for a guest

    with django_assert_num_queries(2):
        two = host.get("tables")

    for index in range(10):
        if index % 2:
            open_table(host, guest)
        else:
            assert host.post("tables", {"opponent": "cpu", "cpu_level": "easy"}).status == 201

    with django_assert_num_queries(2):
        twelve = host.get("tables")

    assert two.status == twelve.status == 200
    assert (len(two.body), len(twelve.body)) == (2, 12)


def test_the_statements_of_every_request_are_prepared(host, guest):
    """With DATABASE_PREPARED_STATEMENTS on (the default), PostgreSQL parses and plans
    the statements of a request once per connection, not on every request."""
    code = open_table(host, guest)
    for _ in range(3):
        host.state(code)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any("token_hash" in sql for sql in prepared), prepared
    assert any("FROM games_seat" in sql for sql in prepared), prepared
