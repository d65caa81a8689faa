"""Web Push: each device a player turned notifications on for, their choice of
kinds, the "your turn" debounce, invitations sent by name, and the players one muted."""
from __future__ import annotations

from django.conf import settings
from django.db import models

from pigparlor.pwa.kinds import NAMES


class PushSubscription(models.Model):
    """One browser on one device (its push service endpoint and encryption keys).
    A browser has one endpoint per site: whoever subscribes it last owns it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.CharField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=40)
    device = models.CharField(max_length=80, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]

    def __str__(self):
        return f"push to {self.device or 'a device'} of {self.user_id}"

    def as_info(self) -> dict:
        """What pywebpush calls ``subscription_info``."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


def all_kinds() -> list[str]:
    return list(NAMES)


class PushPreference(models.Model):
    """The kinds a player wants pushed (to every device). No row: all of them."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_preference")
    kinds = models.JSONField(default=all_kinds)

    def __str__(self):
        return f"push kinds of {self.user_id}: {', '.join(self.kinds)}"


class TurnAlert(models.Model):
    """A "your turn" push went out for this table: no more until the player acts there
    (a move of theirs in the table's log after ``version``, pigparlor.pwa.turns)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE, related_name="+")
    sent_ms = models.BigIntegerField()
    # The table's version the push was about.
    version = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "table"], name="one_turn_alert_per_table")]


class Invitation(models.Model):
    """A player invited another, by name, to a private table (once per table and invitee)."""

    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE, related_name="invitations")
    inviter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    invitee = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations")
    created_at = models.DateTimeField(auto_now_add=True)
    # False: not pushed, the invitee had muted the inviter (pigparlor.pwa.invites).
    pushed = models.BooleanField(default=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "invitee"], name="one_invitation_per_invitee")]
        indexes = [models.Index(fields=["invitee", "created_at"], name="invitations_to_player_by_time")]


class Mute(models.Model):
    """A player who wants no more invitation pushes from another (their profile's button)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at"]
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="one_mute_per_player")]

    def __str__(self):
        return f"{self.user_id} muted {self.muted_id}"


class SentOnce(models.Model):
    """A push that must go out once however many processes notice its moment (a
    tournament's check-in opening): the first to insert the key sends it."""

    key = models.CharField(max_length=100, unique=True)
    sent_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return self.key
