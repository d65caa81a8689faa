"""Turning push notifications on and off, per device, and choosing the kinds.

A subscription is what the browser's ``PushManager.subscribe()`` gives:
``{"endpoint": "https://…", "keys": {"p256dh": "…", "auth": "…"}}``. The
endpoint is where this server will POST, so it must pass the rules of
pigparlor.pwa.endpoints (https, a host name that resolves to public
addresses only). Every refusal is a ``TableError`` with the protocol's codes
and stores nothing.
"""
from __future__ import annotations

import binascii

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from pigparlor.accounts.guests import PUSH_REFUSAL, refuse_guest
from pigparlor.pwa import endpoints
from pigparlor.pwa.kinds import NAMES
from pigparlor.pwa.models import PushPreference, PushSubscription
from pigparlor.pwa.vapid import b64url_decode
from pigparlor.tables import inputs
from pigparlor.tables.errors import BAD_REQUEST, RATE_LIMITED, TableError

ENDPOINT_MAX = PushSubscription._meta.get_field("endpoint").max_length
DEVICE_MAX = PushSubscription._meta.get_field("device").max_length


def bad(message: str) -> TableError:
    return TableError(BAD_REQUEST, message)


def check_endpoint(endpoint) -> str:
    """The endpoint, if this server may push to it (pigparlor.pwa.endpoints: its name resolved now)."""
    if not isinstance(endpoint, str) or not endpoint:
        raise bad("endpoint must be the push service's URL, a string")
    if len(endpoint) > ENDPOINT_MAX:
        raise bad(f"endpoint is longer than {ENDPOINT_MAX} characters")
    try:
        endpoints.check(endpoint)
    except endpoints.Refused as refusal:
        raise bad(refusal.message) from None
    return endpoint


def check_keys(keys) -> tuple[str, str]:
    """The browser's P-256 public key (65 bytes, a point on the curve) and its 16-byte auth secret."""
    if not isinstance(keys, dict) or set(keys) - {"p256dh", "auth"}:
        raise bad('keys must be an object with "p256dh" and "auth"')
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if not isinstance(p256dh, str) or not isinstance(auth, str) or len(p256dh) > 100 or len(auth) > 40:
        raise bad("keys.p256dh and keys.auth must be base64url strings")
    try:
        point, secret = b64url_decode(p256dh), b64url_decode(auth)
    except (binascii.Error, ValueError):
        raise bad("keys.p256dh and keys.auth must be base64url strings") from None
    if len(point) != 65:
        raise bad("keys.p256dh must be an uncompressed P-256 point (65 bytes)")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise bad("keys.p256dh is not a point on the P-256 curve") from None
    if len(secret) != 16:
        raise bad("keys.auth must be 16 bytes")
    return p256dh, auth


def max_subscriptions() -> int:
    return settings.PIGPARLOR_PUSH_MAX_SUBSCRIPTIONS


@transaction.atomic
def subscribe(user, endpoint, keys, device="") -> tuple[PushSubscription, bool]:
    """Turn notifications on for one device; True if it was new for this user.
    The same endpoint again updates its keys (and moves it to ``user``: one
    browser, whoever signed in last). A guest gets none (``forbidden``)."""
    refuse_guest(user, PUSH_REFUSAL)
    endpoint = check_endpoint(endpoint)
    p256dh, auth = check_keys(keys)
    device = inputs.visible_text(device, "device", DEVICE_MAX) if device else ""
    existing = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
    if existing is None or existing.user_id != user.pk:
        # Lock the user's row so two subscribes at once cannot both pass the limit.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        if PushSubscription.objects.filter(user=user).count() >= max_subscriptions():
            raise TableError(RATE_LIMITED, f"you have notifications on for {max_subscriptions()} devices already: "
                                           "turn one off on your profile first")
    if existing is None:
        return PushSubscription.objects.create(user=user, endpoint=endpoint, p256dh=p256dh, auth=auth,
                                               device=device), True
    created = existing.user_id != user.pk
    existing.user, existing.p256dh, existing.auth = user, p256dh, auth
    existing.device = device or existing.device
    existing.save(update_fields=["user", "p256dh", "auth", "device"])
    return existing, created


def unsubscribe(user, endpoint) -> bool:
    """This device's notifications off; False if the user had no such subscription."""
    if not isinstance(endpoint, str):
        raise bad("endpoint must be a string")
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return bool(deleted)


def remove_device(user, subscription_id) -> bool:
    deleted, _ = PushSubscription.objects.filter(user=user, pk=subscription_id).delete()
    return bool(deleted)


def kinds_of(user_id: int) -> list[str]:
    """The kinds a player wants pushed (all of them until they choose)."""
    preference = PushPreference.objects.filter(user_id=user_id).first()
    return list(NAMES) if preference is None else [name for name in NAMES if name in preference.kinds]


def set_kinds(user, kinds) -> list[str]:
    """The kinds this player wants pushed, from now on, to every device."""
    if not isinstance(kinds, (list, tuple)) or not all(isinstance(kind, str) for kind in kinds):
        raise bad("kinds must be a list of kind names")
    unknown = sorted(set(kinds) - set(NAMES))
    if unknown:
        raise bad(f"unknown kind {unknown[0]!r}: the kinds are {', '.join(NAMES)}")
    chosen = [name for name in NAMES if name in kinds]
    PushPreference.objects.update_or_create(user=user, defaults={"kinds": chosen})
    return chosen
