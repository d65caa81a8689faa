"""Bot policies: the interface every game's ``bots.py`` implements.

A bot sees exactly what its seat's player sees (``view`` and ``legal``), never
the state. It picks only from ``legal``. Each game's ``bots.py`` exposes
``BOTS``, a dict from kind name ("random", "sensible", ...) to a ``Bot``.
"""
from __future__ import annotations

import random


class Bot:
    kind = "bot"

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
