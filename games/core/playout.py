"""Bot-only playouts through the engine contract: a small discrete-event loop.

Used by ``manage.py simulate``, ``bench/engine.py`` and the property tests.
Each step asks every seat's bot what it would do and when; the earliest bot
move or the engine's next deadline (the clock) happens first. Ties go to the
clock, then to the lower seat.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from games.core.bots import Bot
from games.core.contract import Engine, IllegalAction, Outcome


@dataclass
class Playout:
    state: object
    outcome: Outcome | None
    actions: int = 0
    illegal: int = 0
    now_ms: int = 0
    log: list = field(default_factory=list)  # (seat, action, now_ms) for replay


class PlayoutStuck(RuntimeError):
    """No seat can act and no deadline is set, yet the game is not over."""


def play(engine: Engine, bots: list[Bot], seed: int, options: dict | None = None,
         max_actions: int = 100_000, keep_log: bool = False, on_step=None, dice: int | None = None) -> Playout:
    """Play ``seed``'s deal out with one bot per seat. ``dice`` seeds the bots' own random
    choices (by default the deal's seed too)."""
    seats = len(bots)
    state = engine.start(seats, seed, options)
    rng = random.Random(seed if dice is None else dice)
    result = Playout(state, None)
    while (outcome := engine.outcome(state)) is None:
        if result.actions >= max_actions:
            raise PlayoutStuck(f"{engine.slug} seed {seed}: no outcome after {max_actions} actions")
        move: tuple[int, int | None, dict] | None = None
        for seat in range(seats):
            legal = engine.legal_actions(state, seat)
            if not legal:
                continue
            view = engine.view(state, seat)
            action = bots[seat].choose(view, legal, rng)
            if action is None:
                continue
            at = result.now_ms + max(0, bots[seat].delay_ms(view, action, result.now_ms, rng))
            if move is None or at < move[0]:
                move = (at, seat, action)
        deadline = engine.next_deadline(state)
        if deadline is not None and (move is None or deadline <= move[0]):
            move = (max(deadline, result.now_ms), None, {"type": "clock"})
        if move is None:
            raise PlayoutStuck(f"{engine.slug} seed {seed}: nobody can act and no deadline")
        at, mover, action = move
        result.now_ms = at
        try:
            state = engine.apply(state, mover, action, at)
        except IllegalAction:
            if mover is None:
                raise
            result.illegal += 1
            # A refused bot move must not loop forever: let time pass to the deadline.
            if deadline is None:
                raise
            state = engine.apply(state, None, {"type": "clock"}, max(deadline, at))
            result.now_ms = max(deadline, at)
            action, mover, at = {"type": "clock"}, None, result.now_ms
        result.actions += 1
        if keep_log:
            result.log.append((mover, action, at))
        if on_step is not None:
            on_step(state, mover, action, at)
    result.state, result.outcome = state, outcome
    return result


def replay(engine: Engine, seats: int, seed: int, options: dict | None, log) -> object:
    """The state reached by applying a logged playout from its seed."""
    state = engine.start(seats, seed, options)
    for seat, action, at in log:
        state = engine.apply(state, seat, action, at)
    return state


def option_mixes(engine: Engine, fixed: dict | None = None) -> list[dict]:
    """Every combination of the game's yes/no and choice options (in declaration order); the
    whole-number options, and any option named in ``fixed``, keep ``fixed``'s value or their default."""
    fixed = fixed or {}
    mixes: list[dict] = [{}]
    for option in engine.options:
        if option.name in fixed or option.kind == "int":
            values = [fixed.get(option.name, option.default)]
        else:
            values = [False, True] if option.kind == "bool" else list(option.choices)
        mixes = [{**mix, option.name: value} for mix in mixes for value in values]
    return mixes


def simulate(engine: Engine, bots_by_kind: dict[str, Bot], kinds: list[str], games: int, seed: int,
             options: dict | None = None) -> dict:
    """Play ``games`` bot games (seeds ``seed``, ``seed + 1``, …) and summarise them.

    ``kinds`` names one bot kind per seat; game ``i`` rotates the kinds by ``i``
    seats so no kind keeps the first seat. A win is a rank of 1; a shared first
    place splits the win. ``illegal`` counts bot choices ``apply`` refused.
    """
    import time

    seats = len(kinds)
    wins = {kind: 0.0 for kind in kinds}
    seat_games = {kind: 0 for kind in kinds}
    finished = illegal = actions = 0
    failures: list[str] = []
    started = time.perf_counter()
    for index in range(games):
        shift = index % seats
        order = kinds[shift:] + kinds[:shift]
        try:
            result = play(engine, [bots_by_kind[kind] for kind in order], seed + index, options)
        except (PlayoutStuck, IllegalAction) as error:
            failures.append(f"seed {seed + index}: {error}")
            continue
        finished += 1
        illegal += result.illegal
        actions += result.actions
        assert result.outcome is not None  # play() returns only once the game is over
        firsts = [seat for seat, rank in enumerate(result.outcome.ranks) if rank == 1]
        for seat in firsts:
            wins[order[seat]] += 1 / len(firsts)
        for kind in order:
            seat_games[kind] += 1
    seconds = time.perf_counter() - started
    return {
        "game": engine.slug,
        "games": games,
        "seats": seats,
        "options": engine.clean_options(options),
        "bots": kinds,
        "finished": finished,
        "illegal": illegal,
        "failures": failures[:5],
        "actions": actions,
        "seconds": round(seconds, 3),
        "games_per_s": round(finished / seconds, 1) if seconds else None,
        "actions_per_s": round(actions / seconds, 1) if seconds else None,
        "wins": {kind: round(value, 1) for kind, value in wins.items()},
        # Share of games won by one seat of that kind (1/seats if all kinds were equal).
        "win_share_per_seat": {
            kind: round(wins[kind] / seat_games[kind] * kinds.count(kind), 4) if seat_games[kind] else None
            for kind in wins
        },
    }
