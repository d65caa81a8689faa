"""Each bot level's fixed rating per game, as the game declares it (``Game.bot_mu``).

Measured once by ``bench/bot_levels.py --games 400 --only ratings`` (seed 1): 400
bot-only games per game, an offline Plackett-Luce fit of their placings, put on
the rating scale with the Sensible bot — the default level and the stand-in for
players who leave — at mu 25 (1500). A bot seat takes part in a rated game at its
level's mu with ``scale.BOT_SIGMA``, and never moves (docs/ratings.md, "Bots").

These numbers are part of the rating rules: a new measurement changes the replay
of every table a bot of that level played, so it comes with a new
``service.RULES`` (the ratings are rebuilt under it). A level or game missing
there plays at 1500 (``UNMEASURED``): add it, measured, before it is played rated.
"""
from __future__ import annotations

from games.core.registry import UnknownGame, get_game
from pigparlor.ratings.scale import BOT_SIGMA, MODEL, Skill

UNMEASURED = Skill(MODEL.mu, BOT_SIGMA)


def measured_mu(game: str) -> dict[str, float]:
    """The game's measured bot levels (``Game.bot_mu``); none for a game not registered."""
    try:
        return get_game(game).bot_mu
    except UnknownGame:
        return {}


def bot_skills(game: str) -> dict[str, Skill]:
    """Each measured bot level's fixed skill in ``game`` (others play at ``UNMEASURED``)."""
    return {kind: Skill(mu, BOT_SIGMA) for kind, mu in measured_mu(game).items()}


def bot_skill(game: str, kind: str) -> Skill:
    return bot_skills(game).get(kind, UNMEASURED)


def measured(game: str, kind: str) -> bool:
    return kind in measured_mu(game)
