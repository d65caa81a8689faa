"""What the profile page shows about push notifications."""
from __future__ import annotations

from pigparlor.pwa.kinds import KINDS
from pigparlor.pwa.models import Invitation, Mute, PushSubscription
from pigparlor.pwa.subscriptions import kinds_of

RECENT_INVITATIONS = 10


def notification_settings(user) -> dict:
    on = set(kinds_of(user.pk))
    mutes = list(Mute.objects.filter(user=user).select_related("muted"))
    muted = {mute.muted_id for mute in mutes}
    invitations = (Invitation.objects.filter(invitee=user).select_related("inviter", "table")
                   .order_by("-created_at")[:RECENT_INVITATIONS])
    return {
        "push_kinds": [{"name": kind.name, "label": kind.label, "help": kind.help, "on": kind.name in on}
                       for kind in KINDS],
        "push_devices": list(PushSubscription.objects.filter(user=user)),
        "push_invitations": [{"inviter": invitation.inviter, "table": invitation.table.display_title,
                              "at": invitation.created_at, "muted": invitation.inviter_id in muted}
                             for invitation in invitations],
        "push_muted": [mute.muted for mute in mutes],
    }
