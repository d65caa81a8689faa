"""``notify``: the one way any part of the site sends a player a push notification.

    notify(user, kind, url, title, body, tag="")

queues the push for after the current transaction commits (at once outside
one): nothing is sent from inside a table's transaction, and a rolled-back
change sends nothing. The sender thread then checks the player's kinds,
encrypts the payload for each of their devices (aes128gcm, RFC 8291), signs
with the site's VAPID key and POSTs it, only to an endpoint that passes
pigparlor.pwa.endpoints' rules again now, over a connection pinned to the
address it checked (an endpoint that breaks them is dropped). A push
service's 404 or 410 means the subscription is gone for good: it is dropped.
Any other failure is logged.

The payload, which the service worker shows (templates/pwa/sw.js):
``{"kind", "title", "body", "url", "tag", "badge"}`` — ``badge`` is how many
of the player's tables wait on them, for the app icon's badge.
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from pywebpush import WebPushException, webpush

from pigparlor.ops import metrics
from pigparlor.pwa import endpoints, sender, vapid
from pigparlor.pwa.kinds import BY_NAME, TURN
from pigparlor.pwa.models import PushSubscription
from pigparlor.pwa.subscriptions import kinds_of

log = logging.getLogger(__name__)

TITLE_MAX, BODY_MAX = 80, 200
GONE = (404, 410)


@dataclass(frozen=True)
class Message:
    user_id: int
    kind: str
    url: str
    title: str
    body: str
    tag: str = ""

    def __call__(self) -> int:
        return deliver(self)


def notify(user, kind: str, url: str, title: str, body: str, tag: str = "") -> None:
    """Push ``title``/``body`` to every device of ``user`` (a user, or a user's id)
    that wants ``kind``; a click opens ``url`` (a path on this site). Sent after the commit."""
    if kind not in BY_NAME:
        raise ValueError(f"unknown push kind {kind!r}")
    parts = urlsplit(url)
    if not url.startswith("/") or url.startswith("//") or parts.scheme or parts.netloc:
        raise ValueError(f"a push opens a path on this site, not {url!r}")
    user_id = user if isinstance(user, int) else user.pk
    message = Message(user_id, kind, url, title[:TITLE_MAX], body[:BODY_MAX], tag or kind)
    transaction.on_commit(lambda: sender.enqueue(message))


def payload(message: Message) -> str:
    from pigparlor.pwa.turns import waiting_count

    return json.dumps({"kind": message.kind, "title": message.title, "body": message.body, "url": message.url,
                       "tag": message.tag, "badge": waiting_count(message.user_id)})


def deliver(message: Message) -> int:
    """Send now (on the sender thread): to each of the player's devices, if they want this kind.
    Returns how many push services accepted it."""
    if message.kind not in kinds_of(message.user_id):
        return 0
    devices = list(PushSubscription.objects.filter(user_id=message.user_id))
    if not devices:
        return 0
    data = payload(message)
    return sum(send(device, data, message.kind) for device in devices)


def send(device: PushSubscription, data: str, kind: str) -> bool:
    sent = _send(device, data, kind)
    metrics.PUSH_SENT.labels("ok" if sent else "failed").inc()
    return sent


def _send(device: PushSubscription, data: str, kind: str) -> bool:
    host = urlsplit(device.endpoint).netloc
    try:
        destination = endpoints.check(device.endpoint)
    except endpoints.Refused as refusal:
        if refusal.lasting:
            PushSubscription.objects.filter(pk=device.pk).delete()
            log.warning("push to %s refused (%s): dropped subscription %s", host, refusal.message, device.pk)
        else:
            log.warning("push to %s refused (%s), not retried", host, refusal.message)
        return False
    try:
        with endpoints.session(destination) as pinned:
            webpush(device.as_info(), data=data, vapid_private_key=vapid.signer(),
                    vapid_claims={"sub": settings.PIGPARLOR_PUSH_CONTACT}, ttl=BY_NAME[kind].ttl_s,
                    timeout=settings.PIGPARLOR_PUSH_TIMEOUT_S, requests_session=pinned,
                    headers={"Urgency": "high" if kind == TURN else "normal"})
    except WebPushException as failure:
        if failure.status_code in GONE:
            PushSubscription.objects.filter(pk=device.pk).delete()
            log.info("push service %s says subscription %s is gone (%s): dropped it", host, device.pk,
                     failure.status_code)
        else:
            log.warning("push to %s failed (%s), not retried", host, failure.status_code or failure.message)
        return False
    except requests.RequestException as failure:
        log.warning("push to %s failed (%s), not retried", host, failure.__class__.__name__)
        return False
    PushSubscription.objects.filter(pk=device.pk).update(last_sent_at=timezone.now())
    return True
