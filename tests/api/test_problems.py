"""The error codes: what GET /api/v1/problems lists, what docs/api.md lists and what the
code can answer with are the same, status for status, reason for reason."""

from __future__ import annotations

import re
from pathlib import Path

from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404
from redis import RedisError
from rest_framework import exceptions

from bansugoroku.api.parsers import PayloadTooLarge
from bansugoroku.api.problems import PROBLEM_TYPES, REASONS, problem_exception_handler
from bansugoroku.games.errors import ServiceError, refused
from engine.game import GameError, Refusal
from engine.turn import Reason
from tests.client import check

API_PAGE = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def subclasses(kind: type) -> set[type]:
    return {sub for child in kind.__subclasses__() for sub in {child, *subclasses(child)}}


def raisable() -> dict[str, int]:
    """Every code the exception handler answers with, and its status: for every kind of
    ServiceError, every DRF exception (and ours), and what Django and the database raise."""
    kinds: list[Exception] = [kind("detail") for kind in subclasses(ServiceError)]
    for kind in subclasses(exceptions.APIException):
        if kind.__module__ in ("rest_framework.exceptions", PayloadTooLarge.__module__):
            try:
                kinds.append(kind())
            except TypeError:  # MethodNotAllowed and UnsupportedMediaType name what was sent
                kinds.append(kind("x"))
    kinds += [
        Http404(),
        RequestDataTooBig(),
        OperationalError(),
        InterfaceError(),
        RedisError(),
        PayloadTooLarge(),
    ]
    codes: dict[str, int] = {}
    for exc in kinds:
        answer = problem_exception_handler(exc, {})
        assert answer is not None, exc
        code = answer.data["code"]
        assert codes.setdefault(code, answer.status_code) == answer.status_code, code
    assert "error" not in codes, "some exception has no code of its own"
    return codes


def readme_table(first_column: str) -> dict[str, str]:
    """The API page's table whose first column is `first_column`: code to second column."""
    text = API_PAGE.read_text(encoding="utf-8")
    header = text.index(f"| {first_column} |")
    rows = re.findall(r"^\| `(\w+)` \| ([^|]+?) \|", text[header:].split("\n\n", 1)[0], re.M)
    return dict(rows)


def test_the_list_the_readme_and_the_code_agree_on_every_problem_and_reason(openapi, api):
    listed = api.get("problems")
    check(openapi, "/api/v1/problems", "get", 200, listed)
    problems = {p["code"]: p["status"] for p in listed.body["problems"]}
    reasons = {r["code"]: r["meaning"] for r in listed.body["reasons"]}

    assert problems == raisable()
    readme = {code: int(status) for code, status in readme_table("Code").items()}
    assert readme == problems
    assert set(reasons) == set(readme_table("Reason")) == {reason.value for reason in Reason}
    assert all(meaning.strip() for meaning in reasons.values())
    for code in problems:  # each has its own page too
        assert api.get(f"problems/{code}").body["status"] == problems[code]


def test_every_refusal_of_the_engine_is_a_problem_with_its_code_and_a_message():
    for refusal in Refusal:
        error = refused(GameError(refusal, f"the engine's words for {refusal}"))
        assert error.code == refusal.value and error.code in PROBLEM_TYPES
        status, title = PROBLEM_TYPES[error.code]
        assert status == 409 and title.strip()
        assert error.detail == f"the engine's words for {refusal}"
    for reason in Reason:  # a refused move is one problem, illegal_move, with its reason
        assert REASONS[reason].strip()


def test_the_list_needs_no_token_and_ignores_a_stale_one(api):
    assert api.call("GET", "problems", Authorization="Bearer bs_gone").status == 200
