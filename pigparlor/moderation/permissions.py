"""Who may moderate: members of the Moderator group, with its permissions.

A superuser holds every permission in Django's eyes, so the permission alone
would let any superuser act; moderation also asks for membership of the group
(issue 13: staff and superusers outside it see and do none of it).
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
    if user is None or not user.is_authenticated or not user.is_active or not user.is_staff:
        return False
    if not user.groups.filter(name=GROUP).exists():
        return False
    return permission is None or user.has_perm(f"moderation.{permission}")


def require(user, permission: str) -> None:
    """Refuse (403) anyone who is not a moderator holding ``permission``."""
    if not is_moderator(user, permission):
        raise PermissionDenied("only moderators may do that")
