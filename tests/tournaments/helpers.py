"""Helpers for the tournament tests: a tournament built through the services,
its start brought forward, and its tables played out in-process through the
tables' one door (humans pick random legal actions, the clock does the rest)."""
from __future__ import annotations

import random
from datetime import timedelta

from django.utils import timezone

from games.core.registry import get_game
from pigparlor.tables import services as tables
from pigparlor.tables.models import RUNNING, Table
from pigparlor.tournaments import services, spec
from pigparlor.tournaments.models import Tournament, TournamentTable
from tests.support.tables import make_user, step_clock


def make_tournament(stages, *, players=0, minimum=2, maximum=64, rated=True, conditions=None,
                    starts_in=timedelta(minutes=5), name="Test cup", prefix="p") -> tuple[Tournament, list]:
    """``prefix`` names the players (p00, p01…): another lets one test fill several tournaments."""
    parsed = spec.tournament({"stages": stages, "capacity": {"min": minimum, "max": maximum},
                              "conditions": conditions or {}, "rated": rated})
    tournament = services.create_tournament(name=name, starts_at=timezone.now() + starts_in, tournament_spec=parsed)
    users = [make_user(f"{prefix}{n:02d}") for n in range(players)]
    for user in users:
        services.register(tournament.pk, user)
    return tournament, users


def check_everyone_in(tournament, users) -> None:
    for user in users:
        services.check_in(tournament.pk, user)


def start_now(tournament) -> None:
    """The start time arrives: what the clock does at ``starts_at``."""
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    services.advance(tournament.pk)
    seat_all()


def seat_all() -> int:
    seated = 0
    while services.seat_next_table():
        seated += 1
    return seated


def play_table(table_id: int, rng: random.Random, *, absent=()) -> Table:
    """Play a table to its end: every present human acts at random when they
    may; bots and timers go through the clock (time skipped ahead)."""
    while True:
        table = Table.objects.get(pk=table_id)
        if table.status != RUNNING:
            return table
        engine = get_game(table.game).engine
        state = engine.load(table.state)
        movers = [seat for seat in table.seat_set.select_related("user").order_by("index")
                  if seat.user_id and not seat.replaced and seat.user_id not in absent
                  and engine.legal_actions(state, seat.index)]
        if movers:
            seat = rng.choice(movers)
            action = rng.choice(engine.legal_actions(state, seat.index))
            try:
                tables.act(table_id, seat.index, action, table.version, user=seat.user)
            except tables.TableError:
                pass
        else:
            step_clock(table_id)


def near_the_end(table_id: int) -> None:
    """Set up a running Pig Pile table a few plays from its end, as a chess test starts from
    a FEN: the last round, two or three cards a hand and nothing to draw, so play_table
    ends it in a handful of actions instead of five whole rounds."""
    from django.db.models import F

    from games.pigpile.state import ROUNDS
    from pigparlor.tables import timing
    from tests.games.pigpile.position import position

    table = Table.objects.get(pk=table_id)
    engine = get_game(table.game).engine
    current = engine.load(table.state)
    hands = ["3 9", "5 W", "7 8 8", "2 12", "4 6", "10 11"][:current.seats]
    state = position(hands, round=ROUNDS, turn_seconds=current.turn_seconds, began_ms=timing.epoch_ms(),
                     seed=table.seed)
    Table.objects.filter(pk=table_id).update(state=engine.dump(state), version=F("version") + 1)


def running_tables(tournament) -> list[int]:
    return list(TournamentTable.objects.filter(round__tournament=tournament, table__status=RUNNING)
                .values_list("table_id", flat=True))


def play_round(tournament, rng, **kwargs) -> None:
    for table_id in running_tables(tournament):
        play_table(table_id, rng, **kwargs)
    seat_all()
