"""Wall-clock time for tables, in epoch milliseconds.

Engines never see this clock: they get ms since the table started
(docs/platform.md §1). ``skip_ahead`` moves this clock forward for tests that
fast-forward through turn timers and bot think times instead of sleeping.
"""
import time

_skipped_ms = 0


def epoch_ms() -> int:
    return int(time.time() * 1000) + _skipped_ms


def skip_ahead(ms: int) -> None:
    global _skipped_ms
    _skipped_ms += max(0, int(ms))


def to_engine_ms(table, at_ms: int) -> int:
    return at_ms - table.started_at_ms


def to_epoch_ms(table, engine_ms: int | None) -> int | None:
    return None if engine_ms is None else table.started_at_ms + engine_ms
