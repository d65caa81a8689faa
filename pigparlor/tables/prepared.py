"""The one door's statements, compiled by the ORM once per connection (issue 14).

Every ``act`` locks its table row, logs the action and saves the table: three
statements whose SQL never changes, but which the ORM compiled again on every
call. Building the SELECT's column list, its converters and the two writes' SQL
was about half of the ORM thread's Python time per action (a py-spy profile of
the GIL holder, ``bench/tables.py --profile-gil``, docs/benchmarks.md); the
SQLite or PostgreSQL work itself is unchanged.

Here the ORM still writes the SQL and chooses the converters and the adapters
(``Field.get_db_prep_save``): only its result is remembered, per database
connection (each thread has its own), so the statements are exactly the ones the
ORM would have sent. What is skipped is the model's ``save()`` and the
``pre_save``/``post_save`` signals: nothing listens to them for these models, and
callers use these only where that holds (``services``).
"""
from __future__ import annotations

from django.db import connections
from django.db.models import Model
from django.db.transaction import TransactionManagementError

# Each connection's compiled statements live on the connection itself and go with it.
# (A module-level WeakKeyDictionary kept every connection alive: the converters are
# bound to its ``ops``, which refer back to it, and every HTTP request's thread has a
# connection of its own — 230 MB more after 200 tables were opened, issue 14.)
ATTRIBUTE = "_pigparlor_prepared"


def compiled_for(connection) -> dict:
    """``{(what, model, fields): compiled}`` of ``connection`` (a DatabaseWrapper)."""
    per_connection = connection.__dict__.get(ATTRIBUTE)
    if per_connection is None:
        per_connection = connection.__dict__[ATTRIBUTE] = {}
    return per_connection


def _compiled(connection, key, compile_):
    per_connection = compiled_for(connection)
    compiled = per_connection.get(key)
    if compiled is None:
        compiled = per_connection[key] = compile_()
    return compiled


def lock_row(model: type[Model], pk, using: str = "default"):
    """``model.objects.select_for_update().filter(pk=pk).first()`` inside the
    caller's transaction (PostgreSQL locks the row; SQLite's ``BEGIN IMMEDIATE``
    already holds the database), or None. A pk of the wrong type raises
    ``ValueError``/``TypeError`` as the ORM does."""
    connection = connections[using]
    if not connection.in_atomic_block:
        raise TransactionManagementError("lock_row is for inside a transaction")
    return _row(model, pk, using, lock=True)


def read_row(model: type[Model], pk, using: str = "default"):
    """``model.objects.filter(pk=pk).first()``, or None: the row as committed (a
    socket of another process reading the version it was just told of)."""
    return _row(model, pk, using, lock=False)


def _row(model: type[Model], pk, using: str, lock: bool):
    connection = connections[using]

    def compile_():
        queryset = model.objects.order_by().filter(pk=0)
        query = (queryset.select_for_update() if lock else queryset).query
        compiler = query.get_compiler(connection=connection)
        sql, _ = compiler.as_sql()
        columns = [column for column, _, _ in compiler.select]
        names = [column.target.attname for column in columns]
        return sql, list(compiler.get_converters(columns).items()), names

    sql, converters, names = _compiled(connection, ("lock" if lock else "read", model), compile_)
    value = model._meta.pk.get_db_prep_value(pk, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, [value])
        row = cursor.fetchone()
    if row is None:
        return None
    row = list(row)
    for index, (functions, expression) in converters:  # as SQLCompiler.apply_converters
        for convert in functions:
            row[index] = convert(row[index], expression, connection)
    return model.from_db(using, names, row)


def update_fields(instance: Model, fields: list[str], using: str = "default") -> None:
    """``instance.save(update_fields=fields)`` for a row known to exist, without
    ``save()`` or its signals."""
    connection = connections[using]
    meta = instance._meta
    key = ("update", type(instance), tuple(fields))

    def compile_():
        targets = [meta.get_field(name) for name in fields]
        quote = connection.ops.quote_name
        sql = (f"UPDATE {quote(meta.db_table)} SET "
               + ", ".join(f"{quote(field.column)} = %s" for field in targets)
               + f" WHERE {quote(meta.pk.column)} = %s")
        return sql, targets

    sql, targets = _compiled(connection, key, compile_)
    params = [field.get_db_prep_save(getattr(instance, field.attname), connection) for field in targets]
    params.append(meta.pk.get_db_prep_value(instance.pk, connection))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def insert(model: type[Model], values: dict, using: str = "default") -> None:
    """``model.objects.create(**values)`` (by attname: ``table_id``, not ``table``)
    without the instance, ``save()`` or its signals; fields not given take their
    defaults. Returns nothing: the new row's id is not read back."""
    connection = connections[using]
    key = ("insert", model, tuple(values))

    def compile_():
        fields = [field for field in model._meta.concrete_fields if not field.primary_key]
        unknown = set(values) - {field.attname for field in fields}
        if unknown:
            raise TypeError(f"{model.__name__} has no field {', '.join(sorted(unknown))}")
        quote = connection.ops.quote_name
        sql = (f"INSERT INTO {quote(model._meta.db_table)} ("
               + ", ".join(quote(field.column) for field in fields)
               + ") VALUES (" + ", ".join(["%s"] * len(fields)) + ")")
        return sql, fields

    sql, fields = _compiled(connection, key, compile_)
    params = [field.get_db_prep_save(values[field.attname] if field.attname in values else field.get_default(),
                                     connection) for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
