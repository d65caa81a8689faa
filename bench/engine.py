"""Engine throughput: random-bot games per second and actions per second.

    .venv/bin/python bench/engine.py [--games 300] [--game pigpile]

Prints one line per game and seat count. Measures only; never fails on a time.
"""
import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pigparlor.settings")

import django  # noqa: E402

django.setup()

from games.core.playout import simulate  # noqa: E402
from games.core.registry import all_games  # noqa: E402

SEATS = {"pigpile": (3, 4, 6)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'game':<12} {'seats':>5} {'games':>6} {'games/s':>9} {'actions/s':>10} {'actions/game':>13}")
    for game in all_games():
        if args.game and game.slug not in args.game:
            continue
        engine = game.engine
        for seats in SEATS.get(game.slug, sorted({engine.min_seats, 4, engine.max_seats})):
            if not engine.min_seats <= seats <= engine.max_seats:
                continue
            summary = simulate(engine, game.bots, ["random"] * seats, args.games, args.seed)
            per_game = summary["actions"] / max(summary["finished"], 1)
            print(f"{game.slug:<12} {seats:>5} {summary['finished']:>6} {summary['games_per_s']:>9} "
                  f"{summary['actions_per_s']:>10} {per_game:>13.1f}")


if __name__ == "__main__":
    main()
