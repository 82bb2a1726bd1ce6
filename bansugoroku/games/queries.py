"""Hand-written SQL for the queries of every change and of the reads clients poll.

Building these queries with the ORM cost more CPU than all the rest of a move request
(about 1.2 ms to compile the four-table join on each request, measured); here the SQL
is written once at import, from the models' own field lists, and the rows become model
instances with every field loaded, as the ORM's would be (`_instance`). A change is
written by one statement built once per shape (`save`). Everything else uses the ORM.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import orjson
from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models.base import ModelState
from psycopg.types.json import Jsonb

from bansugoroku.games.models import (
    Game,
    GameState,
    Player,
    Seat,
    SignedInToken,
    Table,
    TableState,
)

_MODELS: list[tuple[type[models.Model], str]] = [
    (Seat, "s"),
    (Player, "p"),
    (Table, "t"),
    (Game, "g"),
]


def _fields(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    return list(model._meta.concrete_fields)


def _db() -> BaseDatabaseWrapper:
    """This thread's connection itself. Through the `django.db.connection` proxy, each
    attribute a field's conversion reads looks the connection up again (in asgiref's
    Local): preparing a move's values for writing took 125 µs that way, 51 µs with the
    connection at hand, measured."""
    return connections[DEFAULT_DB_ALIAS]


def _select(parts: Sequence[tuple[type[models.Model], str]]) -> str:
    return ", ".join(f'{alias}."{f.column}"' for model, alias in parts for f in _fields(model))


_TOKEN_PLAYERS = f"""
    SELECT id FROM {Player._meta.db_table} WHERE token_hash = %(hash)s
    UNION ALL
    SELECT player_id FROM {SignedInToken._meta.db_table} WHERE token_hash = %(hash)s
"""
"""The players holding the token with hash `hash`: by their own token, or by one a
browser got by signing in (none when `hash` is null)."""

_TABLE_SQL = f"""
    SELECT {_select(_MODELS)}, p.id IN ({_TOKEN_PLAYERS})
    FROM {Seat._meta.db_table} s
    JOIN {Table._meta.db_table} t ON t.id = s.table_id
    LEFT JOIN {Player._meta.db_table} p ON p.id = s.player_id
    LEFT JOIN {Game._meta.db_table} g ON g.id = t.current_game_id
    WHERE t.code = %(code)s
    ORDER BY s.number
"""
"""The seats of a table, each with its player and whether the player holds the token
with hash `hash`, the table and its game."""

_PLAYER_SQL = f"""
    SELECT {_select([(Player, "p")])} FROM {Player._meta.db_table} p WHERE p.token_hash = %s
    UNION ALL
    SELECT {_select([(Player, "p")])} FROM {SignedInToken._meta.db_table} k
    JOIN {Player._meta.db_table} p ON p.id = k.player_id
    WHERE k.token_hash = %s
    LIMIT 1
"""
"""The player holding a token: their own, or one a browser got by signing in."""


def _json_value(text: str | None) -> Any:
    """A JSON column's value, as `JSONField.from_db_value` reads it (Django has psycopg
    hand over `jsonb` as text)."""
    return None if text is None else orjson.loads(text)


def _json_param(value: Any, connection: BaseDatabaseWrapper) -> Jsonb | None:
    """A JSON column's parameter, as `JSONField.get_db_prep_save` makes it (None is SQL
    NULL). Django writes it with the standard library's `json.dumps`."""
    return None if value is None else Jsonb(value, dumps=_dumps)


Writer = tuple[models.Field[Any, Any], Callable[[Any, BaseDatabaseWrapper], Any]]
"""A field written by `save`, and how its value becomes the statement's parameter."""


def _writer(field: models.Field[Any, Any]) -> Writer:
    return field, _json_param if _plain_json(field) else field.get_db_prep_save


def _dumps(value: Any) -> bytes:
    # Integer keys become strings, as `json.dumps` writes them.
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


@functools.cache
def _reader(model: type[models.Model]) -> tuple[list[str], list[int]]:
    """A model's attribute names, and the positions of its JSON columns, whose values
    need reading: worked out once, not for every row."""
    fields = _fields(model)
    json_columns = [i for i, f in enumerate(fields) if hasattr(f, "from_db_value")]
    for i in json_columns:
        if not _plain_json(fields[i]):
            raise TypeError(f"{fields[i]} has a conversion the hand-written queries don't make")
    return [f.attname for f in fields], json_columns


def _plain_json(field: models.Field[Any, Any]) -> bool:
    """Whether `field` is a JSONField with the standard library's encoding both ways,
    whose values orjson reads and writes the same, at a tenth of the CPU: the JSON of
    a move request's rows took 3% of its CPU, measured."""
    return isinstance(field, models.JSONField) and field.encoder is None and field.decoder is None


_LOADED = "_loaded_values"
"""Where `_instance` keeps the values its row had, by attribute name: `save` writes the
columns whose values have changed since (and every JSON one, whose value may have been
changed in place), and notes what it wrote. The ORM's `Model.save` does not note it: an
instance saved that way must not also go through `save` in the same change."""


def _instance(model: type[models.Model], values: Sequence[Any], db: BaseDatabaseWrapper) -> Any:
    """The instance of a row holding every concrete field of `model`, as `Model.from_db`
    builds it but without `Model.__init__`: that sets each field through its descriptor
    and sends the pre_init and post_init signals, which none of these models has a
    receiver for; the instances of a table load took 58 µs of CPU that way, 19 µs
    filling the instance's dict (measured)."""
    if values[0] is None:  # the LEFT JOIN found no row: a free seat, or no game yet
        return None
    names, json_columns = _reader(model)
    values = list(values)
    for index in json_columns:
        values[index] = _json_value(values[index])
    instance = model.__new__(model)
    loaded = dict(zip(names, values, strict=True))
    instance.__dict__.update(loaded)
    instance.__dict__[_LOADED] = loaded
    instance._state = ModelState()
    instance._state.adding, instance._state.db = False, db.alias
    return instance


def _column_slices(parts: Sequence[tuple[type[models.Model], str]]) -> list[slice]:
    """Where each model's columns sit in a row of a query selecting `parts`, in order."""
    slices, start = [], 0
    for model, _ in parts:
        width = len(_fields(model))
        slices.append(slice(start, start + width))
        start += width
    return slices


_SEAT, _PLAYER, _TABLE, _GAME = _column_slices(_MODELS)
_HOLDS = _GAME.stop


def table_rows(
    code: str, *, lock: bool, token_hash: str | None = None
) -> list[tuple[Seat, Player | None, Table, Game | None, bool]]:
    """Each seat of the table with `code`, its player, the table, its current game, and
    whether the seat's player holds the token with `token_hash`: the caller's seat is
    found in the same round trip as the table, without looking the token up first."""
    sql = _TABLE_SQL + (" FOR UPDATE OF t" if lock else "")
    db = _db()
    with db.cursor() as cursor:
        cursor.execute(sql, {"code": code, "hash": token_hash})
        rows = cursor.fetchall()
    if not rows:
        return []
    # Every row repeats the table and its game: they are built from the first row only.
    table, game = _instance(Table, rows[0][_TABLE], db), _instance(Game, rows[0][_GAME], db)
    return [
        (
            _instance(Seat, row[_SEAT], db),
            _instance(Player, row[_PLAYER], db),
            table,
            game,
            bool(row[_HOLDS]),
        )
        for row in rows
    ]


_MY_TABLES_MODELS: list[tuple[type[models.Model], str]] = [
    (Seat, "s"),
    (Table, "t"),
    (Game, "g"),
    (Seat, "o"),
    (Player, "op"),
]

_SEAT_TO_MOVE = f"""(CASE WHEN t.state = '{TableState.PLAYING.value}'
    AND g.state = '{GameState.PLAYING.value}' THEN g.turn_seat END)"""
"""`Table.seat_to_move` in SQL, for the tables `t` with their current games `g`: the seat
whose turn it is, NULL when none. A test holds the two to the same answers."""

_MY_TABLES_SQL = f"""
    SELECT {_select(_MY_TABLES_MODELS)}
    FROM {Seat._meta.db_table} s
    JOIN {Table._meta.db_table} t ON t.id = s.table_id
    LEFT JOIN {Game._meta.db_table} g ON g.id = t.current_game_id
    JOIN {Seat._meta.db_table} o ON o.table_id = t.id AND o.number <> s.number
    LEFT JOIN {Player._meta.db_table} op ON op.id = o.player_id
    WHERE s.player_id = %s
    ORDER BY CASE WHEN {_SEAT_TO_MOVE} = s.number THEN 0 ELSE 1 END, t.deadline NULLS LAST,
        t.updated_at, t.id
"""
_MINE, _ITS_TABLE, _ITS_GAME, _OTHER, _OTHER_PLAYER = _column_slices(_MY_TABLES_MODELS)


def tables_of_player(player_id: int) -> list[tuple[Seat, Table, Game | None, Seat, Player | None]]:
    """Each seat of the player with its table, the table's game, the other seat and its
    player: those where the game waits for the player's move first, each part with the
    soonest deadline first (tables with a clock before those without), then the ones
    that have waited longest. The ORM took 8 ms of CPU to compile this for a single table."""
    db = _db()
    with db.cursor() as cursor:
        cursor.execute(_MY_TABLES_SQL, [player_id])
        rows = cursor.fetchall()
    return [
        (
            _instance(Seat, row[_MINE], db),
            _instance(Table, row[_ITS_TABLE], db),
            _instance(Game, row[_ITS_GAME], db),
            _instance(Seat, row[_OTHER], db),
            _instance(Player, row[_OTHER_PLAYER], db),
        )
        for row in rows
    ]


_WAITING_FROM = f"""
    FROM {Seat._meta.db_table} s
    JOIN {Table._meta.db_table} t ON t.id = s.table_id
    LEFT JOIN {Game._meta.db_table} g ON g.id = t.current_game_id
    WHERE s.player_id IN ({{players}}) AND {_SEAT_TO_MOVE} = s.number
"""
"""The seats whose move a table awaits, of the players the `{players}` subquery names."""


_WAITING_SQL = f"""
    SELECT t.code, count(*) OVER ()
    {_WAITING_FROM.format(players=_TOKEN_PLAYERS)}
    ORDER BY t.updated_at, t.id
    LIMIT 2
"""
"""The player is found by either kind of token, as `_PLAYER_SQL` finds them."""


def tables_waiting(token_hash: str) -> tuple[int, list[str]]:
    """How many tables wait for the move of the player with `token_hash`, and the codes of
    the (at most two) that have waited longest: every page shows the count, and the table
    page the next one other than itself. One query, found by the browser's token: the
    pages need no player row for it."""
    db = _db()
    with db.cursor() as cursor:
        cursor.execute(_WAITING_SQL, {"hash": token_hash})
        rows = cursor.fetchall()
    return (int(rows[0][1]) if rows else 0), [str(row[0]) for row in rows]


_WAITING_COUNT_SQL = f"SELECT count(*) {_WAITING_FROM.format(players='%(player)s')}"


def tables_waiting_count(player_id: int) -> int:
    """How many tables wait for the player's move, as `tables_waiting` counts them: the
    push notices carry it for the app's badge, where there is a player but no token."""
    with _db().cursor() as cursor:
        cursor.execute(_WAITING_COUNT_SQL, {"player": player_id})
        return int(cursor.fetchone()[0])


_VERSION_SQL = f"""
    SELECT t."version", s."id", s."last_seen_at" FROM {Table._meta.db_table} t
    JOIN {Seat._meta.db_table} s ON s.table_id = t.id
    WHERE t.code = %s AND s.player_id = %s
"""


def table_version(code: str, player_id: int) -> tuple[int, int, datetime | None] | None:
    """The version of the table with `code`, if the player sits at it, with their seat's
    id and when they last looked: what a poll with an ETag needs to answer 304, the most
    frequent request of a correspondence game."""
    db = _db()
    with db.cursor() as cursor:
        cursor.execute(_VERSION_SQL, [code, player_id])
        row = cursor.fetchone()
    return None if row is None else (int(row[0]), int(row[1]), row[2])


def player_by_token_hash(token_hash: str) -> Player | None:
    db = _db()
    with db.cursor() as cursor:
        cursor.execute(_PLAYER_SQL, [token_hash, token_hash])
        row = cursor.fetchone()
    return None if row is None else _instance(Player, row, db)


def save(
    updates: Sequence[tuple[models.Model, Sequence[str]]], inserts: Sequence[models.Model] = ()
) -> None:
    """Write one change in one statement: INSERT the new rows `inserts` (grouped by
    model, in the order given), then UPDATE each `(instance, field names)` of `updates`,
    the last as the statement itself and the others as data-modifying CTEs before it.
    Of an instance these queries loaded, only the named fields that changed since are
    written (every JSON one); of any other, all of them.

    A move used to cost up to five round trips (the history's turn, passes, events, the
    game, the table); the statement is built once per shape and prepared by PostgreSQL.
    The inserted instances get no primary key back: nothing reads them after the write.
    Writing only what changed keeps a move that ends a turn at 35 values instead of 53:
    psycopg keeps its parsing of a statement of up to 50 (re-parsing took 156 µs), and
    fewer values cost less to convert and send.
    """
    db = _db()
    parts: list[tuple[str, list[Any]]] = []
    for model, group in itertools.groupby(inserts, key=type):
        rows = list(group)
        writers = _insert_writers(model)
        values = [param(f.pre_save(i, True), db) for i in rows for f, param in writers]
        parts.append((_insert_sql(model, len(rows)), values))
    changed: list[tuple[dict[str, Any], str, Any]] = []  # (snapshot, attribute, new value)
    for instance, names in updates:
        model = type(instance)
        loaded = instance.__dict__.get(_LOADED)
        written, params = [], []
        for field, param in _update_writers(model, tuple(names)):
            value = field.pre_save(instance, False)
            if loaded is not None and param is not _json_param:
                if loaded[field.attname] == value:
                    continue
                changed.append((loaded, field.attname, value))
            written.append(field.name)
            params.append(param(value, db))
        if written:
            parts.append((_update_sql(model, tuple(written)), [*params, instance.pk]))
    if not parts:
        return
    *ctes, (sql, values) = parts
    if ctes:
        listed = enumerate(ctes)
        sql = "WITH " + ", ".join(f"w{i} AS ({cte})" for i, (cte, _) in listed) + " " + sql
        values = [v for _, cte_values in ctes for v in cte_values] + values
    with db.cursor() as cursor:
        cursor.execute(sql, values)
    for loaded, name, value in changed:
        loaded[name] = value


@functools.cache
def _update_writers(model: type[models.Model], names: tuple[str, ...]) -> tuple[Writer, ...]:
    """The model's fields with these names, in order: each has a column to write."""
    fields = {f.name: f for f in _fields(model)}
    return tuple(_writer(fields[name]) for name in names)


@functools.cache
def _update_sql(model: type[models.Model], names: tuple[str, ...]) -> str:
    columns = ", ".join(f'"{f.column}" = %s' for f, _ in _update_writers(model, names))
    return f'UPDATE {model._meta.db_table} SET {columns} WHERE "id" = %s'


@functools.cache
def _insert_writers(model: type[models.Model]) -> tuple[Writer, ...]:
    meta = model._meta
    return tuple(_writer(f) for f in meta.local_concrete_fields if f is not meta.auto_field)


@functools.cache
def _insert_sql(model: type[models.Model], rows: int) -> str:
    writers = _insert_writers(model)
    columns = ", ".join(f'"{f.column}"' for f, _ in writers)
    row = "(" + ", ".join(["%s"] * len(writers)) + ")"
    return f"INSERT INTO {model._meta.db_table} ({columns}) VALUES {', '.join([row] * rows)}"
