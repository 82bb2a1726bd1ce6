"""The pages as a browser gets them, through the test client: a visitor or a seated
player (their token in the session), a page read with its status checked, and the
Content-Security-Policy it carries."""

from __future__ import annotations

from typing import Any

from django.test import Client

from bansugoroku.front.identity import COOKIE

NEW_TABLE = {"name": "Aiko", "opponent": "friend", "finish": "iri", "muji": "bigger"}
NEW_TABLE |= {"start": "alternate"}


def seated_client(player_token: str) -> Client:
    client = Client()
    client.cookies[COOKIE] = player_token
    return client


def browser(token: str | None = None, **headers: str) -> Client:
    client = Client(headers=headers)
    if token:
        client.cookies[COOKIE] = token
    return client


def page(client: Client, path: str, status: int = 200) -> str:
    answer = client.get(path)
    assert answer.status_code == status, (path, answer.status_code)
    assert answer["Content-Type"].startswith("text/html")
    return answer.content.decode()


def policy(response: Any) -> dict[str, list[str]]:
    """The Content-Security-Policy header's directives, each with its sources."""
    header = response["Content-Security-Policy"]
    return {d.split()[0]: d.split()[1:] for d in header.split(";") if d.strip()}
