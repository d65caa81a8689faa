"""Who may moderate: members of the Moderator group, with its permissions.

A superuser holds every permission in Django's eyes, so the permission alone
would let any superuser act; moderation also asks for membership of the group
(issue 13: staff and superusers outside it see and do none of it). A moderator also needs
two-factor sign-in.
"""
from __future__ import annotations

from django.core.exceptions import PermissionDenied

GROUP = "Moderator"
# Exactly what the group holds (migration 0002): the views of its admin pages and the actions.
VIEWS = ("view_liveroom", "view_report", "view_chatline", "view_modaction", "view_ban", "view_chattimeout")
ACTIONS = ("close_table", "kick_seat", "remove_chat", "timeout_player", "ban_player", "void_ratings",
           "resolve_report")
PERMISSIONS = VIEWS + ACTIONS


def is_moderator(user, permission: str | None = None) -> bool:
    """A member of the group, with ``permission`` if named, who has two-factor sign-in: without
    it no moderator power holds anywhere (the admin, the services, private replays through the
    API), and the admin sends them to set it up (pigparlor/accounts/mfa.py)."""
    if user is None or not user.is_authenticated or not user.is_active or not user.is_staff:
        return False
    if not user.groups.filter(name=GROUP).exists():
        return False
    if permission is not None and not user.has_perm(f"moderation.{permission}"):
        return False
    from pigparlor.accounts.mfa import has_second_factor

    return has_second_factor(user)


def require(user, permission: str) -> None:
    """Refuse (403) anyone who is not a moderator holding ``permission``."""
    if not is_moderator(user, permission):
        raise PermissionDenied("only moderators may do that")
