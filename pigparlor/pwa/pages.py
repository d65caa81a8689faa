"""What the profile page shows about push notifications."""
from __future__ import annotations

from pigparlor.pwa.kinds import KINDS
from pigparlor.pwa.models import PushSubscription
from pigparlor.pwa.subscriptions import kinds_of


def notification_settings(user) -> dict:
    on = set(kinds_of(user.pk))
    return {
        "push_kinds": [{"name": kind.name, "label": kind.label, "help": kind.help, "on": kind.name in on}
                       for kind in KINDS],
        "push_devices": list(PushSubscription.objects.filter(user=user)),
    }
