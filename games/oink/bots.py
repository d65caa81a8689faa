"""Oink! bots: human-like reaction times per difficulty, occasional wrong cries.

A bot sees only its view: the revealed top two cards, never a deck. Its plan
for a pile state (does it notice, how fast, which cry) comes from a
``random.Random`` seeded with that pile state and its seat, so asking it again
after every event (games.core.playout does) never re-rolls the plan, and
``delay_ms`` is the time left until the planned slap: revealed_at + reaction − now.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import lru_cache

from games.core.bots import Bot, RandomBot
from games.oink.cards import CRIES, correct_cry

REACTION_FLOOR_MS = 150
"""Nobody, bot or human, reacts faster than this to a card."""


@dataclass(frozen=True)
class Plan:
    cry: int | None      # the cry it will slap with, None = it will not slap
    slap_at: int         # ms on the table clock
    flip_after: int      # think time before flipping, from the moment flipping opens


@dataclass(frozen=True)
class Reflexes:
    """One difficulty: reaction times are log-normal around ``median_ms``."""

    median_ms: int
    spread: float        # sigma of log(reaction)
    miss: float          # chance of not noticing a slappable pile
    wrong_cry: float     # chance of slapping a slappable pile with the wrong cry
    false_alarm: float   # chance of slapping a pile that calls for nothing
    flip_ms: tuple[int, int]


@lru_cache(maxsize=4096)
def plan_for(kind: str, r: Reflexes, seat: int, pile_id: int, cards: tuple[int, ...], revealed_at: int) -> Plan:
    """The plan of bot ``kind`` in ``seat`` for one pile state (cached: bots are asked often)."""
    dice = random.Random(f"oink:{kind}:{seat}:{pile_id}:{cards}")
    reaction = max(REACTION_FLOOR_MS, round(dice.lognormvariate(math.log(r.median_ms), r.spread)))
    noticed, wrong, alarmed = dice.random() >= r.miss, dice.random() < r.wrong_cry, dice.random() < r.false_alarm
    flip_after = dice.randint(*r.flip_ms)
    other = dice.randrange(len(CRIES) - 1)
    cry = correct_cry(cards[0], cards[1] if len(cards) > 1 else None) if cards else None
    if cry is not None and noticed:
        planned = cry if not wrong else (other if other < cry else other + 1)
    elif cry is None and cards and alarmed:
        planned, reaction = other, reaction + r.median_ms // 2  # a double take before the mistake
    else:
        planned = None
    return Plan(planned, revealed_at + reaction, flip_after)


class OinkBot(Bot):
    def __init__(self, kind: str, reflexes: Reflexes, level: str, level_help: str):
        self.kind, self.reflexes, self.level, self.level_help = kind, reflexes, level, level_help

    def plan(self, view: dict) -> Plan:
        pile = view["pile"]
        cards = tuple(shown["card"] for shown in pile["top"])
        return plan_for(self.kind, self.reflexes, view["seat"], pile["id"], cards, pile["revealed_at"])

    def choose(self, view, legal, rng):
        plan = self.plan(view)
        if plan.cry is not None:
            slap = {"type": "slap", "cry": plan.cry, "pile": view["pile"]["id"]}
            if slap in legal:
                return slap
        if {"type": "flip"} in legal:
            return {"type": "flip"}
        return None

    def delay_ms(self, view, action, now_ms, rng):
        plan = self.plan(view)
        if action["type"] == "slap":
            return max(0, plan.slap_at - now_ms)
        return max(0, (view["flip_open_since"] or now_ms) + plan.flip_after - now_ms)


# Median reactions from the reveal on the server: the platform adds no think time to a real-time
# game's bots (the platform's bot driver), so these are what a player races. "hard" is the level
# near 400 ms that issue 15 asked for; a quick human reacts in about 250–350 ms.
EASY = Reflexes(median_ms=750, spread=0.25, miss=0.2, wrong_cry=0.12, false_alarm=0.03, flip_ms=(400, 1200))
SENSIBLE = Reflexes(median_ms=550, spread=0.2, miss=0.06, wrong_cry=0.06, false_alarm=0.015, flip_ms=(250, 700))
HARD = Reflexes(median_ms=400, spread=0.15, miss=0.02, wrong_cry=0.02, false_alarm=0.005, flip_ms=(150, 400))
# A first game's opponent (games/oink/coach.py): it leaves a newcomer seconds to read the
# hint and slap, never cries wrongly, and is not offered at tables (no level).
PATIENT = Reflexes(median_ms=3500, spread=0.2, miss=0.25, wrong_cry=0.0, false_alarm=0.0, flip_ms=(900, 1600))

BOTS = {
    "easy": OinkBot("easy", EASY, "Easy", "Slaps in about three quarters of a second and misses a few."),
    "sensible": OinkBot("sensible", SENSIBLE, "Sensible", "Slaps in about half a second, now and then wrongly."),
    "hard": OinkBot("hard", HARD, "Hard", "Slaps in about 0.4 s and seldom misses."),
    "patient": OinkBot("patient", PATIENT, "", "Slaps in about three and a half seconds: a first game's opponent."),
    "random": RandomBot(),
}
