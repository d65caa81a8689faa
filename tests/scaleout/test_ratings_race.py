"""Two processes rating the same finished tables at the same moment, on
PostgreSQL: every table is rated exactly once (one event per player per table)
and the stored ratings equal a replay (design.md "Ratings")."""
from __future__ import annotations

import os
import subprocess
import sys
import time

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

# Each process waits for the same moment, then sweeps: both walk the same list of unrated tables.
SWEEP = """
import os, time
from pigparlor.ratings.service import rate_unrated
time.sleep(max(0, float(os.environ["START_AT"]) - time.time()))
print(rate_unrated())
"""

REPORT = """
from django.db.models import Count
from pigparlor.ratings.models import RatingEvent
from pigparlor.tables.models import Table
per_table = {t.pk: len({s.user_id or s.bot_kind for s in t.seat_set.all()}) for t in Table.objects.filter(game="snout")}
events = dict(RatingEvent.objects.values_list("table_id").annotate(n=Count("id")))
print(sum(1 for table_id, players in per_table.items() if events.get(table_id) != players))
"""


def manage(database_url: str, *args: str, env: dict | None = None, **popen) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(ROOT / "manage.py"), *args], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "DATABASE_URL": database_url,
                                 "DJANGO_SETTINGS_MODULE": "pigparlor.settings", **(env or {})})


def finish(process: subprocess.Popen) -> str:
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    return out.strip().splitlines()[-1]  # the shell may print a line of its own first


def test_two_processes_sweeping_at_once_rate_each_table_exactly_once(scaleout_database):
    finish(manage(scaleout_database, "shell", "-c", SEED))
    start_at = str(time.time() + 4)
    sweeps = [manage(scaleout_database, "shell", "-c", SWEEP, env={"START_AT": start_at}) for _ in range(2)]
    rated = [int(finish(process)) for process in sweeps]
    assert sum(rated) == TABLES, rated  # between them, each table once
    print("tables rated by each process:", rated)
    assert finish(manage(scaleout_database, "shell", "-c", REPORT)) == "0"
    assert "ratings match" in finish(manage(scaleout_database, "ratings", "--check"))
