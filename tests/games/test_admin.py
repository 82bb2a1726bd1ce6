"""The admin: staff can look at every model; tables, games and turns are read-only there."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from bansugoroku.games.models import Event, Game, Player, Table, Turn
from tests.client import Api, mover, open_table


@pytest.fixture
def staff(db: None) -> Client:
    user = get_user_model().objects.create_superuser("root", "root@example.com", None)
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def played(db: None) -> str:
    """A table whose first game has a few recorded turns."""
    host, guest = Api().new_player("Aiko"), Api().new_player("Ben")
    code = open_table(host, guest)
    while Turn.objects.filter(game__table__code=code).count() < 2:
        player, state = mover(code, host, guest)
        moves = state["game"]["turn"]["legal_moves"][:1]
        sent = player.post(f"tables/{code}/moves", {"version": state["version"], "moves": moves})
        assert sent.status == 200, sent.body
    return code


def pages(code: str) -> list[tuple[str, str, str]]:
    """(model, object id, a text its change page shows) for one object of each model."""
    table = Table.objects.get(code=code)
    game = Game.objects.get(table=table)
    turn = Turn.objects.filter(game=game).first()
    player = Player.objects.get(name="Ben")
    return [
        ("player", str(player.pk), "Ben"),
        ("table", str(table.pk), code),
        ("game", str(game.pk), game.seed_hash),
        ("turn", str(turn.pk), turn.notation),
        ("event", str(Event.objects.filter(table=table).last().pk), "turn_started"),
    ]


def test_staff_open_every_changelist_and_change_page(staff, played):
    for model, pk, shown in pages(played):
        listing = staff.get(f"/admin/games/{model}/")
        assert listing.status_code == 200, model
        page = staff.get(f"/admin/games/{model}/{pk}/change/")
        assert page.status_code == 200, model
        assert shown in page.content.decode(), model
    table_page = staff.get(f"/admin/games/table/{pages(played)[1][1]}/change/").content
    assert b"Aiko" in table_page and b"Ben" in table_page, "the seats are shown inline"


def test_the_search_finds_a_table_by_code(staff, played):
    found = staff.get("/admin/games/table/", {"q": played.lower()})
    assert found.status_code == 200 and played in found.content.decode()
    assert "0-0" in found.content.decode(), "the score column"


def test_games_and_turns_cannot_be_added_or_changed(staff, played):
    for model in ("game", "turn", "table", "event"):
        assert staff.get(f"/admin/games/{model}/add/").status_code == 403, model
    game = Game.objects.get(table__code=played)
    before = game.position
    answer = staff.post(f"/admin/games/game/{game.pk}/change/", {"position": "x"})
    assert answer.status_code == 403
    game.refresh_from_db()
    assert game.position == before


def test_the_seed_stays_secret_in_the_admin_while_the_game_is_played(staff, played):
    game = Game.objects.get(table__code=played)
    page = staff.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert bytes(game.seed).hex() not in page
    assert "secret until the game ends" in page


def test_the_next_games_seed_stays_secret_in_the_admin(staff, db):
    code = Api().new_player("Aiko").post("tables", {}).body["code"]
    table = Table.objects.get(code=code)
    page = staff.get(f"/admin/games/table/{table.pk}/change/").content.decode()
    assert table.next_seed_hash in page, "the commitment is public"
    assert "Next seed:" not in page and bytes(table.next_seed).hex() not in page


def test_a_players_token_hash_is_not_shown(staff, played):
    player = Player.objects.get(name="Aiko")
    page = staff.get(f"/admin/games/player/{player.pk}/change/").content.decode()
    assert player.token_hash not in page
    assert 'name="name"' in page, "the name can be corrected"


def test_someone_not_staff_is_sent_to_the_login(played):
    assert Client().get("/admin/games/table/").status_code == 302


@pytest.mark.slow
def test_repeated_wrong_passwords_lock_the_login_out(db, settings):
    """After 5 wrong passwords, even the right one is refused, for that name and address;
    another address can still log in."""
    get_user_model().objects.create_superuser("root", "root@example.com", "right horse")
    client = Client()

    def login(password: str, address: str = "10.0.0.1") -> int:
        answer = client.post(
            "/admin/login/?next=/admin/",
            {"username": "root", "password": password},
            REMOTE_ADDR=address,
        )
        return answer.status_code

    # The form again for each of the first four; the fifth locks the pair out.
    assert [login(f"wrong {i}") for i in range(5)] == [200, 200, 200, 200, 429]
    assert login("right horse") == 429
    forged = client.post(
        "/admin/login/?next=/admin/",
        {"username": "root", "password": "right horse"},
        REMOTE_ADDR="10.0.0.1",
        HTTP_X_FORWARDED_FOR="10.9.9.9",
    )
    assert forged.status_code == 429, "a client's own X-Forwarded-For is not its address"
    assert "_auth_user_id" not in client.session
    assert login("right horse", address="10.0.0.2") == 302
    assert "_auth_user_id" in client.session


def test_the_table_list_shows_the_last_activity_and_filters_idle_closes(staff, played):
    from datetime import timedelta

    from django.utils import timezone

    from bansugoroku.games import idle

    open_code = Api().new_player("Chie").post("tables", {}).body["code"]
    idle.sweep(now=timezone.now() + timedelta(days=46))
    Table.objects.filter(code=open_code).update(state="waiting", closed_reason="")

    listing = staff.get("/admin/games/table/").content.decode()
    assert "Active at" in listing and "?closed_reason__exact=idle" in listing
    assert "nobody acted at it for IDLE_CLOSE_DAYS" in listing  # the reasons, named
    closed = staff.get("/admin/games/table/", {"closed_reason__exact": "idle"}).content.decode()
    assert played in closed and open_code not in closed
