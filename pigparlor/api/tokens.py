"""Creating, revoking and checking personal API tokens.

Tokens are 256 random bits, so a plain SHA-256 digest is enough to store them
safely (no salt or slow hash is needed against guessing).
"""
from __future__ import annotations

import hashlib
import secrets

from django.db import transaction
from django.utils import timezone

from pigparlor.accounts.guests import TOKEN_REFUSAL, is_guest, refuse_guest
from pigparlor.api.models import ApiToken
from pigparlor.tables.broadcast import revoke_sockets, token_group

PREFIX = "pp_"


def digest(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def create_token(user, name: str = "") -> str:
    """A fresh token for ``user``; returns the raw token (never stored). A guest gets none
    (``forbidden``): a token would outlive the guest's session and its limits."""
    refuse_guest(user, TOKEN_REFUSAL)
    raw = PREFIX + secrets.token_urlsafe(32)
    ApiToken.objects.create(user=user, name=name[:60], prefix=raw[:10], digest=digest(raw))
    return raw


@transaction.atomic
def revoke_token(user, token_id: int) -> bool:
    """Delete one of ``user``'s tokens and close the sockets it opened; False if
    they have no such token."""
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    if deleted:
        revoke_sockets(token_group(token_id), "this API token was revoked")
    return bool(deleted)


def token_for(raw: str | None) -> ApiToken | None:
    """The token a raw token string names, if it belongs to an active user."""
    if not raw or not raw.startswith(PREFIX):
        return None
    token = ApiToken.objects.select_related("user").filter(digest=digest(raw)).first()
    if token is None or not token.user.is_active or is_guest(token.user):
        return None
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
    return token


def user_for_token(raw: str | None):
    """The active user a raw token belongs to, or None."""
    token = token_for(raw)
    return token.user if token is not None else None


def bearer(header: str | None) -> str | None:
    """The token in an ``Authorization: Bearer <token>`` header value."""
    if not header:
        return None
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" else None
