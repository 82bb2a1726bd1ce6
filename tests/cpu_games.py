"""Playing a table against the CPU through the API, as a person at it would."""

from __future__ import annotations

from tests.client import Api


def a_cpu_table(human: Api, level: str = "normal") -> str:
    created = human.post("tables", {"opponent": "cpu", "cpu_level": level})
    assert created.status == 201, created.body
    code = created.body["code"]
    started = human.post(f"tables/{code}/start", {"version": created.body["version"]})
    assert started.status == 200, started.body
    return code


def human_to_move(code: str, human: Api) -> bool:
    state = human.state(code)
    return state["game"]["state"] == "playing" and state["game"]["turn"]["yours"]


def play_first_legal_move(code: str, human: Api) -> None:
    state = human.state(code)
    move = state["game"]["turn"]["legal_moves"][0]
    sent = human.post(f"tables/{code}/moves", {"version": state["version"], "moves": [move]})
    assert sent.status == 200, sent.body
