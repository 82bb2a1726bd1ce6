"""The generator against the perft table: position + dice + rules -> distinct plays."""

from __future__ import annotations

from engine.notation import parse_position_id
from engine.plays import legal_plays
from engine.rules import Finish, Muji, Rules
from tests.engine.perft import DATA


def cases() -> list[tuple[str, str, str, str, int]]:
    rows = [line.split() for line in DATA.read_text().splitlines() if not line.startswith("#")]
    return [(pid, dice, finish, muji, int(count)) for pid, dice, finish, muji, count in rows]


def test_the_table_is_large_and_varied():
    rows = cases()
    assert len(rows) > 500
    assert {count for *_, count in rows} >= {1, 9, 20, 30}
    assert {(finish, muji) for _, _, finish, muji, _ in rows} == {
        (f.value, m.value) for f in Finish for m in Muji
    }


def test_every_count_in_the_perft_table():
    wrong = []
    for pid, dice, finish, muji, count in cases():
        rules = Rules(Finish(finish), Muji(muji))
        got = len(legal_plays(parse_position_id(pid), (int(dice[0]), int(dice[1])), rules))
        if got != count:
            wrong.append(f"{pid} {dice} {finish} {muji}: {got} plays, expected {count}")
    assert not wrong, "\n".join(wrong[:10])
