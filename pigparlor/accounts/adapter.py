"""allauth's hooks: a new username goes through the same name checks as a display name."""
from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

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
