"""The games' tests' clock: time stands at START, and a test moves it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import time_machine

from tests.moments import START


@pytest.fixture
def clock() -> Iterator[time_machine.Coordinates]:
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller
