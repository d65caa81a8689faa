"""``manage.py verify_table ID``: re-run a finished table's deal and log and check it.

Prints one line per check (commitment, replay, version, state, outcome), then
``verified`` — or names every check that failed and exits with status 1.
A table still being played is refused (its seed is secret until the end).
"""
from django.core.management.base import BaseCommand, CommandError

from pigparlor.tables import replay
from pigparlor.tables.errors import TableError
from pigparlor.tables.models import Table


class Command(BaseCommand):
    help = "Check a finished table: sha256(seed) matches its commitment and its log replays to the recorded outcome."

    def add_arguments(self, parser):
        parser.add_argument("table_id", type=int)

    def handle(self, *args, table_id, **options):
        try:
            table = replay.refuse_unless_over(Table.objects.filter(pk=table_id).first())
        except TableError as refusal:
            raise CommandError(f"table {table_id}: {refusal.message}") from None
        checks = replay.verify(table)
        for check in checks:
            mark = "ok  " if check.ok else "FAIL"
            self.stdout.write(f"{mark} {check.name}: {check.detail}")
        failed = [check.name for check in checks if not check.ok]
        if failed:
            raise CommandError(f"table {table_id} does NOT verify: {', '.join(failed)} failed")
        self.stdout.write(self.style.SUCCESS(f"table {table_id} verified: the deal was fixed by its "
                                             f"commitment and the log replays to the recorded outcome"))
