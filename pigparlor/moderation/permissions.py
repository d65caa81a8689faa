"""Who may moderate: an active superuser (every moderator power), and staff
members of the Moderator group, with its permissions.

The site's owner is the superuser ``createsuperuser`` makes: they must be able
to moderate (and to give others the group) without first joining it. Staff
outside the group see and do none of it: their refusal is a quiet 403.
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
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser:
        return True
    if not user.is_staff:
        return False
    if not user.groups.filter(name=GROUP).exists():
        return False
    return permission is None or user.has_perm(f"moderation.{permission}")


def require(user, permission: str) -> None:
    """Refuse (403) anyone who is not a moderator holding ``permission``."""
    if not is_moderator(user, permission):
        raise PermissionDenied("only moderators may do that")
