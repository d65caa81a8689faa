"""Which bot seats move next, what they play, and when.

A bot's choice is a pure function of (table, version, seat): the rng is seeded
from those three, and its think time counts from the moment the version was
committed (``changed_at_ms``): the platform's think time
(``PIGPARLOR_BOT_DELAY_MS``, times the game's ``bot_think``) plus the bot's own delay — only its own in a
real-time game, where that delay is its reaction time and the level a player
picked (Oink!'s "hard" slaps about 400 ms after the reveal). So ``act`` can compute a table's next wake-up
when it commits, and the clock, waking later in any process, recomputes exactly
the same moves and fires the ones that are due.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from django.conf import settings

from pigparlor.tables.timing import to_engine_ms

# The policy that plays for a human who left or kept timing out.
STAND_IN = "sensible"


@dataclass(frozen=True)
class BotMove:
    due_ms: int  # epoch ms
    seat: int
    action: dict


def bot_kind(seat) -> str | None:
    if seat.bot_kind:
        return seat.bot_kind
    return STAND_IN if seat.replaced else None


def policy(game, kind: str):
    return game.bots.get(kind) or game.bots.get(STAND_IN) or game.bots["random"]


def bot_rng(table_id: int, version: int, seat: int) -> random.Random:
    return random.Random(f"{table_id}:{version}:{seat}")


def pending_bot_moves(game, table, state, seats) -> list[BotMove]:
    """The move each bot seat will make at this version, soonest first."""
    engine = game.engine
    base_ms = 0 if engine.realtime else round(settings.PIGPARLOR_BOT_DELAY_MS * game.bot_think)
    moves = []
    for seat in seats:
        kind = bot_kind(seat)
        if kind is None:
            continue
        legal = engine.legal_actions(state, seat.index)
        if not legal:
            continue
        bot = policy(game, kind)
        view = engine.view(state, seat.index)
        rng = bot_rng(table.pk, table.version, seat.index)
        action = bot.choose(view, legal, rng)
        if action is None:
            continue
        think = max(0, bot.delay_ms(view, action, to_engine_ms(table, table.changed_at_ms), rng))
        moves.append(BotMove(table.changed_at_ms + base_ms + think, seat.index, action))
    moves.sort(key=lambda move: (move.due_ms, move.seat))
    return moves
