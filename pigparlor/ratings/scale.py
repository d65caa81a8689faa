"""The rating model and the number players see: pure functions, no Django.

openskill's Plackett-Luce model rates 2–6 players from one full placement, ties
included; ``limit_sigma=True`` keeps a rating from growing less certain by
playing. Everything that changes a rating — the live service, the replay that
rebuilds ratings, ``bench/ratings.py`` — goes through ``rate_players`` here.

Players see an Elo-like number, ``1500 + 48 (mu - 25)``: 48 is about 200 / beta
(beta = 25/6), so a gap of 200 reads like 200 Elo points. A rating is
provisional while sigma > 2.5; leaderboards and seeding order players by the
conservative ``mu - 3 sigma``.
"""
from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce(limit_sigma=True)
PROVISIONAL_SIGMA = 2.5
SCALE_BASE = 1500
SCALE_PER_MU = 48


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def rating(self) -> int:
        return round(SCALE_BASE + SCALE_PER_MU * (self.mu - MODEL.mu))

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA

    @property
    def conservative(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> str:
        """``1512``, or ``1500?`` while provisional."""
        return f"{self.rating}?" if self.provisional else str(self.rating)

    def as_json(self) -> dict:
        return {"rating": self.rating, "mu": self.mu, "sigma": self.sigma, "provisional": self.provisional}


START = Skill(MODEL.mu, MODEL.sigma)


def placings(ranks: list[int], gone: list[bool]) -> list[int]:
    """The ranks the rating uses: the game's ranks (1 = best, ties share), except
    that a seat whose player left for good ranks last, below everyone who stayed
    (several such seats tie for last)."""
    last = max(ranks) + 1
    return [last if left else rank for rank, left in zip(ranks, gone)]


def rate_players(players: list[Hashable | None], skills: dict, ranks: list[int],
                 left_early: frozenset[int] = frozenset()) -> dict:
    """New skills after one game: ``players[seat]`` is who sat there (None: nobody
    rated, who plays at the starting skill), ``skills`` their skills before (a
    player missing from it starts at ``START``), ``ranks`` per seat.

    A player in several seats (one bot account playing three seats) gets the sum
    of its seats' moves in mu — its seats' results against each other cancel
    out — and the least of their sigmas: one game's worth of certainty.

    Seats in ``left_early`` (their player left before playing their share) are
    rated at their rank against everyone, but feed nobody: the other seats are
    rated as if those seats had not been there, and not at all when fewer than
    two are left. So leaving costs the leaver and pays no one.
    """
    seats = range(len(players))
    result = _rated(players, skills, ranks, [seat for seat in seats if seat in left_early])
    others = [seat for seat in seats if seat not in left_early]
    if len(others) >= 2:
        result.update(_rated(players, skills, ranks, others, among=others))
    return result


def _rated(players: list, skills: dict, ranks: list[int], keep: list[int], among: list[int] | None = None) -> dict:
    """The new skills of the seats ``keep`` after a game of the seats ``among`` (all by default)."""
    among = list(range(len(players))) if among is None else among
    before = {seat: skills.get(players[seat], START) if players[seat] is not None else START for seat in among}
    teams = [[MODEL.rating(mu=before[seat].mu, sigma=before[seat].sigma)] for seat in among]
    after = dict(zip(among, (team[0] for team in MODEL.rate(teams, ranks=[ranks[seat] for seat in among]))))
    result: dict = {}
    for seat in keep:
        player, old, new = players[seat], before[seat], after[seat]
        if player is None:
            continue
        seen = result.get(player)
        if seen is None:
            result[player] = Skill(new.mu, new.sigma)
        else:
            result[player] = Skill(seen.mu + (new.mu - old.mu), min(seen.sigma, new.sigma))
    return result
