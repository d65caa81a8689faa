"""The rating model and the number players see: pure functions, no Django.

openskill's Plackett-Luce model rates 2–6 players from one full placement, ties
included; ``limit_sigma=True`` keeps a rating from growing less certain by
playing. Everything that changes a rating — the live service, the replay that
rebuilds ratings, ``bench/ratings.py`` — goes through ``rate_players`` here.

``beta``, the spread of one game's luck, is as wide as the whole field's spread
of skill (openskill's default is half of it): cards are lucky, and with the
default one game moved a rating so far that the order of the players drifted
with the last few games (``bench/ratings.py`` measures both).

Players see an Elo-like number, ``1500 + 24 (mu - 25)``: 24 is 200 / beta, so a
gap of 200 reads like 200 Elo points. A rating is provisional for its first
``PROVISIONAL_GAMES`` rated games (the simulation in ``bench/ratings.py`` shows
why that many); leaderboards list established players by their rating.
"""
from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from datetime import datetime, timedelta

from openskill.models import PlackettLuce

BETA = 25 / 3
MODEL = PlackettLuce(beta=BETA, limit_sigma=True)
PROVISIONAL_GAMES = 20
REPEAT_GAMES = 3
REPEAT_WINDOW = timedelta(hours=24)
"""The same group of people counts for ratings ``REPEAT_GAMES`` times per game
within any ``REPEAT_WINDOW``; their other games in it are casual (docs/ratings.md,
"Playing the same people again")."""
# A bot level's fixed rating is measured over thousands of placings (bench/bot_levels.py).
BOT_SIGMA = 1.0
SCALE_BASE = 1500
SCALE_PER_MU = 24


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def rating(self) -> int:
        return round(SCALE_BASE + SCALE_PER_MU * (self.mu - MODEL.mu))

    @property
    def conservative(self) -> float:
        return self.mu - 3 * self.sigma


START = Skill(MODEL.mu, MODEL.sigma)


def provisional(games: int | None) -> bool:
    """A player's rating is provisional for their first ``PROVISIONAL_GAMES`` rated
    games; a bot's (``games`` None: fixed, measured) never is."""
    return games is not None and games < PROVISIONAL_GAMES


@dataclass(frozen=True)
class Standing:
    """A rating as players see it: the skill, and how many rated games it rests on
    (None for a bot, whose rating is fixed)."""

    skill: Skill
    games: int | None

    @property
    def rating(self) -> int:
        return self.skill.rating

    @property
    def provisional(self) -> bool:
        return provisional(self.games)

    @property
    def shown(self) -> str:
        """``1512``, or ``1500?`` while provisional."""
        return f"{self.rating}?" if self.provisional else str(self.rating)

    def as_json(self) -> dict:
        return {"rating": self.rating, "mu": self.skill.mu, "sigma": self.skill.sigma,
                "provisional": self.provisional}


NEWCOMER = Standing(START, 0)


def placings(ranks: list[int], gone: list[bool]) -> list[int]:
    """The ranks the rating uses: the game's ranks (1 = best, ties share), except
    that a seat whose player left for good ranks last, below everyone who stayed
    (several such seats tie for last)."""
    last = max(ranks) + 1
    return [last if left else rank for rank, left in zip(ranks, gone)]


def rate_players(players: list[Hashable | None], skills: dict, ranks: list[int],
                 left_early: frozenset[int] = frozenset(), fixed: frozenset[int] = frozenset()) -> dict:
    """New skills after one game: ``players[seat]`` is who sat there (None: nobody
    rated, who plays at the starting skill), ``skills`` their skills before (a
    player missing from it starts at ``START``), ``ranks`` per seat.

    Seats in ``fixed`` (bots) take part at their skill and never move: they are
    not in the result. Seats in ``left_early`` (their player left before playing
    their share) are rated at their rank against everyone, but feed nobody: the
    other seats are rated as if those seats had not been there, and not at all
    when fewer than two are left. So leaving costs the leaver and pays no one.
    """
    seats = range(len(players))
    moving = [seat for seat in seats if seat not in fixed and players[seat] is not None]
    result = _rated(players, skills, ranks, [seat for seat in moving if seat in left_early], list(seats))
    others = [seat for seat in seats if seat not in left_early]
    if len(others) >= 2:
        result.update(_rated(players, skills, ranks, [seat for seat in moving if seat not in left_early], others))
    return result


def _rated(players: list, skills: dict, ranks: list[int], keep: list[int], among: list[int]) -> dict:
    """The new skills of the seats ``keep`` after a game of the seats ``among``."""
    if not keep:
        return {}
    before = [skills.get(players[seat], START) if players[seat] is not None else START for seat in among]
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in before]
    after = dict(zip(among, (team[0] for team in MODEL.rate(teams, ranks=[ranks[seat] for seat in among]))))
    return {players[seat]: Skill(after[seat].mu, after[seat].sigma) for seat in keep}


def is_repeat(people: frozenset, finished_at: datetime, counted: list[datetime]) -> bool:
    """Whether a game of ``people`` (two or more) that finished at ``finished_at`` is
    a repeat: ``counted`` holds when the same people's counted games of this game
    finished, and ``REPEAT_GAMES`` of them lie within ``REPEAT_WINDOW`` of it, before
    or after."""
    return len(people) >= 2 and sum(abs(at - finished_at) < REPEAT_WINDOW for at in counted) >= REPEAT_GAMES
