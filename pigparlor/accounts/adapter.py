"""allauth's hooks: a new username goes through the same name checks as a display name;
a banned player who logs in is sent back to the login page, told why."""
from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.shortcuts import redirect

from pigparlor.accounts import names


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

    def respond_user_inactive(self, request, user):
        """Right password, inactive account: a ban in force says why on the login page."""
        from pigparlor.moderation.models import Ban

        ban = Ban.objects.filter(user=user, lifted_at__isnull=True).first()
        if ban is None:
            return super().respond_user_inactive(request, user)
        messages.error(request, f"This account is banned: {ban.reason}")
        return redirect("account_login")
