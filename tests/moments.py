"""The moment the games' tests stand at while they move time (the `clock` fixture)."""

from __future__ import annotations

from datetime import UTC, datetime

START = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)
