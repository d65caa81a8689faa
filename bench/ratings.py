"""How well do ratings find the true order, and how soon is a newcomer's rating
worth showing without a question mark? A simulated population rated through our
rating service's pure functions (``pigparlor.ratings.scale``).

    .venv/bin/python bench/ratings.py [--players 200] [--luck 1.0] [--seed 1] [--newcomers 20]

Each player has a true skill (standard normal). Every round the population is
dealt at random into tables of 3–6 seats; a table's finishing order is drawn
from the Plackett-Luce model: each seat performs skill + luck × Gumbel noise,
best performance first (luck 0 would be pure skill). After 45, 225 and 900
games per player it prints Kendall's τ between the true order and
- our ratings (openskill Plackett-Luce, limit_sigma, ordered by mu and by the
  leaderboard's mu − 3 sigma),
- an offline Plackett-Luce maximum-likelihood fit of all the same games (the
  best an online system could hope for),
- plain Elo, K = 16, every pair at a table a game (updates applied per table).
Then newcomers join the finished population and play tables of 3–6 seats
against random established players:
- the provisional rule: newcomers of every strength (drawn like the population):
  after n rated games, how far their shown rating is from the rating an
  established player of the same true skill has (the population's ratings
  regressed on true skill) — the median gap in points, and how many are within
  100 points; the same gap for the established population is the floor. A
  rating stops being provisional (``scale.PROVISIONAL_GAMES``) where the gap has
  come down near that floor;
- strong newcomers (true skill at the population's 99th percentile): how many
  games until their rating is in the top 10 %, and until they stand in the top
  10 % of the leaderboard (established players, by rating).
Measures only; never fails.
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pigparlor.ratings.scale import PROVISIONAL_GAMES, START, Skill, rate_players  # noqa: E402  (pure: no Django)

CHECKPOINTS = (45, 225, 900)
SETTLING = (1, 5, 10, 15, 20, 30, 45, 60)


def kendall_tau(xs: list[float], ys: list[float]) -> float:
    """Kendall's τ-a of two scores over the same players (no ties among floats here)."""
    n = len(xs)
    concordant = discordant = 0
    for i in range(n):
        for j in range(i + 1, n):
            s = (xs[i] - xs[j]) * (ys[i] - ys[j])
            concordant += s > 0
            discordant += s < 0
    return (concordant - discordant) / (n * (n - 1) / 2)


def deal(players: list[int], rng: random.Random) -> list[list[int]]:
    """Everyone at a table of 3–6 seats."""
    order = players[:]
    rng.shuffle(order)
    tables, start = [], 0
    while start < len(order):
        left = len(order) - start
        size = left if left <= 6 else rng.randint(3, min(6, left - 3))
        tables.append(order[start:start + size])
        start += size
    return tables


def finish(table: list[int], skill: list[float], luck: float, rng: random.Random) -> list[int]:
    """The finishing order, best first: Plackett-Luce by Gumbel noise on skill."""
    def performance(player):
        return skill[player] - luck * math.log(-math.log(rng.random() or 1e-300))
    return sorted(table, key=performance, reverse=True)


def rate_ours(ratings: dict, order: list[int]) -> None:
    ratings.update(rate_players(order, ratings, list(range(1, len(order) + 1))))


def rate_elo(elo: list[float], order: list[int], k: float = 16) -> None:
    deltas = {player: 0.0 for player in order}
    for a_index, a in enumerate(order):
        for b in order[a_index + 1:]:  # a finished ahead of b
            expected = 1 / (1 + 10 ** ((elo[b] - elo[a]) / 400))
            deltas[a] += k * (1 - expected)
            deltas[b] -= k * (1 - expected)
    for player, delta in deltas.items():
        elo[player] += delta


def fit_plackett_luce(games: list[list[int]], players: int, start: list[float] | None = None,
                      iterations: int = 400, tolerance: float = 1e-7) -> list[float]:
    """Maximum-likelihood Plackett-Luce strengths (log scale) by Hunter's MM
    algorithm, with one virtual win and loss against a unit-strength dummy each
    (so nobody's strength runs off to 0 or infinity)."""
    gamma = [math.exp(value) for value in start] if start else [1.0] * players
    wins = [1.0] * players  # the virtual win
    for order in games:
        for player in order[:-1]:
            wins[player] += 1
    for _ in range(iterations):
        denominators = [2.0 / (g + 1.0) for g in gamma]  # the two virtual games
        for order in games:
            suffix, remaining = [0.0] * len(order), 0.0
            for position in range(len(order) - 1, -1, -1):
                remaining += gamma[order[position]]
                suffix[position] = remaining
            running = 0.0
            for position, player in enumerate(order):
                if position < len(order) - 1:
                    running += 1 / suffix[position]
                denominators[player] += running
        new = [w / d for w, d in zip(wins, denominators)]
        norm = math.exp(sum(math.log(g) for g in new) / players)
        new = [g / norm for g in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, gamma))
        gamma = new
        if change < tolerance:
            break
    return [math.log(g) for g in gamma]


def population(args) -> tuple[list[float], dict, list[float], list[list[int]]]:
    rng = random.Random(args.seed)
    skill = [rng.gauss(0, 1) for _ in range(args.players)]
    ours: dict = {}
    elo = [1500.0] * args.players
    games: list[list[int]] = []
    fit = None
    truth = skill
    print(f"{args.players} players, luck {args.luck}, seed {args.seed}; Kendall's tau with the true order")
    print(f"{'games/player':>12} {'ours (mu)':>10} {'ours (mu-3s)':>13} {'offline PL':>11} {'Elo K=16':>9}"
          f" {'fit s':>6}")
    for round_number in range(1, max(CHECKPOINTS) + 1):
        for table in deal(list(range(args.players)), rng):
            order = finish(table, skill, args.luck, rng)
            games.append(order)
            rate_ours(ours, order)
            rate_elo(elo, order)
        if round_number in CHECKPOINTS:
            started = time.perf_counter()
            fit = fit_plackett_luce(games, args.players, fit)
            seconds = time.perf_counter() - started
            mus = [ours[p].mu for p in range(args.players)]
            conservative = [ours[p].conservative for p in range(args.players)]
            print(f"{round_number:>12} {kendall_tau(truth, mus):>10.3f} {kendall_tau(truth, conservative):>13.3f}"
                  f" {kendall_tau(truth, fit):>11.3f} {kendall_tau(truth, elo):>9.3f} {seconds:>6.1f}")
    return skill, ours, elo, games


def play_in(me: Skill, true_me: float, skill: list[float], ours: dict, luck: float, rng: random.Random) -> Skill:
    """One rated table of 3–6 seats: a newcomer among random established players
    (whose ratings stay as they are)."""
    seats = rng.randint(3, 6)
    table = ["me", *rng.sample(range(len(skill)), seats - 1)]
    skills = {**{p: ours[p] for p in table[1:]}, "me": me}
    true = {**{p: skill[p] for p in table[1:]}, "me": true_me}
    order = sorted(table, key=lambda p: true[p] - luck * math.log(-math.log(rng.random() or 1e-300)), reverse=True)
    return rate_players(order, skills, list(range(1, seats + 1)))["me"]


def settling(args, skill: list[float], ours: dict) -> None:
    """How far newcomers' ratings are, game after game, from where they belong."""
    rng = random.Random(args.seed + 2)
    n = len(skill)
    mean_s, mean_r = statistics.fmean(skill), statistics.fmean(ours[p].rating for p in range(n))
    slope = (sum((skill[p] - mean_s) * (ours[p].rating - mean_r) for p in range(n))
             / sum((skill[p] - mean_s) ** 2 for p in range(n)))

    def belongs(true: float) -> float:
        return mean_r + slope * (true - mean_s)

    floor = statistics.median(abs(ours[p].rating - belongs(skill[p])) for p in range(n))
    spread = statistics.pstdev(ours[p].rating for p in range(n))
    gaps = {games: [] for games in SETTLING}
    for _ in range(args.players):
        true_me = rng.gauss(0, 1)
        me = START
        for game in range(1, max(SETTLING) + 1):
            me = play_in(me, true_me, skill, ours, args.luck, rng)
            if game in gaps:
                gaps[game].append(abs(me.rating - belongs(true_me)))
    print(f"\nNewcomers of every strength, {args.players} of them: their shown rating's gap to where players of")
    print(f"their true skill stand after {max(CHECKPOINTS)} games (established players: median {floor:.0f} points;")
    print(f"the population's ratings spread with a standard deviation of {spread:.0f} points).")
    print(f"Provisional for the first {PROVISIONAL_GAMES} rated games (pigparlor.ratings.scale.PROVISIONAL_GAMES).")
    print(f"{'rated games':>12} {'median gap':>11} {'within 100':>11}")
    for games, found in gaps.items():
        marker = "  <- provisional ends" if games == PROVISIONAL_GAMES else ""
        print(f"{games:>12} {statistics.median(found):>11.0f} {sum(g <= 100 for g in found) / len(found):>11.0%}"
              f"{marker}")


def newcomers(args, skill: list[float], ours: dict) -> None:
    """Strong newcomers against the finished population (whose ratings stay as they are)."""
    rng = random.Random(args.seed + 1)
    strong = sorted(skill)[int(0.99 * len(skill))]
    top = max(1, len(skill) // 10)
    field_mu = sorted((ours[p].mu for p in range(len(skill))), reverse=True)
    mu_bar = field_mu[top - 1]  # every player of the population is established by now
    to_rating, to_board = [], []
    for _ in range(args.newcomers):
        me = START
        rated_at = boarded_at = None
        for game in range(1, args.cap + 1):
            me = play_in(me, strong, skill, ours, args.luck, rng)
            if rated_at is None and me.mu >= mu_bar:
                rated_at = game
            if boarded_at is None and game >= PROVISIONAL_GAMES and me.mu >= mu_bar:
                boarded_at = game
            if rated_at and boarded_at:
                break
        to_rating.append(rated_at or args.cap)
        to_board.append(boarded_at or args.cap)
    print(f"\nStrong newcomers (true skill at the 99th percentile), {args.newcomers} of them, up to {args.cap} games:")
    print(f"  games until their rating is in the top 10 %:          median {statistics.median(to_rating):.0f},"
          f" range {min(to_rating)}–{max(to_rating)}")
    print(f"  games until the leaderboard's top 10 % (established): median {statistics.median(to_board):.0f},"
          f" range {min(to_board)}–{max(to_board)}"
          + (f" ({sum(g >= args.cap for g in to_board)} not there by {args.cap})" if max(to_board) >= args.cap else ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--luck", type=float, default=1.0, help="Gumbel noise scale per game (skill SD is 1)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--newcomers", type=int, default=20)
    parser.add_argument("--cap", type=int, default=1000, help="most games a newcomer plays")
    args = parser.parse_args()
    started = time.perf_counter()
    skill, ours, _, _ = population(args)
    settling(args, skill, ours)
    newcomers(args, skill, ours)
    print(f"\n{time.perf_counter() - started:.0f} s in all")


if __name__ == "__main__":
    main()
