"""An API client that talks like a mobile app: JSON bodies, bearer tokens, real database;
and helpers that open a table and find whose turn it is."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import jsonschema
from django.test import Client

from bansugoroku.games.models import Player
from bansugoroku.games.player_tokens import token_hash


@dataclass
class Answer:
    status: int
    body: Any
    headers: Any


class Api:
    """Calls /api/v1 the way a client does; `as_(token)` speaks for one player."""

    def __init__(self, token: str | None = None) -> None:
        self.client = Client()
        self.token = token

    def as_(self, token: str | None) -> Api:
        return Api(token)

    def call(
        self, method: str, path: str, body: Any = None, raw: str | None = None, **headers: str
    ) -> Answer:
        if self.token:
            headers.setdefault("Authorization", f"Bearer {self.token}")
        data = raw if raw is not None else (json.dumps(body) if body is not None else None)
        response = self.client.generic(
            method,
            f"/api/v1/{path}",
            data=data or "",
            content_type="application/json",
            headers=headers,
        )
        content = response.content
        parsed = (
            json.loads(content)
            if content and response.get("Content-Type", "").endswith("json")
            else content
        )
        return Answer(response.status_code, parsed, response)

    def get(self, path: str, **headers: str) -> Answer:
        return self.call("GET", path, **headers)

    def patch(self, path: str, body: Any = None, **kwargs: Any) -> Answer:
        return self.call("PATCH", path, body, **kwargs)

    def put(self, path: str, body: Any = None, **kwargs: Any) -> Answer:
        return self.call("PUT", path, body, **kwargs)

    def post(self, path: str, body: Any = None, **kwargs: Any) -> Answer:
        return self.call("POST", path, body if body is not None else {}, **kwargs)

    def player(self) -> Player:
        """The player whose token this client sends."""
        assert self.token is not None
        return Player.objects.get(token_hash=token_hash(self.token))

    def new_player(self, name: str = "Aiko") -> Api:
        answer = Api().post("players", {"name": name})
        assert answer.status == 201, answer.body
        return Api(answer.body["token"])

    def state(self, code: str) -> dict[str, Any]:
        answer = self.get(f"tables/{code}")
        assert answer.status == 200, answer.body
        return answer.body


def open_table(
    host: Api, guest: Api, rules: dict[str, str] | None = None, clock_days: int | None = None
) -> str:
    """A table with both seats taken and the first game started (on a clock of
    `clock_days` a move, if given); returns its code."""
    created = host.post("tables", {"rules": rules or {}, "clock_days": clock_days})
    assert created.status == 201, created.body
    code = created.body["code"]
    assert guest.post(f"tables/{code}/join").status == 200
    started = host.post(f"tables/{code}/start", {"version": host.state(code)["version"]})
    assert started.status == 200, started.body
    return code


def mover(code: str, *players: Api) -> tuple[Api, dict[str, Any]]:
    """The player whose turn it is, and the table as they see it."""
    for player in players:
        state = player.state(code)
        if state["game"]["turn"] and state["game"]["turn"]["yours"]:
            return player, state
    raise AssertionError("nobody's turn")


def as_json_schema(node: Any) -> Any:
    """OpenAPI 3.0 to JSON Schema: `nullable`, and objects closed to undeclared fields."""
    if isinstance(node, list):
        return [as_json_schema(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: as_json_schema(v) for k, v in node.items() if k != "nullable"}
    if out.get("type") == "object" and "properties" in out:
        out.setdefault("additionalProperties", False)
    if node.get("nullable"):
        return {"anyOf": [out, {"type": "null"}]}
    return out


def check(openapi: dict[str, Any], path: str, method: str, status: int, answer: Answer) -> None:
    """The answer has this status, and its body fits what the schema documents for that
    status and the answer's media type."""
    assert answer.status == status, answer.body
    operation = openapi["paths"][path][method]
    media_type = answer.headers["Content-Type"].split(";")[0]
    schema = operation["responses"][str(answer.status)]["content"][media_type]["schema"]
    root = {"components": as_json_schema(openapi["components"]), **as_json_schema(schema)}
    jsonschema.validate(answer.body, root)
