"""``manage.py simulate <game>``: bot-only games through the engine contract.

Prints one JSON line per run: game, games, seats, options, finished, illegal,
actions, seconds, games_per_s, and wins per bot kind. ``--all-seats`` runs
every seat count the game takes and ``--all-options`` every combination of its
yes/no and choice options (whole-number options at their default or the value
``--options`` gives): one run, and one line, per seat count and combination.
"""
import json

from django.core.management.base import BaseCommand, CommandError

from games.core import IllegalAction
from games.core.playout import option_mixes, simulate
from games.core.registry import UnknownGame, all_games, get_game


class Command(BaseCommand):
    help = "Play bot games of one game through the engine contract and print a JSON summary per run."

    def add_arguments(self, parser):
        parser.add_argument("game", help="game slug: " + ", ".join(g.slug for g in all_games()))
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seats", type=int, default=4)
        parser.add_argument("--all-seats", action="store_true", help="every seat count the game takes")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--bots", default="sensible,random",
                            help="bot kinds, comma-separated, repeated to fill the seats: the levels players "
                                 "pick (easy, sensible; Oink! also hard) or random")
        parser.add_argument("--options", default="{}", help="table options as JSON")
        parser.add_argument("--all-options", action="store_true",
                            help="every combination of the game's yes/no and choice options")

    def handle(self, *args, game, games, seats, all_seats, seed, bots, options, all_options, **kw):
        try:
            spec = get_game(game)
        except UnknownGame:
            raise CommandError(f"unknown game {game!r}; known: {', '.join(g.slug for g in all_games())}") from None
        engine = spec.engine
        kinds = [kind.strip() for kind in bots.split(",") if kind.strip()]
        unknown = [kind for kind in kinds if kind not in spec.bots]
        if not kinds or unknown:
            raise CommandError(f"unknown bot kind(s) {unknown}; {game} has {', '.join(spec.bots)}")
        if games < 1:
            raise CommandError("--games must be at least 1")
        seat_counts = range(engine.min_seats, engine.max_seats + 1) if all_seats else [seats]
        try:
            for count in seat_counts:
                engine.check_seats(count)
            given = json.loads(options)
            chosen = engine.clean_options(given)
            mixes = option_mixes(engine, given) if all_options else [chosen]
        except (IllegalAction, ValueError) as error:
            raise CommandError(str(getattr(error, "reason", error))) from error
        for count in seat_counts:
            for mix in mixes:
                seated = [kinds[i % len(kinds)] for i in range(count)]
                summary = simulate(engine, spec.bots, seated, games, seed, engine.clean_options(mix))
                self.stdout.write(json.dumps(summary))
