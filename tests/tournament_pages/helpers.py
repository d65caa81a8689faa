"""Tournaments for the page tests, built through the core's services, reusing
the core's test helpers (tests/tournaments/helpers.py). One difference:
``play_round`` advances the tournament itself, because these
tests run in a transaction that never commits (no ``table_finished`` signal)."""
from __future__ import annotations

from pigparlor.tournaments import services
from tests.tournaments import helpers as core


def make_tournament(stages, *, name="Trough cup", **kwargs):
    return core.make_tournament(stages, name=name, **kwargs)


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
