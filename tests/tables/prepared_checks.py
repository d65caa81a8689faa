"""The checks of ``pigparlor.tables.prepared`` against the ORM, run on SQLite by
``test_prepared.py`` and on PostgreSQL by ``tests/scaleout/test_prepared_postgres.py``
(a ``manage.py shell`` there). Each compares a prepared statement with what the
ORM reads and writes for the same row."""
import datetime

from django.db import connection, connections, transaction
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from pigparlor.tables import prepared
from pigparlor.tables.models import ActionLog, Table


def fields_of(row) -> dict:
    return {field.attname: getattr(row, field.attname) for field in type(row)._meta.concrete_fields}


def check_all(user) -> None:
    table = Table.objects.create(game="pigpile", seats=4, seed=7, options={"turn_seconds": 30, "ünï": [1, None]},
                                 state={"deck": [[1, "a"]], "log": [{"text": "«{seat:0}»"}]}, version=3,
                                 started_at=timezone.now(), started_at_ms=1, changed_at_ms=2, wake_at_ms=None)
    with transaction.atomic():
        locked = prepared.lock_row(Table, table.pk)
        assert fields_of(locked) == fields_of(Table.objects.get(pk=table.pk))
        assert locked._state.adding is False and locked._state.db == "default"
        assert fields_of(prepared.read_row(Table, table.pk)) == fields_of(locked)
        assert prepared.read_row(Table, table.pk + 1000) is None
        assert prepared.lock_row(Table, table.pk + 1000) is None
        assert prepared.lock_row(Table, None) is None  # as filter(pk=None): no row
        for bad in ("x", [1]):
            try:
                prepared.lock_row(Table, bad)
            except (ValueError, TypeError):
                pass
            else:
                raise AssertionError(f"lock_row took {bad!r}")
        if connection.vendor == "postgresql":
            sql = prepared.compiled_for(connections["default"])[("lock", Table)][0]
            assert sql.endswith("FOR UPDATE"), sql

        locked.version, locked.state, locked.outcome = 4, {"deck": [], "é": True}, {"ranks": [1, 2]}
        locked.finished_at = datetime.datetime(2026, 12, 1, 12, 30, 5, 123456, tzinfo=datetime.UTC)
        locked.wake_at_ms = 12345678901234
        prepared.update_fields(locked, ["version", "state", "outcome", "finished_at", "wake_at_ms"])
        prepared.insert(ActionLog, {"table_id": table.pk, "version": 4, "seat": None, "action": {"type": "é"},
                                    "at_ms": 99, "user_id": user.pk})
    saved = Table.objects.get(pk=table.pk)
    assert (saved.version, saved.state, saved.outcome, saved.finished_at, saved.wake_at_ms) == (
        4, {"deck": [], "é": True}, {"ranks": [1, 2]}, locked.finished_at, 12345678901234)
    assert (saved.title, saved.options, saved.seed) == ("", table.options, 7)  # fields not named are left alone
    logged = ActionLog.objects.get(table=table, version=4)
    assert (logged.seat, logged.action, logged.at_ms, logged.user_id, logged.state_sha) == (
        None, {"type": "é"}, 99, user.pk, "")  # state_sha: its default

    saved.outcome = None
    with transaction.atomic():
        prepared.update_fields(saved, ["outcome"])
    assert Table.objects.get(pk=table.pk).outcome is None  # SQL NULL, as the ORM writes a None

    try:
        prepared.lock_row(Table, table.pk)  # outside a transaction a lock would end at once
    except TransactionManagementError:
        pass
    else:
        raise AssertionError("lock_row outside a transaction")
    try:
        prepared.insert(ActionLog, {"table_id": table.pk, "verison": 5, "at_ms": 1, "action": {}})
    except TypeError as error:
        assert "verison" in str(error)
    else:
        raise AssertionError("insert took an unknown field")


def check_connections_are_not_kept() -> None:
    """A thread's connection goes when the thread does, its compiled statements with it
    (every HTTP request has a thread and a connection of its own)."""
    import gc
    import threading
    import weakref

    kept = []

    def request():
        with transaction.atomic():
            prepared.lock_row(Table, 1)
        kept.append(weakref.ref(connections["default"]))
        connections["default"].close()

    worker = threading.Thread(target=request)
    worker.start()
    worker.join()
    gc.collect()
    assert kept and kept[0]() is None, "the thread's connection is still alive"
