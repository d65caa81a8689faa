"""Tournaments for the page tests, built through the core's services, reusing
the core's test helpers (tests/tournaments/helpers.py). Two differences:
``make_tournament`` takes a ``prefix`` so one test can fill several
tournaments, and ``play_round`` advances the tournament itself, because these
tests run in a transaction that never commits (no ``table_finished`` signal)."""
from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from pigparlor.tournaments import services, spec
from tests.tables.helpers import make_user
from tests.tournaments import helpers as core


def make_tournament(stages, *, players=0, minimum=2, maximum=64, conditions=None,
                    starts_in=timedelta(minutes=5), name="Trough cup", prefix="p"):
    parsed = spec.tournament({"stages": stages, "capacity": {"min": minimum, "max": maximum},
                              "conditions": conditions or {}, "rated": True})
    tournament = services.create_tournament(name=name, starts_at=timezone.now() + starts_in, tournament_spec=parsed)
    users = [make_user(f"{prefix}{n:02d}") for n in range(players)]
    for user in users:
        services.register(tournament.pk, user)
    return tournament, users


def start_now(tournament, users) -> None:
    """Everyone checks in and the start time comes."""
    core.check_everyone_in(tournament, users)
    core.start_now(tournament)


def play_round(tournament, rng) -> None:
    for table_id in core.running_tables(tournament):
        core.play_table(table_id, rng)
    services.advance(tournament.pk)
    core.seat_all()


def play_out(tournament, rng) -> None:
    for _ in range(50):
        tournament.refresh_from_db()
        if tournament.status != "running":
            return
        play_round(tournament, rng)
    raise AssertionError("the tournament did not finish")
