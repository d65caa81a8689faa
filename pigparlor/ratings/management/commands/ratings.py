"""``manage.py ratings``: check stored ratings against a replay, rate what a crash
left unrated, void a table, or rebuild the ratings under the current rules.

``--check`` recomputes every decision and rating from the finished rated tables,
in the order they were decided, and exits 1 if any stored rating or decision
differs, a finished rated table is still undecided, or the ratings follow older
rules than the code's.
"""
from django.core.management.base import BaseCommand, CommandError

from pigparlor.ratings import service
from pigparlor.tables.models import Table


class Command(BaseCommand):
    help = "Check ratings against a replay of the rated tables (--check), rate unrated tables (--sweep), " \
           "void a table (--void ID), or rebuild every rating under the current rules (--rebuild)."

    def add_arguments(self, parser):
        action = parser.add_mutually_exclusive_group(required=True)
        action.add_argument("--check", action="store_true", help="exit 1 if any stored rating differs from the replay")
        action.add_argument("--sweep", action="store_true", help="rate finished rated tables left unrated")
        action.add_argument("--void", type=int, metavar="TABLE_ID", help="take a table's result out of the ratings")
        action.add_argument("--rebuild", action="store_true",
                            help="move every decision and rating to what the current rules give")
        parser.add_argument("--note", default="", help="why the table is voided")

    def handle(self, check, sweep, void, rebuild, note, **options):
        if sweep:
            self.stdout.write(f"rated {service.rate_unrated()} table(s)")
        elif void is not None:
            if not Table.objects.filter(pk=void).exists():
                raise CommandError(f"no table {void}")
            self.stdout.write(f"voided table {void}: {service.void_table(void, note)} rating(s) moved")
        elif rebuild:
            moved = service.rebuild_all()
            self.stdout.write(f"rebuilt under rules version {service.RULES}: {moved} rating(s) moved")
        else:
            self.check_ratings()

    def check_ratings(self):
        problems = 0
        if service.rules_version() < service.RULES:
            problems += 1
            self.stdout.write(f"the ratings follow rules version {service.rules_version()}, the code's are version "
                              f"{service.RULES} (run --rebuild; serve does at its start)")
        for game in service.rated_games():
            found = service.audit(game)
            for difference in found.differences:
                problems += 1
                stored, replayed = difference.stored, difference.replayed
                self.stdout.write(
                    f"{game} user {difference.user_id}: stored mu={stored.skill.mu!r} sigma={stored.skill.sigma!r} "
                    f"games={stored.games}, replay gives mu={replayed.skill.mu!r} "
                    f"sigma={replayed.skill.sigma!r} games={replayed.games}")
            for table_id, repeat in found.misjudged.items():
                problems += 1
                self.stdout.write(f"{game} table {table_id}: the rules {'make it a repeat' if repeat else 'rate it'}, "
                                  f"but it was {'rated' if repeat else 'ruled a repeat'}")
        for table_id in service.unrated_tables().values_list("pk", flat=True):
            problems += 1
            self.stdout.write(f"table {table_id} is finished and rated but has no rating yet (run --sweep)")
        if problems:
            raise CommandError(f"{problems} problem(s): the stored ratings do not match the rated tables")
        self.stdout.write("ratings match a replay of the rated tables")
