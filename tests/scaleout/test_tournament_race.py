"""Two ``serve`` processes on PostgreSQL and Redis run one tournament: both
clocks seat the planned tables and play the bots, so tables of the same round
finish on both processes at once and both advance the tournament. Every
round is planned once and every planned table seated once (design.md
"Tournaments": one door, under the row lock, idempotent)."""
from __future__ import annotations

import secrets
import time
from pathlib import Path

import psycopg
import pytest

from tests.conftest import start_site, stop_site
from tests.scaleout.conftest import fresh_database
from tests.scaleout.test_ratings_race import finish, manage

pytestmark = pytest.mark.scaleout

PLAYERS = 8
ROUNDS = 2

SEED = f"""
from datetime import timedelta
from django.contrib.auth import get_user_model
from django.utils import timezone
from pigparlor.tournaments import services, spec
from pigparlor.tournaments.models import Tournament
# Piggy Piggy, the shortest whole match the engines offer (about 80 actions at 4
# seats, Pig Pile over 1,000): the race is in the finishing, whatever the game.
parsed = spec.tournament({{"stages": [{{"game": "piggypiggy", "format": "swiss", "table_size": 4,
                                      "rounds": {ROUNDS}}}]}})
cup = services.create_tournament(name="Race cup", starts_at=timezone.now() + timedelta(minutes=5),
                                 tournament_spec=parsed)
for n in range({PLAYERS}):
    user = get_user_model().objects.create_user(username=f"racer{{n}}")
    services.register(cup.pk, user)
    services.check_in(cup.pk, user)
# The start comes in a few seconds: both processes' clocks see it at once.
Tournament.objects.filter(pk=cup.pk).update(starts_at=timezone.now() + timedelta(seconds=3))
print(cup.pk)
"""

REPORT = """
from collections import Counter
from pigparlor.tables.models import Table
from pigparlor.tournaments.models import Result, Round, Tournament, TournamentTable
cup = Tournament.objects.get(name="Race cup")
rounds = list(Round.objects.filter(tournament=cup).order_by("index").values_list("index", flat=True))
planned = Counter(TournamentTable.objects.filter(round__tournament=cup).values_list("round__index", flat=True))
unseated = TournamentTable.objects.filter(round__tournament=cup, table__isnull=True).count()
tables = Table.objects.filter(title__startswith="Race cup").count()
results = Counter(Result.objects.filter(round__tournament=cup).values_list("round__index", flat=True))
print(cup.status, rounds, dict(planned), unseated, tables, dict(results))
"""


def status(url: str) -> str | None:
    with psycopg.connect(url) as db:
        row = db.execute("SELECT status FROM tournaments_tournament WHERE name = 'Race cup'").fetchone()
    return row[0] if row else None


@pytest.fixture
def racing_sites(scaleout_services, tmp_path_factory):
    """Two serves sharing a fresh database and Redis; seats pass to bots after 300 ms."""
    admin_url, redis_url = scaleout_services
    with fresh_database(admin_url, "pigparlor_tourney") as url:
        env = {"DATABASE_URL": url, "REDIS_URL": redis_url, "REDIS_PREFIX": f"tourney-{secrets.token_hex(4)}",
               "PIGPARLOR_SEAT_GRACE_MS": "300"}
        sites = []
        try:
            for name in ("a", "b"):
                sites.append(start_site(Path(tmp_path_factory.mktemp(f"race-{name}")), env))
            yield url, sites
        finally:
            for site in sites:
                stop_site(site)


def test_two_processes_finishing_tables_of_a_round_at_once_seat_the_next_round_once(racing_sites):
    url, sites = racing_sites
    finish(manage(url, "shell", "-c", SEED))
    deadline = time.monotonic() + 600
    # Polled straight from PostgreSQL: a `manage.py shell` every 2 s cost a core-second each.
    while time.monotonic() < deadline and status(url) not in ("finished", "cancelled"):
        time.sleep(1)  # a poll between reads of the fact (the tournament's status in PostgreSQL)
    report = finish(manage(url, "shell", "-c", REPORT))
    logs = "\n".join(site.log_path.read_text() for site in sites)
    expected = (f"finished {list(range(ROUNDS))} {dict.fromkeys(range(ROUNDS), PLAYERS // 4)} 0 "
                f"{ROUNDS * PLAYERS // 4} {dict.fromkeys(range(ROUNDS), PLAYERS)}")
    assert report == expected, report + "\n" + logs[-3000:]
    assert "Traceback" not in logs, logs[-3000:]
    # Both processes did the work: each one's clock moved bots at these tables.
    print("report:", report)
