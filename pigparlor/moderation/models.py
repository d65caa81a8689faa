"""Chat lines, mutes, reports, timeouts, bans, kicks and the mod log.

Chat lines are records of their room (``table:<id>`` or ``lobby:<game>``); a
moderator's removal marks a line, never deletes it. ``ModAction`` is the mod
log: one row per moderator action, written in the same transaction as the
action (``services``), append-only — its admin allows no add, change or delete,
and every reference from it protects what it names from deletion.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from pigparlor.tables.models import Table

USER = settings.AUTH_USER_MODEL
CHAT_MAX_LENGTH = 200


class ChatLine(models.Model):
    room = models.CharField(max_length=60, db_index=True)
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.CASCADE, related_name="chat_lines")
    author = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="chat_lines")
    text = models.CharField(max_length=CHAT_MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    removed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["room", "id"]
        indexes = [models.Index(fields=["room", "id"]), models.Index(fields=["author", "created_at"])]

    def __str__(self):
        return f"{self.room} #{self.pk} {self.author}: {self.text[:40]}"


class ChatMute(models.Model):
    """``user`` no longer sees ``muted``'s chat lines (only ``user``'s own view changes)."""

    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="chat_mutes")
    muted = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="one_mute_per_pair")]


class ChatTimeout(models.Model):
    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="chat_timeouts")
    until = models.DateTimeField()
    reason = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.user} timed out until {self.until:%Y-%m-%d %H:%M} UTC"


class Ban(models.Model):
    """A banned player cannot log in or hold a socket (their account is inactive
    while a ban is in force); ``lifted_at`` ends it."""

    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="bans")
    reason = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)
    lifted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user"], condition=Q(lifted_at__isnull=True),
                                               name="one_ban_in_force")]

    def __str__(self):
        return f"{self.user} banned" + (" (lifted)" if self.lifted_at else "")


class Kick(models.Model):
    """A player a moderator removed from a table: they may not take a seat there again."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="kicks")
    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="kicks")
    seat = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)


class Report(models.Model):
    ABUSE, CHEATING, STALLING, LEAVING, OTHER = "abuse", "cheating", "stalling", "leaving", "other"
    REASONS = [(ABUSE, "Abuse in chat"), (CHEATING, "Cheating"), (STALLING, "Stalling"), (LEAVING, "Leaving"),
               (OTHER, "Other")]
    OPEN, RESOLVED = "open", "resolved"
    ACTION_TAKEN, NO_ACTION = "action_taken", "no_action"
    OUTCOMES = [(ACTION_TAKEN, "Action taken"), (NO_ACTION, "No action")]

    reporter = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="reports_made")
    target = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="reports_received")
    reason = models.CharField(max_length=10, choices=REASONS)
    comment = models.CharField(max_length=500, blank=True)
    room = models.CharField(max_length=60, blank=True)
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="reports")
    table_version = models.PositiveIntegerField(null=True, blank=True)
    line = models.ForeignKey(ChatLine, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # The chat lines around the report when it was made: [{"id", "from", "text", "at"}].
    evidence = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    status = models.CharField(max_length=10, choices=[(OPEN, "Open"), (RESOLVED, "Resolved")], default=OPEN)
    outcome = models.CharField(max_length=15, choices=OUTCOMES, blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    # When the reporter dismissed the notification that their report was reviewed
    # (the notifications menu lists a resolved report until then).
    reporter_dismissed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["reporter", "target"], condition=Q(status="open"),
                                               name="one_open_report_per_pair")]

    def __str__(self):
        return f"report {self.pk}: {self.reporter} on {self.target} ({self.get_reason_display()})"


class ModAction(models.Model):
    """The mod log. Its ``Meta.permissions`` are the moderator actions; the
    Moderator group (migration 0002) holds exactly those and the views."""

    CLOSE, KICK, REMOVE_LINE, TIMEOUT, BAN, LIFT_BAN, VOID, RESOLVE = (
        "close_table", "kick_seat", "remove_chat", "timeout", "ban", "lift_ban", "void_ratings", "resolve_report")
    ACTIONS = [(CLOSE, "Close table"), (KICK, "Kick seat"), (REMOVE_LINE, "Remove chat line"),
               (TIMEOUT, "Chat timeout"), (BAN, "Ban"), (LIFT_BAN, "Lift ban"), (VOID, "Void ratings"),
               (RESOLVE, "Resolve report")]

    moderator = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="mod_actions")
    action = models.CharField(max_length=20, choices=ACTIONS)
    target = models.CharField(max_length=120, help_text="what was acted on, in words")
    target_user = models.ForeignKey(USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    target_table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    target_line = models.ForeignKey(ChatLine, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    target_report = models.ForeignKey(Report, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    reason = models.CharField(max_length=200)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = "mod log entry"
        verbose_name_plural = "mod log"
        permissions = [
            ("close_table", "Can close a table"),
            ("kick_seat", "Can kick a seat"),
            ("remove_chat", "Can remove a chat line"),
            ("timeout_player", "Can time out a player's chat"),
            ("ban_player", "Can ban a player and lift a ban"),
            ("void_ratings", "Can void a rated table's ratings"),
            ("resolve_report", "Can resolve a report"),
        ]

    def __str__(self):
        return f"{self.at:%Y-%m-%d %H:%M} {self.moderator}: {self.get_action_display()} {self.target}"


class LiveRoom(Table):
    """A table as the moderators' admin shows it (a proxy: no table of its own)."""

    class Meta:
        proxy = True
        verbose_name = "live room"
