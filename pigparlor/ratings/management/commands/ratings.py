"""``manage.py ratings``: check stored ratings against a replay, rate what a crash
left unrated, or void a table.

``--check`` recomputes every rating from the finished rated tables, in the
order they were rated, and exits 1 if any stored rating differs or a finished
rated table is still unrated.
"""
from django.core.management.base import BaseCommand, CommandError

from pigparlor.ratings import service
from pigparlor.tables.models import Table


class Command(BaseCommand):
    help = "Check ratings against a replay of the rated tables (--check), rate unrated tables (--sweep), " \
           "or void a table (--void ID)."

    def add_arguments(self, parser):
        action = parser.add_mutually_exclusive_group(required=True)
        action.add_argument("--check", action="store_true", help="exit 1 if any stored rating differs from the replay")
        action.add_argument("--sweep", action="store_true", help="rate finished rated tables left unrated")
        action.add_argument("--void", type=int, metavar="TABLE_ID", help="take a table's result out of the ratings")
        parser.add_argument("--note", default="", help="why the table is voided")

    def handle(self, check, sweep, void, note, **options):
        if sweep:
            self.stdout.write(f"rated {service.rate_unrated()} table(s)")
        elif void is not None:
            if not Table.objects.filter(pk=void).exists():
                raise CommandError(f"no table {void}")
            self.stdout.write(f"voided table {void}: {service.void_table(void, note)} rating(s) moved")
        else:
            self.check_ratings()

    def check_ratings(self):
        problems = 0
        for game in service.rated_games():
            for found in service.differences(game):
                problems += 1
                self.stdout.write(
                    f"{game} user {found.user_id}: stored mu={found.stored.skill.mu!r} sigma={found.stored.skill.sigma!r} "
                    f"games={found.stored.games}, replay gives mu={found.replayed.skill.mu!r} "
                    f"sigma={found.replayed.skill.sigma!r} games={found.replayed.games}")
        for table_id in service.unrated_tables().values_list("pk", flat=True):
            problems += 1
            self.stdout.write(f"table {table_id} is finished and rated but has no rating yet (run --sweep)")
        if problems:
            raise CommandError(f"{problems} problem(s): the stored ratings do not match the rated tables")
        self.stdout.write("ratings match a replay of the rated tables")
