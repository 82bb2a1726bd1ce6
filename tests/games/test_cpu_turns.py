"""The CPU's turn: played through the same locked path as a person's, once per turn, by a
real worker reading the `turn_started` events."""

from __future__ import annotations

import time

import pytest

from bansugoroku.celery import app
from bansugoroku.games import services
from bansugoroku.games.models import Event, Game, Table, Turn
from bansugoroku.games.replay import replay_game
from tests.client import Api
from tests.games.test_tasks import worker_running


def human_to_move(code: str, human: Api) -> bool:
    state = human.state(code)
    return state["game"]["state"] == "playing" and state["game"]["turn"]["yours"]


def a_cpu_table(human: Api, level: str = "normal") -> str:
    created = human.post("tables", {"opponent": "cpu", "cpu_level": level})
    assert created.status == 201, created.body
    code = created.body["code"]
    started = human.post(f"tables/{code}/start", {"version": created.body["version"]})
    assert started.status == 200, started.body
    return code


def play_first_legal_move(code: str, human: Api) -> None:
    state = human.state(code)
    move = state["game"]["turn"]["legal_moves"][0]
    sent = human.post(f"tables/{code}/moves", {"version": state["version"], "moves": [move]})
    assert sent.status == 200, sent.body


def cpu_to_move(code: str) -> Game:
    game = Table.objects.select_related("current_game").get(code=code).current_game
    assert game is not None
    return game


def test_the_cpu_plays_its_turn_once_however_often_it_is_asked(db, api):
    human = api.new_player("Aiko")
    code = a_cpu_table(human, "easy")
    while human_to_move(code, human):
        play_first_legal_move(code, human)
    game = cpu_to_move(code)
    assert game.turn_seat == 1 and not game.is_over
    played = services.cpu_move(code=code, game_number=1, turn_number=game.turn_number)
    assert played is not None and played.events
    again = services.cpu_move(code=code, game_number=1, turn_number=game.turn_number)
    assert again is None, "a second run of the task changes nothing"
    assert Turn.objects.filter(game=game, number=game.turn_number, seat=1).count() == 1
    assert replay_game(Game.objects.get(pk=game.pk)) == []


def test_the_cpu_never_plays_a_persons_turn(db, api):
    human = api.new_player("Aiko")
    code = a_cpu_table(human)
    while not human_to_move(code, human):
        game = cpu_to_move(code)
        services.cpu_move(code=code, game_number=game.number, turn_number=game.turn_number)
    game = cpu_to_move(code)
    assert services.cpu_move(code=code, game_number=1, turn_number=game.turn_number) is None
    assert cpu_to_move(code).turn_number == game.turn_number


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    not app.conf.broker_url.startswith(("redis://", "amqp://")),
    reason="a real worker over Redis or RabbitMQ: set CELERY_BROKER_URL, as CI does",
)
def test_a_whole_game_against_the_cpu_through_the_api_and_a_worker():
    human = Api().new_player("Aiko")
    app.control.purge()
    with worker_running():
        code = a_cpu_table(human)
        deadline = time.monotonic() + 120
        while human.state(code)["game"]["state"] == "playing":
            assert time.monotonic() < deadline, "the game did not end in 120 s"
            if human_to_move(code, human):
                play_first_legal_move(code, human)
            else:
                time.sleep(0.05)  # the worker plays the CPU's turn
    game = cpu_to_move(code)
    assert game.is_over and replay_game(game) == []
    seats = set(Turn.objects.filter(game=game).exclude(moves=[]).values_list("seat", flat=True))
    assert seats == {0, 1}, "both the person and the CPU played"
    assert not Event.objects.filter(table__code=code, delivered_at=None).exists()
