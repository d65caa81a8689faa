"""Every save of a username or a display name refreshes the user's name skeletons,
whichever door it came through (sign-up, profile form, admin, management commands)."""
from __future__ import annotations

from pigparlor.accounts import names


def user_saved(sender, instance, update_fields=None, **kwargs) -> None:
    if update_fields is not None and "username" not in update_fields:
        return  # e.g. login's last_login update
    names.remember(instance)


def profile_saved(sender, instance, **kwargs) -> None:
    names.remember(instance.user)
