"""Seating the first round of a big tournament, and what it costs live tables.

    .venv/bin/python bench/tournaments.py [--players 512] [--live 16]

In one process, on a fresh SQLite file (the embedded default):

1. **Direct**: a 512-player Pig Pile elimination (tables of 4): ``advance``
   plans round 1 (128 tables) under the tournament's lock, then
   ``seat_next_table`` creates the tables one transaction each. Prints both times.
2. **Under the clock, beside live tables**: the same again in a second
   tournament, but started by the clock itself (``Clock.run`` with its
   ``clock_tick``, exactly as ``serve`` runs it) while ``--live`` Pig Pile
   tables of four bots play on (700 ms think time, the default). Prints how
   long seating took, and the stall it caused: the longest gap between two
   passes of the clock over the live tables, and the asyncio loop's lag,
   before and during the seating.

Measures only; never fails.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup(directory: Path) -> None:
    os.environ.update({"DATABASE_URL": f"sqlite:///{directory / 'bench.sqlite3'}",
                       "DJANGO_SETTINGS_MODULE": "pigparlor.settings", "DJANGO_DEBUG": "0"})
    os.environ.pop("REDIS_URL", None)
    # The seated players never connect here: keep their seats theirs (no bot takes over after the
    # grace), so the only live play is the --live tables'; and no per-host table limits.
    os.environ.update({"PIGPARLOR_SEAT_GRACE_MS": str(10 ** 9), "PIGPARLOR_MAX_UNFINISHED_TABLES": "100000",
                       "PIGPARLOR_TABLES_PER_MINUTE": "100000"})
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def make_tournament(name: str, players: int):
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from pigparlor.tournaments import services, spec
    from pigparlor.tournaments.models import Entry

    # The longest turn timer: the seated players never act here, and their tables must not start
    # timing them out (three timeouts and bots would play 128 tables, swamping the clock).
    parsed = spec.tournament({"stages": [{"game": "pigpile", "format": "elimination", "table_size": 4,
                                          "advance": 2, "options": {"turn_seconds": 600}}],
                              "capacity": {"min": 2, "max": 1024}})
    tournament = services.create_tournament(name=name, starts_at=timezone.now() + timedelta(minutes=5),
                                            tournament_spec=parsed)
    User = get_user_model()
    users = User.objects.bulk_create([User(username=f"{name}-{n}") for n in range(players)])
    Entry.objects.bulk_create([Entry(tournament=tournament, user=user, status=Entry.CHECKED_IN,
                                     rating=1500 + (n * 37) % 400) for n, user in enumerate(users)])
    return tournament


def start_now(tournament) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from pigparlor.tournaments.models import Tournament

    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))


def direct(players: int) -> None:
    from pigparlor.tournaments import services
    from pigparlor.tournaments.models import TournamentTable

    tournament = make_tournament("direct", players)
    start_now(tournament)
    began = time.perf_counter()
    services.advance(tournament.pk)
    planned = time.perf_counter()
    seated = 0
    slowest = 0.0
    while True:
        one = time.perf_counter()
        if not services.seat_next_table():
            break
        slowest = max(slowest, time.perf_counter() - one)
        seated += 1
    done = time.perf_counter()
    assert TournamentTable.objects.filter(round__tournament=tournament, table__isnull=False).count() == seated
    # Done with: the tournament is called off and its tables stop, so they do not load the clock next.
    from pigparlor.tables.models import Table

    services.cancel_tournament(tournament.pk, "benchmark over")
    Table.objects.filter(tournament_table__round__tournament=tournament).update(status="aborted", wake_at_ms=None)
    print(f"direct: {players} players → {seated} tables; plan (advance, one transaction) "
          f"{(planned - began) * 1000:.0f} ms; seat {seated} tables {(done - planned):.2f} s "
          f"({seated / (done - planned):.1f} tables/s, slowest table {slowest * 1000:.0f} ms); "
          f"total {(done - began):.2f} s")


def live_tables(count: int) -> None:
    from django.contrib.auth import get_user_model

    from pigparlor.tables import services as tables
    from pigparlor.tables.models import Seat

    host = get_user_model().objects.create_user(username="live-host")
    for _ in range(count):
        table = tables.create_table(host=None, players=[host], game="pigpile", seats=4, bots=3)
        Seat.objects.filter(table=table, index=0).update(replaced=True)  # a bot plays the host's seat too
    from pigparlor.tables import presence

    presence.wake_all()


async def under_clock(players: int, live: int) -> None:
    from channels.db import database_sync_to_async

    from pigparlor.tables import clock
    from pigparlor.tournaments.models import TournamentTable

    passes: list[float] = []
    original = clock.run_due_async  # the clock's pass over the due tables (Clock.run)

    async def timed_run_due():
        passes.append(time.perf_counter())
        return await original()

    clock.run_due_async = timed_run_due
    lags: list[tuple[float, float]] = []

    async def ticker():
        while True:
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append((before, time.perf_counter() - before - 0.01))

    tournament = await database_sync_to_async(make_tournament)("clocked", players)
    await database_sync_to_async(live_tables)(live)
    tasks = [asyncio.create_task(clock.CLOCK.run()), asyncio.create_task(ticker())]
    await asyncio.sleep(10)
    baseline_end = time.perf_counter()
    await database_sync_to_async(start_now)(tournament)

    def unseated() -> int:
        return TournamentTable.objects.filter(round__tournament=tournament, table__isnull=True).count()

    def planned() -> int:
        return TournamentTable.objects.filter(round__tournament=tournament).count()

    while await database_sync_to_async(planned)() == 0 or await database_sync_to_async(unseated)():
        await asyncio.sleep(0.05)
    seated_at = time.perf_counter()
    await asyncio.sleep(2)
    for task in tasks:
        task.cancel()
    await asyncio.sleep(1)
    clock.run_due_async = original

    def gaps(start, end):
        inside = [at for at in passes if start <= at <= end]
        return [b - a for a, b in zip(inside, inside[1:])]

    first = passes[0]
    before, during = gaps(first, baseline_end), gaps(baseline_end, seated_at)
    lag_before = [lag for at, lag in lags if at <= baseline_end]
    lag_during = [lag for at, lag in lags if baseline_end < at <= seated_at]

    def p(values, q):
        return statistics.quantiles(values, n=100, method="inclusive")[q - 1] * 1000 if len(values) > 2 else float("nan")

    def top(values):
        return max(values) * 1000 if values else float("nan")

    print(f"under the clock beside {live} live 4-bot Pig Pile tables: seated {players // 4} tables in "
          f"{seated_at - baseline_end:.2f} s after the start")
    print(f"  clock passes over the live tables: before seating {len(before)} gaps, max {top(before):.0f} ms, "
          f"p99 {p(before, 99):.0f} ms; during seating {len(during)} gaps, max {top(during):.0f} ms, "
          f"p99 {p(during, 99):.0f} ms")
    print(f"  asyncio loop lag (10 ms ticker): before p99 {p(lag_before, 99):.0f} ms max "
          f"{top(lag_before):.0f} ms; during p99 {p(lag_during, 99):.0f} ms max {top(lag_during):.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=512)
    parser.add_argument("--live", type=int, default=16)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pigparlor-bench-") as directory:
        setup(Path(directory))
        print(f"load average before: {os.getloadavg()[0]:.1f}")
        direct(args.players)
        asyncio.run(under_clock(args.players, args.live))
        print(f"load average after: {os.getloadavg()[0]:.1f}", flush=True)
        os._exit(0)  # worker threads may still hold after-commit broadcasts for the stopped loop


if __name__ == "__main__":
    main()
