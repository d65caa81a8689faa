"""The engine contract every game implements, and the pure helpers they share.

Nothing in ``games.core`` (or in any game's ``engine.py`` / ``bots.py``) imports
Django: the platform calls the rules, never the other way round.
"""
from games.core.contract import Engine, IllegalAction, Option, Outcome, Progress, legal_match, ranks_from_scores
from games.core.rng import Rng

__all__ = ["Engine", "IllegalAction", "Option", "Outcome", "Progress", "Rng", "legal_match", "ranks_from_scores"]
