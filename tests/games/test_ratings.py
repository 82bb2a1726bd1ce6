"""Ratings: Glicko-2 against Glickman's published example, and a rated game's end
moving both players' ratings in its own transaction, while unrated games, games with no
winner and games against the CPU move none."""

from __future__ import annotations

import glicko2
import pytest

from bansugoroku.games import services
from bansugoroku.games.models import Player
from bansugoroku.games.ratings import Rating
from tests.factories import GameFactory, PlayerFactory

pytestmark = pytest.mark.django_db

# Glickman, "Example of the Glicko-2 system" (2012): a player rated 1500 (RD 200) beats
# one rated 1400 (RD 30) and loses to 1550 (RD 100) and 1700 (RD 300).
EXAMPLE = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]


def test_glickmans_example():
    after = Rating(1500, 200).after(EXAMPLE)
    # The paper rounds each step to a few digits: 1464.06, 151.52 and 0.05999.
    assert after.rating == pytest.approx(1464.06, abs=0.015)
    assert after.deviation == pytest.approx(151.52, abs=0.005)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)
    # Its formulas computed without rounding: step 5's iteration on the deviation φ.
    assert after.volatility == pytest.approx(0.0599959843, abs=1e-10)


def test_the_volatility_step_reads_the_deviation_where_the_package_reads_the_rating():
    package = glicko2.Player(1500, 200)
    package.update_player([1400, 1550, 1700], [30, 100, 300], [1, 0, 0])
    assert package.vol == pytest.approx(0.0599934, abs=1e-7), "the package as it is"
    # Away from 1500 (the rating μ is no longer 0) the two part.
    strong = Rating(2100, 200).after(EXAMPLE)
    strong_package = glicko2.Player(2100, 200)
    strong_package.update_player([1400, 1550, 1700], [30, 100, 300], [1, 0, 0])
    assert abs(strong.volatility - strong_package.vol) > 1e-5
    assert strong.rating < 2100 and strong.deviation < 200


def test_a_new_rating_is_glickos_default():
    player = PlayerFactory()
    assert Rating.of(player) == Rating(1500, 350, 0.06) and player.rated_games == 0


def rated_players(game) -> tuple[Player, Player]:
    winner = game.table.seats.get(number=game.winner).player
    loser = game.table.seats.get(number=1 - game.winner).player
    return winner, loser


def test_a_rated_game_moves_both_ratings_apart():
    game = GameFactory(rated=True, finished=True)
    winner, loser = rated_players(game)

    assert winner.rating > 1500 > loser.rating
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert winner.rating_deviation < 350 and loser.rating_deviation < 350
    assert (winner.rated_games, loser.rated_games) == (1, 1)
    expected = Rating().after([(Rating(), 1.0)])
    assert winner.rating == pytest.approx(expected.rating)


def test_an_unrated_game_moves_no_rating():
    game = GameFactory(finished=True)
    assert game.table.rated is False
    for player in rated_players(game):
        assert (player.rating, player.rated_games) == (1500, 0)


def test_a_resigned_rated_game_is_rated_and_a_left_one_is_not():
    resigned = GameFactory(rated=True)
    table = resigned.table
    services.game_resign(player=table.host, code=table.code, version=table.version)
    host = Player.objects.get(pk=table.host_id)
    assert host.rating < 1500 and host.rated_games == 1

    left = GameFactory(rated=True)
    services.table_leave(player=left.table.host, code=left.table.code, version=left.table.version)
    assert Player.objects.get(pk=left.table.host_id).rated_games == 0


def test_the_table_shows_whether_it_is_rated_and_each_players_rating(host, guest):
    created = host.post("tables", {"rated": True})
    assert created.status == 201 and created.body["rated"] is True
    mine = created.body["seats"][0]["rating"]
    assert mine == {"rating": 1500, "deviation": 350, "games": 0}
    assert created.body["seats"][1]["rating"] is None, "a free seat"
    assert host.post("tables", {}).body["rated"] is False, "between friends: by choice"
    assert host.post("tables", {"open": True}).body["rated"] is True, "open: rated"
    unrated = host.post("tables", {"open": True, "rated": False})
    assert unrated.body["rated"] is False


@pytest.mark.parametrize("rated", [True, "yes please", 2])
def test_a_table_with_the_cpu_is_never_rated(host, rated):
    answer = host.post("tables", {"opponent": "cpu", "cpu_level": "easy", "rated": rated})
    assert (answer.status, answer.body["code"]) == (400, "invalid_request")
