from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from pigparlor.api.tokens import create_token
from pigparlor.tables.errors import TableError


class Command(BaseCommand):
    help = "Print a fresh personal API token for USERNAME (--create makes the account if missing)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--create", action="store_true", help="create the account if it does not exist")

    def handle(self, username, create, **options):
        User = get_user_model()
        user = User.objects.filter(username=username).first()
        if user is None:
            if not create:
                raise CommandError(f"no user {username!r} (use --create)")
            user = User.objects.create_user(username=username)
            user.set_unusable_password()
            user.save()
        try:
            self.stdout.write(create_token(user, name="manage.py api_token"))
        except TableError as refusal:
            raise CommandError(refusal.message) from None
