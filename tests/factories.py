"""The suite's test data, built with factory-boy.

Rows that carry game state (tables, seats, games, turns, notices) are made through the
services, as a player's requests make them, so that every factory-made table is one the
service could have written; rows that are plain records (addresses, preferences, push
registrations) are made directly.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import factory
from django.utils import timezone

from bansugoroku.games import selectors, services, vacations
from bansugoroku.games.models import Game, Player, Seat, Table, Turn
from bansugoroku.games.store import load_table
from engine.rules import Rules
from notifications.models import (
    DeviceToken,
    EmailAddress,
    Notice,
    Platform,
    Preferences,
    PushSubscription,
    SignInLink,
)
from tests.finished_games import play_out
from tests.notifications.helpers import deliver


class PlayerFactory(factory.django.DjangoModelFactory[Player]):
    """A player made by `services.player_create`; its bearer token is `player.token`.
    `PlayerFactory(address="aiko@example.test")` gives them a confirmed address,
    `auto_vacation=False` clocks that can run out, `time_zone="Asia/Tokyo"` a time zone
    of their own."""

    class Meta:
        model = Player
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Player {n}")
    locale = "en"
    auto_vacation = True
    time_zone = ""

    @classmethod
    def _create(cls, model_class: type[Player], *args: Any, **kwargs: Any) -> Player:
        player, token = services.player_create(name=kwargs["name"], locale=kwargs["locale"])
        if not kwargs["auto_vacation"]:
            vacations.set_auto(player_id=player.pk, on=False)
            player.auto_vacation = False
        if kwargs["time_zone"]:
            player.time_zone = kwargs["time_zone"]
            player.save(update_fields=["time_zone"])
        player.token = token  # type: ignore[attr-defined]
        return player

    @factory.post_generation
    def address(self, create: bool, extracted: str | None, **kwargs: Any) -> None:
        if extracted:
            EmailAddressFactory(player=self, address=extracted)


class TableFactory(factory.django.DjangoModelFactory[Table]):
    """A table made by `services.table_create`: the host's, with the second seat free or,
    with `cpu="easy"`, `"normal"` or `"hard"`, the CPU's (`TableFactory(cpu="normal")`);
    `clock_days=3` gives it a clock, `open=True` puts it in the lobby, `rated=True` rates
    its games."""

    class Meta:
        model = Table

    host = factory.SubFactory(PlayerFactory)
    rules = factory.LazyFunction(Rules)
    cpu = ""
    clock_days = None
    open = False
    rated = None

    @classmethod
    def _create(cls, model_class: type[Table], *args: Any, **kwargs: Any) -> Table:
        return services.table_create(
            host=kwargs["host"],
            rules=kwargs["rules"],
            cpu=kwargs["cpu"],
            clock_days=kwargs["clock_days"],
            open=kwargs["open"],
            rated=kwargs["rated"],
        ).table


class SeatFactory(factory.django.DjangoModelFactory[Seat]):
    """The second seat of a waiting table, taken by `services.table_join`."""

    class Meta:
        model = Seat

    table = factory.SubFactory(TableFactory)
    player = factory.SubFactory(PlayerFactory)
    entropy = ""

    @classmethod
    def _create(cls, model_class: type[Seat], *args: Any, **kwargs: Any) -> Seat:
        table, player = kwargs["table"], kwargs["player"]
        services.table_join(player=player, code=table.code, entropy=kwargs["entropy"])
        return Seat.objects.get(table=table, player=player)


class GameFactory(factory.django.DjangoModelFactory[Game]):
    """The first game of a table the host started with the guest seated (with `cpu=...`,
    against the CPU; with `clock_days=...`, on a clock): in progress, the host's turn, or
    with `finished=True` played to its end through `services.game_move`, with a hit in
    it. `GameFactory().table` is the table."""

    class Meta:
        model = Game

    host = factory.SubFactory(PlayerFactory)
    cpu = ""
    guest = factory.Maybe(
        "cpu", yes_declaration=None, no_declaration=factory.SubFactory(PlayerFactory)
    )
    rules = factory.LazyFunction(Rules)
    clock_days = None
    rated = None
    finished = False

    @classmethod
    def _create(cls, model_class: type[Game], *args: Any, **kwargs: Any) -> Game:
        host = kwargs["host"]
        table = TableFactory(
            host=host,
            rules=kwargs["rules"],
            cpu=kwargs["cpu"],
            clock_days=kwargs["clock_days"],
            rated=kwargs["rated"],
        )
        if kwargs["guest"] is not None:
            table = SeatFactory(table=table, player=kwargs["guest"]).table
            table.refresh_from_db()
        table = services.table_start(player=host, code=table.code, version=table.version).table
        if kwargs["finished"]:
            play_out(table.code, random.Random(table.code))
        return Game.objects.select_related("table").get(table=table, number=1)


class TurnFactory(factory.django.DjangoModelFactory[Turn]):
    """The whole turn of the player to move in a game in progress, played one legal move
    at a time through `services.game_move`."""

    class Meta:
        model = Turn

    game = factory.SubFactory(GameFactory)

    @classmethod
    def _create(cls, model_class: type[Turn], *args: Any, **kwargs: Any) -> Turn:
        game = kwargs["game"]
        code = game.table.code
        mover = game.table.seats.get(number=game.turn_seat).player
        while True:
            state = selectors.table_state(load_table(code), mover)
            turn = state["game"]["turn"] if state["game"] else None
            if not turn or not turn["yours"] or not turn["legal_moves"]:
                break
            services.game_move(
                player=mover, code=code, version=state["version"], moves=[turn["legal_moves"][0]]
            )
        return Turn.objects.filter(game=game).latest("number")


class NoticeFactory(factory.django.DjangoModelFactory[Notice]):
    """A notice the worker made to the host of a game just started, as the outbox makes
    it from the game's events: "your_turn" or "opponent_joined", by "email" or "push"."""

    class Meta:
        model = Notice

    player = factory.SubFactory(PlayerFactory)
    kind = "your_turn"
    channel = "email"

    @classmethod
    def _create(cls, model_class: type[Notice], *args: Any, **kwargs: Any) -> Notice:
        table = GameFactory(host=kwargs["player"]).table
        deliver(table)
        return Notice.objects.get(
            table=table, player=kwargs["player"], kind=kwargs["kind"], channel=kwargs["channel"]
        )


class EmailAddressFactory(factory.django.DjangoModelFactory[EmailAddress]):
    """A confirmed address for notices; `confirmed_at=None` for one waiting."""

    class Meta:
        model = EmailAddress

    player = factory.SubFactory(PlayerFactory)
    address = factory.Sequence(lambda n: f"player{n}@example.test")
    confirmed_at = factory.LazyFunction(timezone.now)


class SignInLinkFactory(factory.django.DjangoModelFactory[SignInLink]):
    """A mailed sign-in link, unused, for the configured minutes from now; the link itself
    is not kept, only a hash of a random one."""

    class Meta:
        model = SignInLink

    player = factory.SubFactory(PlayerFactory)
    link_hash = factory.Sequence(lambda n: f"{n:064x}")
    expires_at = factory.LazyFunction(lambda: timezone.now() + timedelta(minutes=30))


class PreferencesFactory(factory.django.DjangoModelFactory[Preferences]):
    class Meta:
        model = Preferences
        django_get_or_create = ("player",)

    player = factory.SubFactory(PlayerFactory)


class PushSubscriptionFactory(factory.django.DjangoModelFactory[PushSubscription]):
    """A browser's Web Push subscription; point `endpoint` at a loopback push service."""

    class Meta:
        model = PushSubscription

    player = factory.SubFactory(PlayerFactory)
    endpoint = factory.Sequence(lambda n: f"https://fcm.googleapis.com/fcm/send/browser-{n}")
    # A valid P-256 public key and auth secret, base64url (RFC 8291 test vectors).
    p256dh = (
        "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    )
    auth = "BTBZMqHH6r4Tts7J_aSIgg"
    label = "Test browser"


class DeviceTokenFactory(factory.django.DjangoModelFactory[DeviceToken]):
    """A mobile app's FCM registration token."""

    class Meta:
        model = DeviceToken

    player = factory.SubFactory(PlayerFactory)
    token = factory.Sequence(lambda n: f"fcm-token-{n}")
    platform = Platform.ANDROID
