"""Accept headers as clients send them: generated clients add application/problem+json
to the type they want, so that errors can be read, and some send it alone."""

from __future__ import annotations

import pytest

from tests.client import check

PROBLEM = "application/problem+json"


@pytest.mark.parametrize(
    "accept", ["text/plain", f"text/plain, {PROBLEM}", f"{PROBLEM};q=0.5, text/*", PROBLEM, "*/*"]
)
def test_the_mat_export_answers_the_accept_headers_clients_send(played, finished, accept):
    answer = played.host.get(f"tables/{finished}/games/1/export.mat", Accept=accept)
    assert answer.status == 200, answer.body
    assert answer.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert answer.body.decode().startswith(";")


def test_a_mat_export_that_fails_answers_a_problem_in_json(openapi, played, finished):
    for accept in ({"Accept": "text/plain"}, {"Accept": f"text/plain, {PROBLEM}"}, {}):
        missing = played.host.get(f"tables/{finished}/games/9/export.mat", **accept)
        assert missing.headers["Content-Type"] == PROBLEM
        check(openapi, "/api/v1/tables/{code}/games/{number}/export.mat", "get", 404, missing)
        assert missing.body["code"] == "game_not_found"


def test_a_type_the_answer_never_comes_in_is_still_not_acceptable(played, finished):
    base = f"tables/{finished}/games/1"
    for path, accept in ((f"{base}/export.mat", "application/json"), (base, "text/plain")):
        refused = played.host.get(path, Accept=accept)
        assert refused.status == 406, path
        assert refused.headers["Content-Type"] == PROBLEM
        assert refused.body["code"] == "not_acceptable"


def test_problem_json_alone_gets_the_json_answer_or_the_problem(openapi, host, table):
    state = host.get(f"tables/{table}", Accept=PROBLEM)
    check(openapi, "/api/v1/tables/{code}", "get", 200, state)
    assert state.headers["Content-Type"] == "application/json"
    moved = host.post(f"tables/{table}/moves", {"version": 0, "moves": []}, Accept=PROBLEM)
    assert moved.headers["Content-Type"] == PROBLEM
    assert moved.status in (400, 409) and moved.body["code"] in ("invalid_request", "stale_state")
    missing = host.get("tables/NOSUCH", Accept=PROBLEM)
    check(openapi, "/api/v1/tables/{code}", "get", 404, missing)
    assert missing.body["code"] == "table_not_found"
