"""Users and tables in the test database, the clock driven by hand, and bot games rendered
without a database."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils import timezone

PASSWORD = "a-long-test-password"


def make_user(name: str):
    return get_user_model().objects.create_user(username=name, password=PASSWORD)


def table(table_id: int):
    from pigparlor.tables.models import Table

    return Table.objects.get(pk=table_id)


def step_clock(table_id: int) -> bool:
    """Run what the clock has due; if nothing is due yet, skip time ahead to the
    table's next wake-up first. False once the table has nothing left to wake for."""
    from pigparlor.tables import clock, timing
    from pigparlor.tables.models import RUNNING

    current = table(table_id)
    if current.status != RUNNING or current.wake_at_ms is None:
        return False
    gap = current.wake_at_ms - timing.epoch_ms()
    if gap > 0:
        timing.skip_ahead(gap)
    clock.run_due()
    return True


def state_at(table_id: int, version: int):
    """The engine state a table had at ``version``, replayed from its seed and log."""
    from pigparlor.tables import replay

    return replay.rebuild(table(table_id), cached=False).state(version)


def finished_table(players: list, ranks: list[int], *, game: str = "snout", scores: list | None = None,
                   left=(), left_early=(), rated: bool = True, title: str = "", finished_at=None):
    """A finished table written straight to the database (no game played): ``players[seat]``
    is a user, or a bot kind (a str; None is a "sensible" bot)."""
    from pigparlor.tables.models import FINISHED, Seat, Table

    players = ["sensible" if who is None else who for who in players]
    created = Table.objects.create(
        game=game, title=title, seats=len(players), status=FINISHED, rated=rated, seed=1, version=2,
        finished_at=finished_at or timezone.now(),
        outcome={"ranks": list(ranks), "scores": list(scores or [0] * len(players)), "left": list(left),
                 "left_early": list(left_early)})
    Seat.objects.bulk_create(
        Seat(table=created, index=index, user=None if isinstance(who, str) else who,
             bot_kind=who if isinstance(who, str) else "", replaced=index in left)
        for index, who in enumerate(players))
    return created


def played_table(host, *, seats: int = 3, bots: int = 1, others=()):
    """A count-to-ten table (the ``count_game`` fixture) played out by the clock; ``others``
    take the free seats first."""
    from pigparlor.tables import services
    from pigparlor.tables.models import FINISHED, RUNNING

    created = services.create_table(host=host, game="countgame", seats=seats, bots=bots, options={"turn_seconds": 5})
    for user in others:
        services.join_table(created, user)
    created.refresh_from_db()
    assert created.status == RUNNING
    while step_clock(created.pk):
        pass
    created.refresh_from_db()
    assert created.status == FINISHED
    return created


def bot_game_snapshots(slug: str, seed: int, name: str = "Player {}") -> list:
    """``rendering.Snapshot``s of every state of a 4-seat bot game (sensible bots),
    with no database: an unsaved table, and seats whose players carry their profile
    as ``seats_of`` loads them (display names from ``name``). For the render tests
    and ``bench/render.py``."""
    from games.core.playout import play
    from games.core.registry import get_game
    from pigparlor.accounts.models import Profile
    from pigparlor.tables.models import RUNNING, Seat, Table
    from pigparlor.tables.rendering import Snapshot

    game = get_game(slug)
    base = Table(pk=1, game=slug, seats=4, status=RUNNING, seed=seed, rated=True,
                 options=game.engine.clean_options(None), started_at_ms=0, changed_at_ms=0)
    users = [get_user_model()(pk=index + 1, username=f"player{index + 1}") for index in range(4)]
    for user in users:
        user.profile = Profile(user=user, display_name=name.format(user.pk))
    seats = tuple(Seat(table=base, index=index, user=user, connections=1) for index, user in enumerate(users))
    states: list = []
    play(game.engine, [game.bots["sensible"]] * 4, seed, base.options,
         on_step=lambda state, *_: states.append(state))
    snapshots = []
    for version, state in enumerate(states, start=1):
        at = Table(**{field.attname: getattr(base, field.attname) for field in Table._meta.concrete_fields})
        at.version = version
        snapshots.append(Snapshot(at, seats, state))
    return snapshots


def next_step(table_id: int, rng):
    """One step of a two-human table's game (seats 0 and 1), decided in one trip to the
    database: None when it is over, a human's (seat, version, action) to send through their
    socket (``rng``: a ``random.Random``), or the clock's turn (done here, skipping ahead to
    its next wake-up)."""
    from games.core.registry import get_game
    from pigparlor.tables.models import RUNNING

    current = table(table_id)
    if current.status != RUNNING:
        return None
    engine = get_game(current.game).engine
    state = engine.load(current.state)
    movers = [(seat, legal) for seat in (0, 1) if (legal := engine.legal_actions(state, seat))]
    if movers and (rng.random() < 0.5 or current.wake_at_ms is None):
        seat, legal = rng.choice(movers)
        return seat, current.version, rng.choice(legal)
    step_clock(table_id)
    return "clock"
