"""Every end of a session closes its sockets, of every kind, in every process.

A socket of a signed-in user joins two groups (``credential_groups``): the
user's (``user_group``) and its credential's — a browser's *login* (one per
log-in, kept in the session across its key changes) or the API token it
connected with. ``socket.revoked`` sent to one of them closes the socket
with 4401 (``guard.GuardedSocket``). Who sends it:

- a logout: that login's sockets;
- a password change, by any door (allauth's form, the admin, ``changepassword``,
  a hash upgraded at log-in): every browser socket of the user except those of
  the login that changed it, as Django logs the other sessions out (API tokens
  stay valid: they are revoked one by one on the profile page);
- a deactivation (``is_active`` off: the admin, a ban, anywhere): every socket
  of the user, API tokens' too;
- a revoked API token (``pigparlor.api.tokens``) and a ban
  (``pigparlor.moderation.services``) send their own, with their reason.
"""
from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.auth import user_logged_in, user_logged_out
from django.db import transaction
from django.db.models.signals import post_save, pre_save

from pigparlor.tables.broadcast import group_send, revoke_sockets, session_group, token_group, user_group

# The session key naming the log-in (a random id made at log-in): it survives
# the session key's changes (a password change cycles the key), not a logout.
LOGIN_KEY = "pigparlor_login"


def login_group(session) -> str | None:
    """The group of the sockets opened in one log-in of a browser (None: no session)."""
    if session is None:
        return None
    login = session.get(LOGIN_KEY) or session.session_key
    return session_group(login) if login else None


def credential_groups(scope) -> list[str]:
    """The groups that hear when this socket's credentials end (none for a visitor).
    Reads the session: call it off the event loop."""
    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return []
    token_id = scope.get("api_token_id")
    own = token_group(token_id) if token_id is not None else login_group(scope.get("session"))
    return [user_group(user.pk), *([own] if own else [])]


def revocation_applies(event: dict, groups: list[str], api: bool) -> bool:
    """Whether a ``socket.revoked`` event closes a socket in ``groups``: not the
    login it spares, and a password change leaves API tokens' sockets open."""
    if event.get("keep") and event["keep"] in groups:
        return False
    return not (api and event.get("browsers_only"))


def logged_in(sender, request=None, **kwargs) -> None:
    if request is not None and hasattr(request, "session"):
        request.session[LOGIN_KEY] = secrets.token_hex(16)


def logged_out(sender, request=None, **kwargs) -> None:
    """A browser logged out: its sockets close (sent before the session is flushed)."""
    group = login_group(getattr(request, "session", None))
    if group:
        revoke_sockets(group, "you logged out")


def before_user_saved(sender, instance, update_fields=None, **kwargs) -> None:
    """Remember the password hash and ``is_active`` the row had, when this save may change them."""
    instance._credentials_before = None
    if instance.pk is None or (update_fields is not None and not {"password", "is_active"} & set(update_fields)):
        return
    instance._credentials_before = sender.objects.filter(pk=instance.pk).values_list(
        "password", "is_active").first()


def user_saved(sender, instance, created=False, **kwargs) -> None:
    before = getattr(instance, "_credentials_before", None)
    instance._credentials_before = None
    if created or before is None:
        return
    password, active = before
    if active and not instance.is_active:
        revoke_sockets(user_group(instance.pk), "this account was deactivated")
    elif password != instance.password:
        event = {"type": "socket.revoked", "reason": "the password was changed: log in again",
                 "browsers_only": True, "keep": _changing_login(instance)}
        group = user_group(instance.pk)
        transaction.on_commit(lambda: group_send(group, event))


def _changing_login(user) -> str | None:
    """The log-in that is changing ``user``'s password now (allauth's request
    context), which stays logged in; None when it is someone else (the admin)."""
    from allauth.core import context

    request = context.request
    if request is None or getattr(getattr(request, "user", None), "pk", None) != user.pk:
        return None
    return login_group(getattr(request, "session", None))


def connect() -> None:
    user_model = settings.AUTH_USER_MODEL
    user_logged_in.connect(logged_in, dispatch_uid="tables.credentials.logged_in")
    user_logged_out.connect(logged_out, dispatch_uid="tables.credentials.logged_out")
    pre_save.connect(before_user_saved, sender=user_model, dispatch_uid="tables.credentials.before_user_saved")
    post_save.connect(user_saved, sender=user_model, dispatch_uid="tables.credentials.user_saved")
