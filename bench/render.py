"""What one version of a live table costs to render for its browser seats.

    .venv/bin/python bench/render.py [--game pigpile] [--versions 200] [--profile 25]
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        .venv/bin/python bench/render.py --game pigpile --live 60 140     # "I refs": instructions

Plays a bot-only game (4 seats, sensible bots) through the engine and, for
``--versions`` of its states, renders the frame parts every seat's browser
socket receives (``rendering.html_parts`` for seats 0–3, the page cache
cleared first), as a live table does once per version. Prints the ms per
version (all four viewers) and per viewer, split into building the template
context, rendering the shell and the game's template, and cutting them into
parts; ``--profile N`` prints cProfile's top N functions. No database: the
table, seats and players are unsaved model instances
(``tests.support.tables.bot_game_snapshots``). Measures only.

``--live FROM TO`` renders versions FROM..TO-1 in order for every seat and
prints nothing: run under valgrind's callgrind, the instruction count is the
same on a busy machine, so two commits compare to within a fraction of a per
cent where timings here move by ±10 % (the difference of two counts is the
change's; the same Python, seed and ``PYTHONHASHSEED``; ``--live 60 60`` counts the
setup alone).
"""
import argparse
import cProfile
import os
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pigparlor.settings")
os.environ.setdefault("DJANGO_DEBUG", "0")

import django  # noqa: E402

django.setup()


from games.core.registry import get_game  # noqa: E402
from pigparlor.tables import rendering  # noqa: E402
from pigparlor.tables.fragments import SHARED_BLOCKS, split_top_level  # noqa: E402
from tests.support.tables import bot_game_snapshots  # noqa: E402

SEATS = 4


def snapshots(slug: str, versions: int, seed: int) -> list:
    """``versions`` states spread over one bot game (tests/support/tables.py builds them)."""
    every = bot_game_snapshots(slug, seed)
    return every[::max(1, len(every) // versions)][:versions]


def timed(snaps, game) -> dict:
    parts = {"context": 0.0, "shell": 0.0, "game": 0.0, "split": 0.0}
    for snapshot in snaps:
        blocks = {}  # the version's {% for_every_viewer %} blocks, as html_parts shares them
        for viewer in range(SEATS):
            started = time.perf_counter()
            ctx = rendering.context(snapshot, viewer)
            ctx[SHARED_BLOCKS] = blocks
            built = time.perf_counter()
            shell = rendering.render_table_template(rendering.SHELL_TEMPLATE, ctx)
            shelled = time.perf_counter()
            board = rendering.render_table_template(game.table_template, ctx)
            boarded = time.perf_counter()
            split_top_level(shell)
            split_top_level(board)
            done = time.perf_counter()
            parts["context"] += built - started
            parts["shell"] += shelled - built
            parts["game"] += boarded - shelled
            parts["split"] += done - boarded
    return parts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="pigpile")
    parser.add_argument("--versions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", type=int, default=0, help="print cProfile's top N functions")
    parser.add_argument("--live", nargs=2, type=int, metavar=("FROM", "TO"),
                        help="only render versions FROM..TO-1 of the game in order, for every seat, as a live "
                             "table does (the memo warm from the versions before), and print nothing: "
                             "for an instruction count under valgrind (docs/benchmarks.md)")
    args = parser.parse_args()
    if args.live:
        for snapshot in bot_game_snapshots(args.game, args.seed)[args.live[0]:args.live[1]]:
            for viewer in range(SEATS):
                rendering.html_parts(snapshot, viewer)
        return
    game = get_game(args.game)
    snaps = snapshots(args.game, args.versions, args.seed)
    random.Random(args.seed).shuffle(snaps)
    timed(snaps[:5], game)  # warm the template cache

    rendering.HTML.items.clear()
    started = time.perf_counter()
    for snapshot in snaps:
        for viewer in range(SEATS):
            rendering.html_parts(snapshot, viewer)
    whole = (time.perf_counter() - started) * 1000 / len(snaps)
    parts = timed(snaps, game)
    print(f"# {args.game}, {SEATS} seats, {len(snaps)} versions rendered for every seat's browser socket")
    print("| game | ms per version (4 viewers) | ms per viewer | context | shell | game template | split |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    per = {name: value * 1000 / len(snaps) / SEATS for name, value in parts.items()}
    print(f"| {args.game} | {whole:.2f} | {whole / SEATS:.2f} | {per['context']:.2f} | {per['shell']:.2f} | "
          f"{per['game']:.2f} | {per['split']:.2f} |")
    if args.profile:
        rendering.HTML.items.clear()
        profiler = cProfile.Profile()
        profiler.enable()
        for snapshot in snaps:
            for viewer in range(SEATS):
                rendering.html_parts(snapshot, viewer)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(args.profile)


if __name__ == "__main__":
    main()
