"""``manage.py moderator USERNAME [--remove]``: put a user in the Moderator group
(and make them staff, so they can open the admin), or take them out of it."""
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError

from pigparlor.moderation.permissions import GROUP


class Command(BaseCommand):
    help = "Add a user to the Moderator group (--remove takes them out)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--remove", action="store_true", help="take the user out of the group")

    def handle(self, username, remove, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user {username!r}")
        group = Group.objects.filter(name=GROUP).first()
        if group is None:
            raise CommandError(f"no {GROUP} group: run `manage.py migrate` first")
        if remove:
            user.groups.remove(group)
            if not user.is_superuser and not user.groups.exists() and not user.user_permissions.exists():
                user.is_staff = False
                user.save(update_fields=["is_staff"])
            self.stdout.write(f"{username} is no longer a moderator")
            return
        user.groups.add(group)
        if not user.is_staff:
            user.is_staff = True
            user.save(update_fields=["is_staff"])
        from pigparlor.accounts.mfa import has_second_factor

        note = "" if has_second_factor(user) else " (the admin asks them to set up two-factor sign-in first)"
        self.stdout.write(f"{username} is a moderator{note}")
