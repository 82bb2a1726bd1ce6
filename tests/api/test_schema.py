"""The OpenAPI schema: valid, covering every endpoint, and true to what the API answers."""

from __future__ import annotations

import re

from django.core.management import call_command
from django.urls import URLPattern, URLResolver, get_resolver

from tests.client import check, mover


def test_the_schema_validates_without_warnings(capsys):
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", "/dev/null")


def api_paths() -> set[str]:
    """Every URL pattern under /api/v1/, written the OpenAPI way."""
    found = set()

    def walk(patterns: list, prefix: str) -> None:
        for pattern in patterns:
            route = str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, prefix + route)
            elif isinstance(pattern, URLPattern) and route and prefix.startswith("api/v1/"):
                found.add("/" + prefix + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route))

    walk(get_resolver().url_patterns, "")
    return found


def test_every_endpoint_is_in_the_schema_with_an_operation_id_summary_and_tag(openapi):
    paths = api_paths()
    assert len(paths) >= 10
    assert paths <= set(openapi["paths"]), paths - set(openapi["paths"])
    for path, operations in openapi["paths"].items():
        for method, operation in operations.items():
            assert operation.get("operationId"), f"{method} {path}"
            assert operation.get("summary"), f"{method} {path}"
            assert operation["tags"] in (
                ["players"],
                ["tables"],
                ["lobby"],
                ["problems"],
                ["push"],
            ), path
            succeeded = {"200", "201", "202", "204", "303"} & set(operation["responses"])
            assert succeeded, f"{method} {path}"


def test_every_request_body_is_documented_as_refusing_unknown_fields(openapi):
    bodies = [
        operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        for operations in openapi["paths"].values()
        for operation in operations.values()
        if "requestBody" in operation
    ]
    assert len(bodies) >= 8
    components = openapi["components"]["schemas"]
    for ref in bodies:
        assert components[ref.rsplit("/", 1)[1]]["additionalProperties"] is False, ref
    assert components["RulesRequest"]["additionalProperties"] is False


def test_real_answers_match_the_schema(openapi, api, host, guest):
    created = api.post("players", {"name": "Dai"})
    check(openapi, "/api/v1/players", "post", 201, created)
    check(openapi, "/api/v1/players/me", "get", 200, host.get("players/me"))
    waiting = host.post("tables", {})
    check(openapi, "/api/v1/tables", "post", 201, waiting)
    code = waiting.body["code"]
    joined = guest.post(f"tables/{code}/join")
    check(openapi, "/api/v1/tables/{code}/join", "post", 200, joined)
    started = host.post(f"tables/{code}/start", {"version": joined.body["version"]})
    check(openapi, "/api/v1/tables/{code}/start", "post", 200, started)
    for player in (host, guest):
        check(openapi, "/api/v1/tables/{code}", "get", 200, player.get(f"tables/{code}"))
    player, state = mover(code, host, guest)
    moved = player.post(
        f"tables/{code}/moves",
        {"version": state["version"], "moves": [state["game"]["turn"]["legal_moves"][0]]},
    )
    check(openapi, "/api/v1/tables/{code}/moves", "post", 200, moved)
    resigned = host.post(f"tables/{code}/resign", {"version": moved.body["version"]})
    check(openapi, "/api/v1/tables/{code}/resign", "post", 200, resigned)
    check(openapi, "/api/v1/tables", "get", 200, host.get("tables"))


def test_problem_answers_match_the_schema(openapi, host, table):
    illegal = host.post(f"tables/{table}/moves", {"version": 1, "moves": [[3, 9]]})
    check(openapi, "/api/v1/tables/{code}/moves", "post", 409, illegal)
    bad = host.post(f"tables/{table}/moves", {"version": "x", "moves": []})
    check(openapi, "/api/v1/tables/{code}/moves", "post", 400, bad)
    described = host.get("problems/stale_state")
    check(openapi, "/api/v1/problems/{code}", "get", 200, described)
    assert described.body == {
        "code": "stale_state",
        "status": 409,
        "title": "The table has changed since you last saw it",
    }


def test_the_interactive_docs_page_loads(api):
    page = api.client.get("/api/docs/")
    assert page.status_code == 200 and b"swagger" in page.content.lower()
    assert b"/static/drf_spectacular_sidecar/swagger-ui-dist/" in page.content
    assert b"cdn." not in page.content, "the docs page must work with no CDN in reach"


def test_every_operation_documents_the_errors_any_request_can_meet(openapi):
    """Beside its own refusals, every operation can answer: 401 when it needs a token,
    405, 406, 413 and 415 when it takes a body, 429 (all are rate limited) and 503, with
    `outcome_unknown` on the table changes; each as a problem, 429 and 503 with
    Retry-After."""
    seen = 0
    for path, operations in openapi["paths"].items():
        for method, operation in operations.items():
            where = f"{method.upper()} {path}"
            authenticated = bool(operation.get("security")) and {} not in operation["security"]
            expected = {405, 406, 429, 503} | ({401} if authenticated else set())
            if "requestBody" in operation:
                expected |= {413, 415}
            responses = operation["responses"]
            for status in expected:
                answer = responses.get(str(status))
                assert answer, f"{where} does not document {status}"
                assert list(answer["content"]) == ["application/problem+json"], where
                ref = answer["content"]["application/problem+json"]["schema"]["$ref"]
                assert ref.endswith("/Problem"), where
                if status in (429, 503):
                    assert "Retry-After" in answer.get("headers", {}), f"{where} {status}"
            if not authenticated:
                assert "401" not in responses, f"{where} needs no token"
            change = method == "post" and path.startswith("/api/v1/tables")
            assert ("outcome_unknown" in responses["503"]["description"]) == change, where
            seen += 1
    assert seen >= 20
    players = openapi["paths"]["/api/v1/players"]["post"]["responses"]
    assert "401" not in players and "413" in players


def test_the_endpoints_that_need_no_token_ignore_a_stale_one(api):
    """A client whose token was lost server-side can still make a new player."""
    created = api.call("POST", "players", {"name": "Eri"}, Authorization="Bearer bs_gone")
    assert created.status == 201, created.body
    described = api.call("GET", "problems/stale_state", Authorization="Bearer bs_gone")
    assert described.status == 200, described.body
