"""``manage.py tournaments --create-due``: create every series' coming editions
(what the clock's sweep does), and ``--advance`` every tournament that is due
or running (what the clock does at each start and table finish)."""
from django.core.management.base import BaseCommand
from django.utils import timezone

from pigparlor.tournaments import services
from pigparlor.tournaments.models import RUNNING, UPCOMING, Tournament
from pigparlor.tournaments.series import create_due_editions


class Command(BaseCommand):
    help = "Create the series' coming editions (--create-due); advance due and running tournaments (--advance)."

    def add_arguments(self, parser):
        parser.add_argument("--create-due", action="store_true", help="create each series' coming editions")
        parser.add_argument("--advance", action="store_true",
                            help="start the tournaments whose time has come and move running ones on")

    def handle(self, create_due, advance, **options):
        if not (create_due or advance):
            self.stderr.write("nothing to do: give --create-due and/or --advance")
            return
        if create_due:
            made = create_due_editions(timezone.now())
            for tournament in made:
                self.stdout.write(f"created {tournament.name!r} #{tournament.pk} starting {tournament.starts_at.isoformat()}")
            self.stdout.write(f"{len(made)} edition(s) created")
        if advance:
            due = (Tournament.objects.filter(status=UPCOMING, starts_at__lte=timezone.now())
                   | Tournament.objects.filter(status=RUNNING)).values_list("pk", flat=True)
            moved = sum(services.advance(pk) for pk in list(due))
            seated = 0
            while services.seat_next_table():
                seated += 1
            self.stdout.write(f"{moved} tournament(s) moved on, {seated} table(s) seated")
