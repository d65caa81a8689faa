"""allauth's hooks: a new username goes through the same name checks as a display name;
a guest who signs up becomes the new account (keeping their games); a banned player who
logs in is sent back to the login page, told why."""
from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.shortcuts import redirect

from pigparlor.accounts import guests, names


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        """NFKC first (what Django stores anyway), then allauth's own checks, then
        ours (``names``). ``shallow`` (allauth generating a free username) skips
        the database look-ups, as allauth's own check does."""
        username = names.normalize(username)
        limit = get_user_model()._meta.get_field(get_user_model().USERNAME_FIELD).max_length
        if len(username) > limit:
            raise ValidationError(f"A username has at most {limit} characters.", code="max_length")
        username = super().clean_username(username, shallow=shallow)
        if shallow:
            reason = names.problem(username)
            if reason:
                raise ValidationError(reason, code="deceptive_name")
            return username
        return names.check(username)

    def new_user(self, request):
        """A guest's sign-up fills in the guest's own user: their seats, finished games and
        running tables are theirs already (pigparlor.accounts.guests)."""
        return guests.guest_user(request) or super().new_user(request)

    def save_user(self, request, user, form, commit=True):
        with transaction.atomic():
            if not commit:
                return super().save_user(request, user, form, commit=False)
            was_guest = user.pk is not None
            if was_guest and not guests.still_a_guest(user):
                user = super().new_user(request)  # signed up already (another tab): a new account
                was_guest = False
            saved = super().save_user(request, user, form, commit=True)
            if was_guest:
                guests.become_full_account(saved)
            return saved

    def respond_user_inactive(self, request, user):
        """Right password, inactive account: a ban in force says why on the login page."""
        from pigparlor.moderation.models import Ban

        ban = Ban.objects.filter(user=user, lifted_at__isnull=True).first()
        if ban is None:
            return super().respond_user_inactive(request, user)
        messages.error(request, f"This account is banned: {ban.reason}")
        return redirect("account_login")
