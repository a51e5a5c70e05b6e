"""The hand-submission hot path's lean row writes and read: the one seam where services bypass the ORM.

``row_insert``, ``row_update``, ``rows_write`` (several writes as one PostgreSQL statement) and
``row_fetch`` (a hand-written query's row as a model instance). ADR 0009 records why they exist (the
benchmark figures of ``benchmarks/submit.py``) and when to remove them; only ``services/hands.py`` and
``services/audit.py`` use them, and ``tests/tournaments/test_services_rows.py`` pins their behaviour
against ``Model.save()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, models

M = TypeVar("M", bound=models.Model)

# ---- lean row writes and read --------------------------------------------------------------------------------
# ``Model.save()`` compiles its INSERT or UPDATE again on every call, which costs more CPU than the database
# spends storing the row (about 0.4 ms a statement on this project's shared 2-core machine, against 0.1 ms
# for the bare statement). The hot path (a hand, its game, its audit event) writes through these instead:
# each statement is built once per model (and field list) from the model's own fields, and every value goes
# through the field's ``pre_save`` (``auto_now_add``, ``auto_now``) and ``get_db_prep_save`` (JSON, dates) as
# ``save()`` does. What they skip: model signals (the project registers none) and ``save()`` overrides.
_STATEMENTS: dict[tuple[Any, ...], tuple[str, list[Any]]] = {}


def _insert(obj: models.Model, using: str) -> tuple[str, list[Any]]:
    """The INSERT of ``obj`` and its parameters: a NULL is written into the statement (so a row with the usual
    empty fields passes fewer parameters, and psycopg's parse cache takes up to 50), one statement text per
    model and pattern of empty fields."""
    connection = connections[using]
    meta = obj._meta
    key = ("insert", type(obj), using, obj.pk is not None)
    if key not in _STATEMENTS:
        fields = [f for f in meta.concrete_fields
                  if (obj.pk is not None or f is not meta.pk) and not getattr(f, "generated", False)]
        quote = connection.ops.quote_name
        _STATEMENTS[key] = (f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in fields)}) ",
                            fields)
    head, fields = _STATEMENTS[key]
    values = [f.pre_save(obj, True) for f in fields]
    nulls = tuple(value is None for value in values)
    if (key, nulls) not in _STATEMENTS:
        _STATEMENTS[(key, nulls)] = (head + f"VALUES ({', '.join('NULL' if n else '%s' for n in nulls)})", [])
    params = [f.get_db_prep_save(value, connection=connection) for f, value in zip(fields, values, strict=True)
              if value is not None]
    return _STATEMENTS[(key, nulls)][0], params


def _update_statement(model: type[models.Model], fields: Sequence[str], using: str) -> tuple[str, list[Any]]:
    key = ("update", model, tuple(fields), using)
    if key not in _STATEMENTS:
        meta = model._meta
        chosen = [meta.get_field(name) for name in fields]
        quote = connections[using].ops.quote_name
        sets = ", ".join(f"{quote(f.column)} = %s" for f in chosen)  # type: ignore[union-attr]
        _STATEMENTS[key] = (f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {quote(meta.pk.column)} = %s", chosen)
    return _STATEMENTS[key]


def _update_params(obj: models.Model, fields: list[Any], connection: Any) -> list[Any]:
    params = [f.get_db_prep_save(f.pre_save(obj, False), connection=connection) for f in fields]
    params.append(obj._meta.pk.get_db_prep_save(obj.pk, connection=connection))
    return params


def _saved(obj: models.Model, using: str) -> None:
    obj._state.adding, obj._state.db = False, using


def row_insert(obj: M, *, using: str = DEFAULT_DB_ALIAS) -> M:
    """INSERT ``obj`` (a new instance) as ``obj.save(force_insert=True)`` would; sets its primary key."""
    connection = connections[using]
    meta = obj._meta
    sql, params = _insert(obj, using)
    returning = obj.pk is None and connection.features.can_return_columns_from_insert
    if returning:
        sql += " " + connection.ops.return_insert_columns([meta.pk])[0]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if returning:
            obj.pk = connection.ops.fetch_returned_insert_columns(cursor, ())[0]
        elif obj.pk is None:
            obj.pk = connection.ops.last_insert_id(cursor, meta.db_table, meta.pk.column)
    _saved(obj, using)
    return obj


def row_update(obj: models.Model, fields: Sequence[str], *, using: str = DEFAULT_DB_ALIAS) -> None:
    """UPDATE ``obj``'s row, setting the named fields, as ``obj.save(update_fields=fields)`` would."""
    connection = connections[using]
    sql, chosen = _update_statement(type(obj), fields, using)
    with connection.cursor() as cursor:
        cursor.execute(sql, _update_params(obj, chosen, connection))
        if cursor.rowcount != 1:
            raise DatabaseError(f"{obj._meta.label} {obj.pk}: the update changed {cursor.rowcount} rows, not 1.")


_CONVERTERS: dict[tuple[Any, str], list[tuple[list[Any], Any]]] = {}


def model_columns(model: type[models.Model], alias: str, *, using: str = DEFAULT_DB_ALIAS) -> str:
    """The model's columns in ``row_fetch`` order, qualified by the table's ``alias`` in a hand-written query."""
    quote = connections[using].ops.quote_name
    return ", ".join(f"{alias}.{quote(f.column)}" for f in model._meta.concrete_fields)


def row_fetch(model: type[M], sql: str, params: Sequence[Any], extra: Sequence[str] = (), *,
              using: str = DEFAULT_DB_ALIAS) -> M | None:
    """The first row of a hand-written query as a ``model`` instance, or None: the query selects
    ``model_columns(model, ...)`` then one column per name in ``extra`` (set as attributes, like the ORM's
    annotations). Values go through the same converters as the ORM's (JSON, SQLite's booleans and dates)."""
    connection = connections[using]
    key = (model, using)
    if key not in _CONVERTERS:
        columns = [f.get_col(model._meta.db_table) for f in model._meta.concrete_fields]
        _CONVERTERS[key] = [(connection.ops.get_db_converters(c) + c.get_db_converters(connection), c)
                            for c in columns]
    converters = _CONVERTERS[key]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row[: len(converters)])
    for i, (functions, column) in enumerate(converters):
        for convert in functions:
            values[i] = convert(values[i], column, connection)
    obj = model.from_db(using, None, values)
    for name, value in zip(extra, row[len(converters):], strict=True):
        setattr(obj, name, value)
    return obj


Write = models.Model | tuple[models.Model, Sequence[str]]


def rows_write(writes: Sequence[Write], *, using: str = DEFAULT_DB_ALIAS) -> None:
    """Several row writes, in order: an instance is inserted (its primary key set), ``(instance, fields)``
    updated, as ``row_insert`` and ``row_update`` do.

    On PostgreSQL they go as **one statement**, one round trip: each write a data-modifying ``WITH`` clause
    (``RETURNING`` its key), the statement's row the new keys and the updated row counts. Elsewhere (SQLite)
    one statement each.
    """
    connection = connections[using]
    if connection.vendor != "postgresql" or len(writes) < 2:
        for write in writes:
            if isinstance(write, tuple):
                row_update(write[0], write[1], using=using)
            else:
                row_insert(write, using=using)
        return
    quote = connection.ops.quote_name
    clauses: list[str] = []
    answers: list[str] = []
    params: list[Any] = []
    for i, write in enumerate(writes):
        if isinstance(write, tuple):
            obj, names = write
            sql, fields = _update_statement(type(obj), names, using)
            params += _update_params(obj, fields, connection)
            answers.append(f"(SELECT COUNT(*) FROM w{i})")
        else:
            obj = write
            sql, values = _insert(obj, using)
            params += values
            answers.append(f"(SELECT {quote(obj._meta.pk.column)} FROM w{i})")
        clauses.append(f"w{i} AS ({sql} RETURNING {quote(obj._meta.pk.column)})")
    with connection.cursor() as cursor:
        cursor.execute(f"WITH {', '.join(clauses)} SELECT {', '.join(answers)}", params)
        row = cursor.fetchone()
    for write, answer in zip(writes, row, strict=True):
        if isinstance(write, tuple):
            if answer != 1:
                raise DatabaseError(f"{write[0]._meta.label} {write[0].pk}: the update changed {answer} rows, not 1.")
            _saved(write[0], using)
        else:
            write.pk = answer
            _saved(write, using)
