from django.core.management.base import BaseCommand

from pigparlor.accounts.guests import expire_guests, stale_guests


class Command(BaseCommand):
    help = ("Delete guests nobody has played as for PIGPARLOR_GUEST_EXPIRY_DAYS days (the clock does this "
            "hourly too); --dry-run only counts them.")

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="count the stale guests, delete nothing")

    def handle(self, dry_run, **options):
        if dry_run:
            self.stdout.write(f"{stale_guests().count()} stale guests")
            return
        self.stdout.write(f"expired {expire_guests()} guests")
