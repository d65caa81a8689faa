"""The one door's cost in-process: ``services.act`` on a fresh database, no sockets.

    .venv/bin/python bench/act.py [--tables 20] [--actions 3000] [--profile 25]

Migrates a fresh SQLite file (or the database ``DATABASE_URL`` names), opens
``--tables`` 4-seat Pig Pile tables of four players, and plays random legal
moves through ``act`` as the sockets do (each seat's own user, the version it
saw), round robin over the tables, in one thread. Prints the CPU ms and wall ms
per action and the queries per action; ``--profile N`` prints cProfile's top N.
The group messages the commits queue go nowhere (no channel layer). Measures only.
"""
import argparse
import cProfile
import os
import pstats
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
directory = tempfile.mkdtemp(prefix="pp-act-")
os.environ.setdefault("DATABASE_URL", f"sqlite:///{directory}/act.sqlite3")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pigparlor.settings")
os.environ.setdefault("DJANGO_DEBUG", "0")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from games.core.registry import get_game  # noqa: E402
from pigparlor.tables import services  # noqa: E402
from pigparlor.tables.models import Table  # noqa: E402

settings.CHANNEL_LAYERS = {}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--profile", type=int, default=0)
    parser.add_argument("--show-sql", action="store_true", help="print the last action's statements")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    engine = get_game("pigpile").engine
    users = [get_user_model().objects.create_user(f"p{index}", password=None) for index in range(4 * args.tables)]
    tables = []
    for index in range(args.tables):
        players = users[4 * index:4 * index + 4]
        table = services.create_table(host=players[0], game="pigpile", seats=4, players=players[1:],
                                      options={"turn_seconds": 600})
        tables.append((table.pk, players))
    rng = random.Random(1)

    def one_round(count):
        done = 0
        while done < count:
            for table_id, players in tables:
                table = Table.objects.get(pk=table_id)
                if table.status != "running":
                    continue
                state = engine.load(table.state)
                movers = [(seat, engine.legal_actions(state, seat)) for seat in range(4)]
                seat, legal = rng.choice([mover for mover in movers if mover[1]])
                services.act(table_id, seat, rng.choice(legal), table.version, user=players[seat])
                done += 1
        return done

    one_round(200)  # warm the caches
    statements = []

    def count(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    cpu, wall = time.process_time(), time.perf_counter()
    # Only the act calls are timed: the chooser's own reads are subtracted below.
    profiler = cProfile.Profile() if args.profile else None
    done = 0
    act_cpu = 0.0
    act_queries = 0
    original = services.act

    def timed_act(*a, **k):
        nonlocal act_cpu, act_queries
        before, queries = time.process_time(), len(statements)
        if profiler:
            profiler.enable()
        try:
            return original(*a, **k)
        finally:
            if profiler:
                profiler.disable()
            act_cpu += time.process_time() - before
            act_queries += len(statements) - queries

    services.act = timed_act
    with connection.execute_wrapper(count):
        done = one_round(args.actions)
    services.act = original
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(f"# {done} actions over {args.tables} Pig Pile tables, {connection.vendor}")
    print("| actions | act CPU ms/action | queries/act | whole loop CPU ms/action |")
    print("|---:|---:|---:|---:|")
    print(f"| {done} | {act_cpu * 1000 / done:.3f} | {act_queries / done:.2f} | {cpu * 1000 / done:.3f} |")
    if args.show_sql:
        print("\n".join(statements[-int(round(act_queries / done)) - 1:]))
    if profiler:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(args.profile)


if __name__ == "__main__":
    main()
