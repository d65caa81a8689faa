"""Wall-clock time for tables, in epoch milliseconds (tests may patch ``epoch_ms``).

Engines never see this clock: they get ``engine_now(table)``, ms since the table
started (docs/platform.md §1).
"""
import time


def epoch_ms() -> int:
    return int(time.time() * 1000)


def to_engine_ms(table, at_ms: int) -> int:
    return at_ms - table.started_at_ms


def to_epoch_ms(table, engine_ms: int | None) -> int | None:
    return None if engine_ms is None else table.started_at_ms + engine_ms
