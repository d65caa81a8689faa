"""Two processes rating the same finished tables at the same moment, on
PostgreSQL: every table is decided exactly once (one event per person per
table), the repeat rule counts the same people's games of one day exactly three
times whichever process decides which, and the stored ratings and decisions
equal a replay (design.md "Ratings", docs/ratings.md)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.scaleout

TABLES = 60

SEED = f"""
from datetime import timedelta
from django.utils import timezone
from django.contrib.auth import get_user_model
from pigparlor.tables.models import FINISHED, Seat, Table
users = [get_user_model().objects.create_user(username=f"racer{{n}}") for n in range(8)]
for n in range({TABLES}):
    seats = 3 + n % 4
    players = [users[(n + k * 3) % 8] for k in range(seats - 1)] + ["sensible"]
    table = Table.objects.create(game="snout", seats=seats, status=FINISHED, rated=True, seed=n, version=2,
                                 finished_at=timezone.now() - timedelta(hours=25 * n),
                                 outcome={{"ranks": [1 + (k * 7 + n) % seats for k in range(seats)],
                                          "scores": [0] * seats, "left": [0] if n % 5 == 0 else []}})
    Seat.objects.bulk_create(Seat(table=table, index=i, user=None if isinstance(p, str) else p,
                                  bot_kind=p if isinstance(p, str) else "") for i, p in enumerate(players))
"""

# Each process says it is ready (Django loaded, connected), waits for the word "go", then sweeps:
# the test says it to both once both are ready, so both walk the same list of unrated tables.
SWEEP = """
import sys
from django.db import connection
from pigparlor.ratings.service import rate_unrated
connection.ensure_connection()
print("ready", flush=True)
assert sys.stdin.readline().strip() == "go"
print(rate_unrated())
"""

# Tables whose number of events is not their number of people (bots never move).
REPORT = """
from django.db.models import Count
from pigparlor.ratings.models import RatingEvent
from pigparlor.tables.models import Table
per_table = {t.pk: len({s.user_id for s in t.seat_set.all() if s.user_id}) for t in Table.objects.filter(game="snout")}
events = dict(RatingEvent.objects.values_list("table_id").annotate(n=Count("id")))
print(sum(1 for table_id, people in per_table.items() if events.get(table_id) != people))
"""

# Three groups of people, each with 8 tables finished within one hour: the repeat rule's ground.
SAME_PEOPLE = """
from datetime import timedelta
from django.utils import timezone
from django.contrib.auth import get_user_model
from pigparlor.tables.models import FINISHED, Seat, Table
users = [get_user_model().objects.create_user(username=f"regular{{n}}") for n in range(6)]
start = timezone.now() - timedelta(hours=2)
for n in range({TABLES}):
    group = users[2 * (n % 3):2 * (n % 3) + 2]
    table = Table.objects.create(game="snout", seats=3, status=FINISHED, rated=True, seed=n, version=2,
                                 finished_at=start + timedelta(minutes=2 * n),
                                 outcome={{"ranks": [1 + n % 3, 1 + (n + 1) % 3, 1 + (n + 2) % 3],
                                          "scores": [0, 0, 0], "left": [], "left_early": []}})
    Seat.objects.bulk_create([Seat(table=table, index=0, user=group[0]), Seat(table=table, index=1, user=group[1]),
                              Seat(table=table, index=2, bot_kind="easy")])
"""

# Per group of people: how many of its tables were rated (the rest: repeats).
COUNTED = """
from collections import Counter
from pigparlor.tables.models import Table
counted = Counter()
regulars = Table.objects.filter(game="snout", seat_set__user__username__startswith="regular").distinct()
for table in regulars.prefetch_related("seat_set"):
    if not table.outcome.get("unrated"):
        counted[tuple(sorted(s.user_id for s in table.seat_set.all() if s.user_id))] += 1
print(sorted(counted.values()))
"""


def manage(database_url: str, *args: str, env: dict | None = None, **popen) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(ROOT / "manage.py"), *args], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "DATABASE_URL": database_url,
                                 "DJANGO_SETTINGS_MODULE": "pigparlor.settings", **(env or {})}, **popen)


def race(database_url: str) -> list[int]:
    """Two sweeps started at one moment: each reads "go" only once both said "ready"."""
    sweeps = [manage(database_url, "shell", "-c", SWEEP, stdin=subprocess.PIPE) for _ in range(2)]
    for sweep in sweeps:
        for line in sweep.stdout:  # the shell may print a line of its own first
            if line.strip() == "ready":
                break
        else:
            raise AssertionError(sweep.stderr.read())
    for sweep in sweeps:
        sweep.stdin.write("go\n")
        sweep.stdin.flush()
    return [int(finish(sweep)) for sweep in sweeps]


def finish(process: subprocess.Popen) -> str:
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    return out.strip().splitlines()[-1]  # the shell may print a line of its own first


def test_two_processes_sweeping_at_once_rate_each_table_exactly_once(scaleout_database):
    finish(manage(scaleout_database, "shell", "-c", SEED))
    rated = race(scaleout_database)
    assert sum(rated) == TABLES, rated  # between them, each table once
    print("tables rated by each process:", rated)
    assert finish(manage(scaleout_database, "shell", "-c", REPORT)) == "0"
    assert "ratings match" in finish(manage(scaleout_database, "ratings", "--check"))


def test_two_processes_deciding_the_same_peoples_games_at_once_count_three_a_day(scaleout_database):
    finish(manage(scaleout_database, "shell", "-c", SAME_PEOPLE.format(TABLES=24)))
    decided = race(scaleout_database)
    assert sum(decided) == 24, decided  # each table decided once: rated, or a repeat
    assert finish(manage(scaleout_database, "shell", "-c", COUNTED)) == "[3, 3, 3]"
    assert finish(manage(scaleout_database, "shell", "-c", REPORT)) == "0"
    assert "ratings match" in finish(manage(scaleout_database, "ratings", "--check"))
