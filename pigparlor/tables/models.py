"""A table: one game being played, its seats, and its append-only action log.

The engine state lives in ``Table.state`` as the engine's ``dump``; ``version``
counts the changes to it (0 = not started). ``seats_rev`` counts changes to who
sits where and who is connected, which the page shows but the engine never sees.
"""
from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import models

from games.core.replay import commitment, deal_seed

OPEN, RUNNING, FINISHED, ABORTED = "open", "running", "finished", "aborted"
# Missed turns in a row (the clock played them) before a bot plays the seat (pigparlor.tables.presence).
TIMEOUTS_BEFORE_BOT = 3


class Table(models.Model):
    STATUSES = [(OPEN, "Open"), (RUNNING, "Running"), (FINISHED, "Finished"), (ABORTED, "Aborted")]

    game = models.CharField(max_length=40, db_index=True)
    title = models.CharField(max_length=80, blank=True)
    host = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="hosted_tables")
    seats = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict)
    status = models.CharField(max_length=10, choices=STATUSES, default=OPEN, db_index=True)
    private = models.BooleanField(default=False)
    # A finished rated table moves its players' ratings (pigparlor.ratings).
    rated = models.BooleanField(default=False)
    # The host may make spectators read-only in the table's chat (pigparlor.moderation).
    spectators_chat = models.BooleanField(default=True)
    # Why a moderator closed the table (status ``aborted``), shown to everyone at it.
    closed_reason = models.CharField(max_length=240, blank=True)
    invite_code = models.CharField(max_length=32, blank=True)
    # The kind of bot that fills this table's bot seats, now or when the host starts early:
    # the level the host picked (games.core.bots; issue 15). Stand-ins for players who left
    # are always "sensible" (pigparlor.tables.botdriver.STAND_IN).
    bot_kind = models.CharField(max_length=20, default="sensible")
    # A first game with hints (pigparlor/tables/lessons.py): the game's lesson deal, bots,
    # unrated, and each seat's hint on the page (games.core.coach).
    tutorial = models.BooleanField(default=False)
    # The server's secret seed, revealed once the table is over; ``commitment``
    # (sha256 of it, games.core.replay) is shown from the creation on.
    seed = models.BigIntegerField()
    commitment = models.CharField(max_length=64, blank=True)
    # One random salt per seat (or null), sent by the seats' clients before the
    # deal and mixed into the seed the engine deals from (docs/fairness.md).
    salts = models.JSONField(default=list, blank=True)
    version = models.PositiveIntegerField(default=0)
    seats_rev = models.PositiveIntegerField(default=0)
    state = models.JSONField(null=True, blank=True)
    outcome = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    started_at_ms = models.BigIntegerField(null=True, blank=True)
    changed_at_ms = models.BigIntegerField(null=True, blank=True)
    wake_at_ms = models.BigIntegerField(null=True, blank=True, db_index=True)
    # "Play again": the finished table this one replays (same players and options).
    # An open rematch starts at ``wake_at_ms`` with bots in the seats nobody took.
    rematch_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="rematches")
    # Sockets open here by people without a seat: a cache of the ``Presence`` rows,
    # recounted under the table's lock with the seats' connections (presence.recount).
    watchers = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.game} table {self.pk} ({self.status})"

    def save(self, *args, **kwargs):
        if not self.commitment:
            self.commitment = commitment(self.seed)
        super().save(*args, **kwargs)

    @property
    def deal_seed(self) -> int:
        """The seed the engine deals from: ``seed`` mixed with the seats' salts."""
        return deal_seed(self.seed, self.salts or ())

    @property
    def display_title(self) -> str:
        return self.title or f"Table {self.pk}"

    @property
    def game_title(self) -> str:
        from games.core.registry import UnknownGame, get_game

        try:
            return get_game(self.game).title
        except UnknownGame:
            return self.game


class Seat(models.Model):
    """One chair. A bot seat has ``bot_kind``; a human seat whose player is gone
    (no socket past the grace) or missed ``TIMEOUTS_BEFORE_BOT`` turns in
    a row is ``replaced`` (a bot plays it) until the player returns. A player who
    pressed Leave during play has ``resigned``: a bot plays the seat to the end and
    it is not theirs to take back (their result counts as leaving)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_set")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="seats")
    bot_kind = models.CharField(max_length=20, blank=True)
    replaced = models.BooleanField(default=False)
    resigned = models.BooleanField(default=False)
    # Missed turns in a row (the clock played them): reset by the player's own move or "I'm here".
    timeouts = models.PositiveSmallIntegerField(default=0)
    # The game-log events a stand-in bot made for this seat, as [first, last] event
    # numbers (last null while it still plays): the page labels them "Bot for …".
    bot_events = models.JSONField(default=list, blank=True)
    # How many table sockets the seat's owner has open here: a cache of their
    # ``Presence`` rows, recounted under the table's lock (presence.recount).
    connections = models.PositiveSmallIntegerField(default=0)
    left_at_ms = models.BigIntegerField(null=True, blank=True)
    # A rematch keeps each player's seat for them until the table starts.
    reserved_for = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                     on_delete=models.SET_NULL, related_name="reserved_seats")

    class Meta:
        ordering = ["table", "index"]
        constraints = [models.UniqueConstraint(fields=["table", "index"], name="one_seat_per_index")]

    def __str__(self):
        return f"seat {self.index} of table {self.table_id}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_kind) or self.replaced

    @property
    def taken(self) -> bool:
        return bool(self.bot_kind) or self.user_id is not None

    def free_for(self, user) -> bool:
        """Empty, and not kept for another player of a rematch."""
        return not self.taken and self.reserved_for_id in (None, getattr(user, "pk", None))


class Presence(models.Model):
    """One open socket of the site: whose (nobody's for a visitor without an
    account, then from which address), of which kind (``table``, ``lobby``,
    ``tournament``, ``player``), at which table for a table socket, held by which
    server process. The socket caps count these rows (presence.reserve), so they
    hold across processes; a table's seats are recounted from its rows.

    A process that dies leaves its rows behind; they are swept once its heartbeat
    (``ServerProcess``) expires, so a seat is "connected" only while a live
    process holds a socket of its owner (presence.sweep)."""

    KINDS = ("table", "lobby", "tournament", "player")

    kind = models.CharField(max_length=12, default="table")
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.CASCADE, related_name="presences")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="table_presences")
    # The client's address (behind a proxy, from X-Forwarded-For: docs/operations.md).
    address = models.CharField(max_length=64, blank=True, default="")
    process = models.CharField(max_length=32, db_index=True)
    channel = models.CharField(max_length=200, unique=True)
    opened_ms = models.BigIntegerField()

    class Meta:
        indexes = [models.Index(fields=["kind", "user"], name="presence_kind_user"),
                   models.Index(fields=["kind", "address"], name="presence_kind_address")]

    def __str__(self):
        where = f"at table {self.table_id}" if self.table_id else f"on a {self.kind} page"
        return f"{self.user_id or self.address} {where} via {self.process}"


class ServerProcess(models.Model):
    """A running ``serve`` process and its latest heartbeat (epoch ms)."""

    id = models.CharField(primary_key=True, max_length=32)
    started_ms = models.BigIntegerField()
    beat_ms = models.BigIntegerField(db_index=True)

    def __str__(self):
        return f"process {self.id}"


class ActionLog(models.Model):
    """Every change to a table's state, in order: replaying these from the seed
    (``now_ms`` = ``at_ms - started_at_ms``) rebuilds the state exactly."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="actions")
    version = models.PositiveIntegerField()
    seat = models.SmallIntegerField(null=True, blank=True)
    action = models.JSONField()
    at_ms = models.BigIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    # For the clock's moves (seat null): the seats whose own move it made because their
    # time ran out (Engine.clock_plays_for). Not their player's move, nor a bot's.
    timed_out = models.JSONField(default=list, blank=True)
    # games.core.replay.state_digest of the state this action made: verification finds
    # the first version a changed log leaves the game played (empty on older rows).
    state_sha = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["table", "version"]
        constraints = [models.UniqueConstraint(fields=["table", "version"], name="one_action_per_version")]

    def __str__(self):
        return f"table {self.table_id} v{self.version}: {self.action}"


def seats_of(table: Table) -> list[Seat]:
    """A table's seats in order, with each player (and their profile, where the
    accounts app provides one) loaded, so rendering names needs no more queries."""
    related = ["user"]
    if hasattr(get_user_model(), "profile"):
        related.append("user__profile")
    return list(table.seat_set.select_related(*related).order_by("index"))
