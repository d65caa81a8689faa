"""``manage.py simulate <game>``: bot-only games through the engine contract.

Prints one JSON line last: game, games, seats, finished, illegal, actions,
seconds, games_per_s, and wins per bot kind.
"""
import json

from django.core.management.base import BaseCommand, CommandError

from games.core import IllegalAction
from games.core.playout import simulate
from pigparlor.tables.registry import UnknownGame, all_games, get_game


class Command(BaseCommand):
    help = "Play bot games of one game through the engine contract and print a JSON summary."

    def add_arguments(self, parser):
        parser.add_argument("game", help="game slug: " + ", ".join(g.slug for g in all_games()))
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seats", type=int, default=4)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--bots", default="sensible,random",
                            help="bot kinds, comma-separated, repeated to fill the seats")
        parser.add_argument("--options", default="{}", help="table options as JSON")

    def handle(self, *args, game, games, seats, seed, bots, options, **kw):
        try:
            spec = get_game(game)
        except UnknownGame:
            raise CommandError(f"unknown game {game!r}; known: {', '.join(g.slug for g in all_games())}")
        kinds = [kind.strip() for kind in bots.split(",") if kind.strip()]
        unknown = [kind for kind in kinds if kind not in spec.bots]
        if not kinds or unknown:
            raise CommandError(f"unknown bot kind(s) {unknown}; {game} has {', '.join(spec.bots)}")
        if games < 1:
            raise CommandError("--games must be at least 1")
        try:
            spec.engine.check_seats(seats)
            parsed = spec.engine.clean_options(json.loads(options))
        except (IllegalAction, ValueError) as error:
            raise CommandError(str(getattr(error, "reason", error)))
        kinds = [kinds[i % len(kinds)] for i in range(seats)]
        summary = simulate(spec.engine, spec.bots, kinds, games, seed, parsed)
        self.stdout.write(json.dumps(summary))
