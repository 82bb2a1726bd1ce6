"""What a seat may do now: the state's `can_start`, `can_play_again` and `can_resign`
agree with what the server does when the seat tries, at every point of a table."""

from __future__ import annotations

from django.db import transaction

from tests.client import Api

ACTIONS = {"can_start": "start", "can_play_again": "play-again", "can_resign": "resign"}


def said_and_done(player: Api, code: str) -> dict[str, tuple[bool, bool]]:
    """For each action, what the state says and whether trying it succeeds (each try is
    rolled back, so the table stays as it is)."""
    state = player.state(code)
    found = {}
    for key, action in ACTIONS.items():
        with transaction.atomic():
            answer = player.post(f"tables/{code}/{action}", {"version": state["version"]})
            transaction.set_rollback(True)
        assert answer.status in (200, 403, 409), answer.body
        found[key] = (state[key], answer.status == 200)
    return found


def check(player: Api, code: str, **expected: bool) -> None:
    found = said_and_done(player, code)
    assert all(said == done for said, done in found.values()), found
    assert {key: said for key, (said, _) in found.items()} == expected


def act(player: Api, code: str, action: str) -> None:
    answer = player.post(f"tables/{code}/{action}", {"version": player.state(code)["version"]})
    assert answer.status == 200, answer.body


def test_the_state_says_what_the_seat_may_do_at_every_point_of_a_table(host, guest):
    nothing = {key: False for key in ACTIONS}
    code = host.post("tables", {"rules": {}}).body["code"]
    check(host, code, **nothing)  # waiting for a guest
    assert guest.post(f"tables/{code}/join").status == 200
    check(host, code, **nothing | {"can_start": True})
    check(guest, code, **nothing)  # only the host starts
    act(host, code, "start")
    for player in (host, guest):
        check(player, code, **nothing | {"can_resign": True})
    assert (
        guest.post(f"tables/{code}/resign", {"version": guest.state(code)["version"]}).status == 200
    )
    for player in (host, guest):
        check(player, code, **nothing | {"can_play_again": True})
    assert (
        guest.post(f"tables/{code}/leave", {"version": guest.state(code)["version"]}).status == 200
    )
    check(host, code, **nothing)  # closed
