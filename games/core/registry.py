"""The game registry: the only way the platform finds games.

Each game app registers itself in its ``AppConfig.ready``::

    register(Game(engine=ENGINE, bots=BOTS, table_template="pigpile/table.html"))
"""
from __future__ import annotations

from dataclasses import dataclass, field

from games.core.bots import Bot
from games.core.coach import Coach
from games.core.contract import Engine


@dataclass(frozen=True)
class Game:
    engine: Engine
    bots: dict[str, Bot]
    table_template: str
    blurb: str = ""
    extra: dict = field(default_factory=dict)
    # What an outcome's scores count, singular and plural: the ending's headline
    # says "Ana wins with 11 pigs".
    score_unit: tuple[str, str] = ("point", "points")
    # What the game teaches at its tables (games.core.coach): the "How to play" panel's
    # "now", and a first game's deal and hints. None: the game teaches nothing there.
    coach: Coach | None = None
    # How many times the platform's think time (PIGPARLOR_BOT_DELAY_MS) this game's bots wait
    # before a turn-based move: a Snout! toss changes every hand at once and needs longer to read.
    bot_think: float = 1.0
    # The template (of the game's app) that draws the game's tile in the lobby: a few of its
    # cards. "" draws a plain pig.
    lobby_art: str = ""
    # Each bot level's measured skill (its mu on the ratings' scale, the Sensible bot at 25),
    # measured by bench/bot_levels.py --games 400 --only ratings: a bot seat plays rated games
    # at it (the platform's ratings read it). Part of the rating rules: a new measurement
    # comes with new rating rules. A level missing here plays unmeasured.
    bot_mu: dict[str, float] = field(default_factory=dict)

    @property
    def slug(self) -> str:
        return self.engine.slug

    @property
    def title(self) -> str:
        return self.engine.title

    @property
    def bot_levels(self) -> list[str]:
        """The bot kinds players may pick at table creation, easiest first (games.core.bots)."""
        return [kind for kind, bot in self.bots.items() if bot.level]


class UnknownGame(LookupError):
    pass


_GAMES: dict[str, Game] = {}


def register(game: Game) -> None:
    _GAMES[game.slug] = game


def get_game(slug: str) -> Game:
    try:
        return _GAMES[slug]
    except KeyError:
        raise UnknownGame(slug) from None


def all_games() -> list[Game]:
    return sorted(_GAMES.values(), key=lambda game: game.title)


def unregister(slug: str) -> None:
    """Remove a game (tests register throwaway games and clean up after)."""
    _GAMES.pop(slug, None)
