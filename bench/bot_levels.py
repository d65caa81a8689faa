"""Oink! bot levels: how fast each level slaps after a reveal, as the bot driver schedules it.

    .venv/bin/python bench/bot_levels.py [--piles 2000]

For every level, the planned slap time on piles with a pig on top (O3: always slappable)
over ``--piles`` pile states: p10, median and p90 in ms from the reveal on the server, and
how often it misses or cries wrong. Real-time bots get no platform think time on top
(pigparlor.tables.botdriver), so these are the times a player races. Measures only.
"""
import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pigparlor.settings")

import django  # noqa: E402

django.setup()

from games.oink.bots import plan_for  # noqa: E402
from games.oink.cards import DECK, correct_cry  # noqa: E402
from pigparlor.tables.registry import get_game  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--piles", type=int, default=2000)
    args = parser.parse_args()
    game = get_game("oink")
    pig = next(card for card in range(len(DECK)) if correct_cry(card, None) is not None)
    right = correct_cry(pig, None)
    for kind in game.bot_levels:
        bot = game.bots[kind]
        plans = [plan_for(kind, bot.reflexes, 1, pile, (pig,), 0) for pile in range(args.piles)]
        slaps = sorted(plan.slap_at for plan in plans if plan.cry is not None)
        deciles = statistics.quantiles(slaps, n=10)
        missed = sum(plan.cry is None for plan in plans) / len(plans)
        wrong = sum(plan.cry not in (None, right) for plan in plans) / len(plans)
        print(f"oink {kind:9s} slap ms p10 {deciles[0]:.0f}  median {statistics.median(slaps):.0f}  "
              f"p90 {deciles[-1]:.0f}  missed {missed:.1%}  wrong cry {wrong:.1%}  ({len(plans)} piles)")


if __name__ == "__main__":
    main()
