"""Bot levels: how fast each Oink! level slaps, and the fixed rating of every bot level.

    .venv/bin/python bench/bot_levels.py [--piles 2000] [--games 300] [--seed 1] [--only slaps|ratings]

Slaps: for every Oink! level, the planned slap time on piles with a pig on top (O3: always
slappable) over ``--piles`` pile states: p10, median and p90 in ms from the reveal on the
server, and how often it misses or cries wrong. Real-time bots get no platform think time on
top (pigparlor.tables.botdriver), so these are the times a player races.

Ratings: for every game, ``--games`` bot-only games of 2–6 seats (the game's range), each
seat a bot kind drawn at random, played through the engine contract (games.core.playout).
An offline Plackett-Luce fit of all the placings (bench/ratings.py's, ties broken at random)
gives each kind a strength; on the rating scale (pigparlor.ratings.scale) the strengths
become mu = 25 + c × (log strength − the Sensible bot's), c being openskill's Plackett-Luce
scale for a table of bots (sqrt(seats × (sigma² + beta²)), averaged over the games), so the
Sensible bot — the default level and the stand-in for players who leave — reads 1500. These
are the numbers each game declares once (its apps.py, ``Game.bot_mu``) and shown on the
bots' pages: a bot's rating never moves (docs/ratings.md). Measures only.
"""
import argparse
import math
import os
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pigparlor.settings")

import django  # noqa: E402

django.setup()

from bench.ratings import fit_plackett_luce  # noqa: E402
from games.core.bots import DEFAULT_LEVEL  # noqa: E402
from games.core.playout import PlayoutStuck, play  # noqa: E402
from games.core.registry import all_games, get_game  # noqa: E402
from games.oink.bots import plan_for  # noqa: E402
from games.oink.cards import DECK, correct_cry  # noqa: E402
from pigparlor.ratings.scale import BETA, BOT_SIGMA, MODEL, Skill  # noqa: E402


def slaps(args):
    game = get_game("oink")
    pig = next(card for card in range(len(DECK)) if correct_cry(card, None) is not None)
    right = correct_cry(pig, None)
    for kind in game.bot_levels:
        bot = game.bots[kind]
        plans = [plan_for(kind, bot.reflexes, 1, pile, (pig,), 0) for pile in range(args.piles)]
        slap_times = sorted(plan.slap_at for plan in plans if plan.cry is not None)
        deciles = statistics.quantiles(slap_times, n=10)
        missed = sum(plan.cry is None for plan in plans) / len(plans)
        wrong = sum(plan.cry not in (None, right) for plan in plans) / len(plans)
        print(f"oink {kind:9s} slap ms p10 {deciles[0]:.0f}  median {statistics.median(slap_times):.0f}  "
              f"p90 {deciles[-1]:.0f}  missed {missed:.1%}  wrong cry {wrong:.1%}  ({len(plans)} piles)")


def placement(ranks, rng: random.Random) -> list[int]:
    """Seats best first; tied seats in a random order."""
    return sorted(range(len(ranks)), key=lambda seat: (ranks[seat], rng.random()))


def bot_ratings(game, games: int, seed: int) -> dict[str, Skill]:
    """Each of the game's bot kinds, on the rating scale, from ``games`` bot-only games."""
    kinds = list(game.bots)
    engine = game.engine
    rng = random.Random(seed)
    orders, scales = [], []
    for number in range(games):
        seats = rng.randint(engine.min_seats, engine.max_seats)
        drawn = [rng.randrange(len(kinds)) for _ in range(seats)]
        try:
            result = play(engine, [game.bots[kinds[k]] for k in drawn], seed * 100_000 + number)
        except PlayoutStuck as stuck:
            print(f"  {game.slug}: {stuck}")
            continue
        orders.append([drawn[seat] for seat in placement(result.outcome.ranks, rng)])
        scales.append(math.sqrt(seats * (BOT_SIGMA ** 2 + BETA ** 2)))
    # Several seats of one kind share its strength: Hunter's MM counts each seat's place.
    strength = fit_plackett_luce(orders, len(kinds))
    c = statistics.fmean(scales)
    anchor = strength[kinds.index(DEFAULT_LEVEL)]
    return {kind: Skill(MODEL.mu + c * (strength[k] - anchor), BOT_SIGMA) for k, kind in enumerate(kinds)}


def ratings(args):
    print(f"\nBot ratings: {args.games} bot-only games per game, seed {args.seed}, bot sigma {BOT_SIGMA}")
    print(f"{'game':<11} {'kind':<9} {'rating':>6} {'mu':>8}")
    for game in all_games():
        found = bot_ratings(game, args.games, args.seed)
        for kind, skill in found.items():
            print(f"{game.slug:<11} {kind:<9} {skill.rating:>6} {skill.mu:>8.3f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--piles", type=int, default=2000)
    parser.add_argument("--games", type=int, default=300, help="bot-only games per game for the ratings")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=("slaps", "ratings"))
    args = parser.parse_args()
    if args.only != "ratings":
        slaps(args)
    if args.only != "slaps":
        ratings(args)


if __name__ == "__main__":
    main()
