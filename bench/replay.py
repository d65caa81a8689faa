"""Replay cost: rebuilding a finished game from its seed and log, and one replay step's render.

    .venv/bin/python bench/replay.py [--games 20] [--game pigpile]

For each game: bot-only games (4 seats, the "sensible" bot) are played with
their log kept, then rebuilt version by version through ``games.core.replay.states``
(what the replay page and ``verify_table`` do). Prints versions per game, the
rebuild's versions/s and ms per whole game, and the ms to render one step's
"everything" view (the spectator's board plus each seat's page) with the game's
own templates. Measures only; never fails on a time.
"""
import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pigparlor.settings")

import django  # noqa: E402

django.setup()

from django.template.loader import render_to_string  # noqa: E402

from games.core.playout import play  # noqa: E402
from games.core.registry import all_games  # noqa: E402
from games.core.replay import states  # noqa: E402

SEATS = 4


def render_everything(game, state, seats: int) -> None:
    """The game's template for the spectator and for each seat (no platform shell)."""
    engine = game.engine
    for viewer in (None, *range(seats)):
        render_to_string(game.table_template, {
            "view": engine.view(state, viewer), "legal": [], "version": 2, "seat": viewer, "table": None,
            "players": [{"index": seat, "name": f"Seat {seat + 1}", "is_bot": True, "is_you": seat == viewer,
                         "connected": True} for seat in range(seats)],
            "deadline_ms": None, "now_ms": 0})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'game':<12} {'games':>5} {'versions/game':>14} {'rebuild versions/s':>19} "
          f"{'ms/game':>9} {'render ms/step (p50)':>21}")
    for game in all_games():
        if args.game and game.slug not in args.game:
            continue
        engine = game.engine
        bots = [game.bots.get("sensible") or game.bots["random"]] * SEATS
        lengths, seconds, renders = [], [], []
        for n in range(args.games):
            played = play(engine, bots, args.seed + n, keep_log=True)
            actions = [{"seat": seat, "action": action, "at_ms": at} for seat, action, at in played.log]
            started = time.perf_counter()
            rebuilt = list(states(engine, SEATS, args.seed + n, None, actions))
            seconds.append(time.perf_counter() - started)
            lengths.append(len(rebuilt))
            started = time.perf_counter()
            render_everything(game, rebuilt[len(rebuilt) // 2], SEATS)
            renders.append(time.perf_counter() - started)
        versions = sum(lengths)
        print(f"{game.slug:<12} {args.games:>5} {versions / args.games:>14.0f} {versions / sum(seconds):>19.0f} "
              f"{1000 * sum(seconds) / args.games:>9.1f} {1000 * statistics.median(renders):>21.1f}")


if __name__ == "__main__":
    main()
