"""Bot policies: the interface every game's ``bots.py`` implements.

A bot sees exactly what its seat's player sees (``view`` and ``legal``), never
the state. It picks only from ``legal``. Each game's ``bots.py`` exposes
``BOTS``, a dict from kind name ("random", "sensible", ...) to a ``Bot``.

Levels: the bots a player may pick at table creation are those with a
``level`` (the word the lobby shows; the seat is named after the kind, "Easy
bot 3"). ``BOTS`` lists them easiest first; every game offers "sensible" (the
default) and at least one more. A bot without a level (``random``) is for
simulations and tests only.
"""
from __future__ import annotations

import random

DEFAULT_LEVEL = "sensible"


class Bot:
    kind = "bot"
    level = ""       # the level's name as players read it ("Easy"); empty: not offered at tables
    level_help = ""  # one short sentence on how it plays

    def choose(self, view: dict, legal: list[dict], rng: random.Random) -> dict | None:
        """The action to take now, or None to wait (e.g. nothing worth slapping)."""
        raise NotImplementedError

    def delay_ms(self, view: dict, action: dict, now_ms: int, rng: random.Random) -> int:
        """How long after ``now_ms`` the bot acts (its reaction time). 0 for turn-based play;
        the platform adds its own think-time setting on top."""
        return 0


class RandomBot(Bot):
    """Picks uniformly among the legal actions, acting whenever it may."""

    kind = "random"

    def choose(self, view, legal, rng):
        return rng.choice(legal) if legal else None


class CarelessBot(Bot):
    """An easier level of a game's own policy: ``slip`` of the time it plays any legal action
    instead of its best. Still only legal actions, and as deterministic as the rng it is given."""

    level = "Easy"

    def __init__(self, policy: Bot, slip: float, kind: str = "easy", level_help: str = ""):
        self.policy, self.slip, self.kind = policy, slip, kind
        self.level_help = level_help or f"Plays like the sensible bot, but picks any legal move {slip:.0%} of the time."

    def choose(self, view, legal, rng):
        if legal and rng.random() < self.slip:
            return rng.choice(legal)
        return self.policy.choose(view, legal, rng)

    def delay_ms(self, view, action, now_ms, rng):
        return self.policy.delay_ms(view, action, now_ms, rng)
