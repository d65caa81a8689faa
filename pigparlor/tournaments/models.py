"""Tournaments: scheduled events of one or more stages, each a format
(elimination or Swiss) of one game, played at ordinary tables.

Only ``pigparlor.tournaments.services`` (and the clock's tick, through it)
writes these rows. A tournament table is an ordinary ``tables.Table`` linked
from here (``TournamentTable``); the tables know nothing of tournaments.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models

from pigparlor.tables.models import Table

UPCOMING, RUNNING, FINISHED, CANCELLED = "upcoming", "running", "finished", "cancelled"
ELIMINATION, SWISS = "elimination", "swiss"
DAILY, WEEKLY = "daily", "weekly"


class Series(models.Model):
    """A recurring tournament: every day (or every week on ``weekday``) at
    ``time`` (UTC), an edition named after the series, built from ``template``
    (the API's create body without ``name`` and ``starts_at``). The clock
    creates each edition ``ahead_hours`` before it starts."""

    CADENCES = [(DAILY, "Daily"), (WEEKLY, "Weekly")]

    name = models.CharField(max_length=80)
    cadence = models.CharField(max_length=10, choices=CADENCES, default=DAILY)
    weekday = models.PositiveSmallIntegerField(null=True, blank=True,
                                               help_text="0 = Monday … 6 = Sunday (weekly series only)")
    time = models.TimeField(help_text="UTC")
    template = models.JSONField(help_text='{"stages": [...], "capacity": {"min", "max"}, "conditions": {...}, '
                                          '"rated": true} as the API takes it')
    ahead_hours = models.PositiveSmallIntegerField(default=24)
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "series"

    def __str__(self):
        return self.name


class Tournament(models.Model):
    STATUSES = [(UPCOMING, "Upcoming"), (RUNNING, "Running"), (FINISHED, "Finished"), (CANCELLED, "Cancelled")]

    name = models.CharField(max_length=80)
    status = models.CharField(max_length=10, choices=STATUSES, default=UPCOMING, db_index=True)
    starts_at = models.DateTimeField(db_index=True)
    min_players = models.PositiveIntegerField(default=2)
    max_players = models.PositiveIntegerField(default=64)
    rated = models.BooleanField(default=True)
    # A player who hosts a tournament gets a casual one; they may ask staff to make it rated.
    rated_requested = models.BooleanField(default=False, help_text="The host asked for a rated tournament")
    # Entry conditions, read in the first stage's game (pigparlor.ratings).
    min_rating = models.IntegerField(null=True, blank=True)
    max_rating = models.IntegerField(null=True, blank=True)
    min_games = models.PositiveIntegerField(default=0)
    established = models.BooleanField(default=False)
    series = models.ForeignKey(Series, null=True, blank=True, on_delete=models.SET_NULL, related_name="editions")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="created_tournaments")
    cancel_reason = models.CharField(max_length=200, blank=True)
    # Counts every change (registrations, seatings, results): live pages re-render on a new one.
    revision = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["starts_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["series", "starts_at"], name="one_edition_per_start")]

    def __str__(self):
        return f"{self.name} ({self.status})"


class Stage(models.Model):
    """One part of a tournament, run in order: a format of one game."""

    FORMATS = [(ELIMINATION, "Elimination"), (SWISS, "Swiss")]

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="stages")
    index = models.PositiveSmallIntegerField()
    game = models.CharField(max_length=40)
    options = models.JSONField(default=dict)
    table_size = models.PositiveSmallIntegerField()
    format = models.CharField(max_length=12, choices=FORMATS)
    # Elimination: how many of each table go on. Swiss: how many go to the next stage (None when last).
    advance = models.PositiveSmallIntegerField(null=True, blank=True)
    # Swiss only: how many rounds.
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    # Points per place at a table of ``table_size`` (None: the default, table_size - place).
    points = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "index"]
        constraints = [models.UniqueConstraint(fields=["tournament", "index"], name="one_stage_per_index")]

    def __str__(self):
        return f"stage {self.index} of {self.tournament_id}: {self.format} of {self.game}"


class Entry(models.Model):
    """One player's registration and their path through the tournament."""

    REGISTERED, CHECKED_IN, IN, OUT = "registered", "checked_in", "in", "out"
    WITHDRAWN, NO_SHOW, REMOVED = "withdrawn", "no_show", "removed"
    STATUSES = [(REGISTERED, "Registered"), (CHECKED_IN, "Checked in"), (IN, "In"), (OUT, "Out"),
                (WITHDRAWN, "Withdrew"), (NO_SHOW, "Did not check in"), (REMOVED, "Removed")]

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries")
    status = models.CharField(max_length=12, choices=STATUSES, default=REGISTERED)
    # The shown rating in the first stage's game when registering (seeding and tie-breaks).
    rating = models.IntegerField(default=1500)
    registered_at = models.DateTimeField(auto_now_add=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    # Where the player left the tournament (eliminated, withdrew, removed): later is better.
    exit_stage = models.SmallIntegerField(null=True, blank=True)
    exit_round = models.SmallIntegerField(null=True, blank=True)
    # Their rank among those leaving at the same round (their place at the table, or in the Swiss cut).
    exit_rank = models.SmallIntegerField(null=True, blank=True)
    # The final place, once the tournament is finished (ties share).
    place = models.PositiveIntegerField(null=True, blank=True)
    removed_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["tournament", "registered_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_player")]
        verbose_name_plural = "entries"

    def __str__(self):
        return f"{self.user} in {self.tournament_id} ({self.status})"


class Round(models.Model):
    """One round of a stage: its tables (and byes) are seated together."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="round_set")
    index = models.PositiveSmallIntegerField()
    # The last round of an elimination stage that ends the tournament: one table.
    final = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "stage__index", "index"]
        constraints = [models.UniqueConstraint(fields=["stage", "index"], name="one_round_per_index")]

    def __str__(self):
        return f"round {self.index} of stage {self.stage.index} of {self.tournament_id}"


class TournamentTable(models.Model):
    """A table of a round: who sits where (planned in the round's transaction),
    then the real table, created by the clock one table at a time."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    index = models.PositiveSmallIntegerField()
    # User ids in seat order; bots fill the seats after them (``bots``).
    players = models.JSONField()
    bots = models.PositiveSmallIntegerField(default=0)
    table = models.OneToOneField(Table, null=True, blank=True, on_delete=models.PROTECT,
                                 related_name="tournament_table")
    recorded = models.BooleanField(default=False)

    class Meta:
        ordering = ["round", "index"]
        constraints = [models.UniqueConstraint(fields=["round", "index"], name="one_tournament_table_per_index")]

    def __str__(self):
        return f"table {self.index} of {self.round}"


class Result(models.Model):
    """What one round gave one player: a place at a table (among its humans),
    or a bye; and the points for it."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="results")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="results")
    table = models.ForeignKey(TournamentTable, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="results")
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.FloatField(default=0)
    bye = models.BooleanField(default=False)
    # A bot was playing the seat at the end (absent or left): scored last.
    left = models.BooleanField(default=False)

    class Meta:
        ordering = ["round", "entry"]
        constraints = [models.UniqueConstraint(fields=["round", "entry"], name="one_result_per_round")]

    def __str__(self):
        return f"{self.entry} in {self.round}: {'bye' if self.bye else self.place}"
