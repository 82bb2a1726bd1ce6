"""What each kind of notice says, in each of the five languages the players use."""

from __future__ import annotations

from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from django.utils.formats import date_format

from bansugoroku.games import services
from bansugoroku.games.models import Event, Turn
from notifications.mails import content
from tests.factories import GameFactory, PlayerFactory, TurnFactory
from tests.notifications.helpers import LOCALES, deliver

pytestmark = pytest.mark.django_db


def closing_event(table, kind: str, payload: dict) -> Event:
    """An event of the idle close, written as its service will (numbered apart here)."""
    sequence = 1000 + Event.objects.filter(table=table).count()
    return Event.objects.create(table=table, sequence=sequence, kind=kind, payload=payload)


@pytest.fixture
def seen_in_every_language():
    """The subject and lines of every kind, per locale."""
    found: dict[str, dict[str, content.Content]] = {}
    for locale in LOCALES:
        host, guest = PlayerFactory(name="Aiko", locale=locale), PlayerFactory(name="Ben")
        table = GameFactory(host=host, guest=guest).table
        deliver(table)
        joined = Event.objects.get(table=table, kind="player_joined")
        said = {"your_turn": content.for_notice("your_turn", joined, host)}
        said["opponent_joined"] = content.for_notice("opponent_joined", joined, host)
        closing = closing_event(
            table,
            "table_closing",
            {"closes_at": (timezone.now()).isoformat(), "days_left": 7},
        )
        said["table_closing"] = content.for_notice("table_closing", closing, host)
        closed = closing_event(table, "table_closed", {"reason": "idle"})
        said["table_closed"] = content.for_notice("table_closed", closed, host)
        table.refresh_from_db()
        services.game_resign(player=guest, code=table.code, version=table.version)
        ended = Event.objects.get(table=table, kind="game_ended")
        said["game_over"] = content.for_notice("game_over", ended, host)
        found[locale] = said
    return found


def words(said: content.Content) -> list[str]:
    """The subject and every line, with the table's code (which differs) left out."""
    code = said.tables[0].code
    lines = [said.subject, *said.intro, *(line for t in said.tables for line in t.lines)]
    return [line.replace(code, "CODE") for line in lines]


def test_every_kind_is_translated_into_every_language(seen_in_every_language):
    english = {kind: words(said) for kind, said in seen_in_every_language["en"].items()}
    for locale in LOCALES[1:]:
        for kind, said in seen_in_every_language[locale].items():
            translated = words(said)
            assert translated[0] != english[kind][0], (locale, kind, translated)
            assert set(translated[1:]).isdisjoint(english[kind][1:]), (locale, kind)


def test_the_english_of_each_kind(seen_in_every_language):
    said = seen_in_every_language["en"]
    assert said["game_over"].intro == ["You won, worth 1 point."]
    assert said["game_over"].tables[0].lines == ["Score: you 1, Ben 0."]
    assert said["opponent_joined"].subject.startswith("Ben joined your table ")
    assert said["table_closing"].subject.endswith("closes in 7 days")
    assert said["table_closed"].subject.endswith("was closed")


def test_japanese_names_the_roll_by_its_kanji_first(seen_in_every_language):
    (line,) = [
        line
        for line in seen_in_every_language["ja"]["your_turn"].tables[0].lines
        if line.startswith("あなたの賽は")
    ]
    assert "（" in line and line.index("（") > len("あなたの賽は ")


def test_the_opponents_play_reads_in_the_readers_numbering():
    """The mover wrote 24/18 from their side; the reader's table page numbers that point
    1, so the mail does too."""
    guest = PlayerFactory(name="Ben", locale="de")
    game = GameFactory(host=PlayerFactory(name="Aiko"), guest=guest)
    TurnFactory(game=game)  # the host's
    table = game.table
    deliver(table)
    turn = Turn.objects.get(game__table=table, seat=0)
    assert turn.moves, "the host could move"
    seen = " ".join(f"{25 - a}/{25 - b}" for a, b in turn.moves)

    said = content.for_notice("your_turn", Event.objects.filter(table=table).last(), guest)

    line = said.tables[0].lines[1]
    assert line.replace("*", "").startswith(f"Aiko zog {seen} mit "), (line, turn.notation)


def test_the_passes_since_the_readers_play_are_told():
    """Ben's roll passed, then Aiko's: his mail says both, as his table page does."""
    guest = PlayerFactory(name="Ben")
    game = GameFactory(host=PlayerFactory(name="Aiko"), guest=guest)
    TurnFactory(game=game)  # the host's
    table = game.table
    deliver(table)
    game.refresh_from_db()
    recent = game.recent
    recent["since"][1] += [
        {"turn": 2, "seat": 1, "dice": [6, 5]},
        {"turn": 3, "seat": 0, "dice": [4, 4]},
    ]
    type(game).objects.filter(pk=game.pk).update(recent=recent)

    said = content.for_notice("your_turn", Event.objects.filter(table=table).last(), guest)

    passes = [line for line in said.tables[0].lines if "could not move" in line]
    assert [line.split(" rolled ")[0] for line in passes] == ["You", "Aiko"], passes


@pytest.mark.parametrize("locale", LOCALES)
def test_a_game_lost_on_time_and_one_cancelled_are_told_as_such(locale):
    """Both seats read who ran out; the early cancellation says there is no result."""
    from bansugoroku.games import timeouts
    from bansugoroku.games.models import Table

    host, guest = (
        PlayerFactory(name="Aiko", locale=locale, auto_vacation=False),
        PlayerFactory(name="Ben", locale=locale, auto_vacation=False),
    )
    said = {}
    for turns, name in ((0, "cancelled"), (4, "time")):
        table = GameFactory(host=host, guest=guest, clock_days=1).table
        for _ in range(turns):
            TurnFactory(game=Table.objects.get(pk=table.pk).current_game)
        table = Table.objects.get(pk=table.pk)
        timeouts.sweep(now=table.deadline)
        ended = Event.objects.get(table=table, kind="game_ended")
        assert ended.payload["how"] == name
        said[name] = [content.for_notice("game_over", ended, p).intro[0] for p in (host, guest)]
    assert said["cancelled"][0] == said["cancelled"][1]
    assert said["time"][0] != said["time"][1] and "Ben" in said["time"][0] + said["time"][1]
    if locale == "en":
        winner = 1 - Table.objects.get(pk=table.pk).current_game.turn_seat
        assert said["time"][winner].endswith("you won the game on time (1 point).")
        assert said["time"][1 - winner].startswith("You ran out of time to move:")
        assert said["cancelled"][0].endswith("the game is cancelled, with no result.")


def test_the_your_turn_mail_of_a_table_with_a_clock_gives_the_deadline():
    host, guest = PlayerFactory(name="Aiko", time_zone="Asia/Tokyo"), PlayerFactory(name="Ben")
    table = GameFactory(host=host, guest=guest, clock_days=3).table
    table.refresh_from_db()
    lines = content.your_turn(host).tables[0].lines
    in_tokyo = date_format(table.deadline.astimezone(ZoneInfo("Asia/Tokyo")), "DATETIME_FORMAT")
    assert lines[-1] == f"Your time to move runs out on {in_tokyo} JST.", "the reader's zone"
    unclocked = GameFactory(host=PlayerFactory(), guest=guest).table
    assert not any("runs out" in line for line in content.your_turn(unclocked.host).tables[0].lines)
