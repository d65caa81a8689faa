"""Ratings: the current rating per player per game, and the append-only events
it is a cache of.

Only ``pigparlor.ratings.service`` writes these rows. ``Rating`` can always be
rebuilt by replaying the rated tables in the order they were rated
(``service.replay``); a voided table is undone the same way, without it.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models

from pigparlor.ratings.scale import Skill, Standing
from pigparlor.tables.models import Table


class Rating(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=40)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_rating_per_game")]
        indexes = [models.Index(fields=["game", "sigma"])]

    def __str__(self):
        return f"{self.user} {self.game} {self.skill.shown}"

    @property
    def skill(self) -> Skill:
        return Skill(self.mu, self.sigma)

    @property
    def standing(self) -> Standing:
        return Standing(self.skill, self.games)


class RatingEvent(models.Model):
    """One decision about one player's rating (the service's docstring has the rules).

    ``table`` events rate a finished table (at most one per player per table);
    ``repeat`` events record that a table was not rated because its players had
    already played enough rated games together (before == after); ``void`` events
    undo a voided table and ``rules`` events (no table) follow a change of the
    rating rules, each by moving the rating to what the replay gives. ``games`` is
    the player's number of rated games after the event."""

    TABLE, REPEAT, VOID, RULES = "table", "repeat", "void", "rules"
    REASONS = [(TABLE, "Rated table"), (REPEAT, "Not rated: a repeat"), (VOID, "Table voided"),
               (RULES, "Rating rules changed")]
    DECISIONS = (TABLE, REPEAT)

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_events")
    game = models.CharField(max_length=40)
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.PROTECT, related_name="rating_events")
    seat = models.SmallIntegerField(null=True, blank=True)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    reason = models.CharField(max_length=10, choices=REASONS, default=TABLE)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        constraints = [models.UniqueConstraint(fields=["table", "user"], condition=models.Q(reason__in=["table", "repeat"]),
                                               name="one_decision_per_table_and_player")]
        indexes = [models.Index(fields=["user", "game", "id"])]

    def __str__(self):
        return f"{self.user} {self.game} table {self.table_id}: {self.before.rating} → {self.after.rating}"

    @property
    def before(self) -> Skill:
        return Skill(self.mu_before, self.sigma_before)

    @property
    def after(self) -> Skill:
        return Skill(self.mu_after, self.sigma_after)


class VoidedTable(models.Model):
    """A table whose result no longer counts (moderation): never rated again,
    left out of every replay."""

    table = models.OneToOneField(Table, on_delete=models.PROTECT, related_name="voided")
    note = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"table {self.table_id} voided"


class BotAccount(models.Model):
    """The account a bot policy plays under: its name and page (``bot:<kind>``)."""

    kind = models.CharField(max_length=20, unique=True)
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bot_account")

    def __str__(self):
        return f"{self.kind} bot"


class RatingRules(models.Model):
    """Which version of the rating rules (``service.RULES``) the stored ratings follow:
    one row. A newer version in the code means the ratings are rebuilt under it
    (``service.rebuild_if_rules_changed``, at every ``serve`` start)."""

    version = models.PositiveSmallIntegerField()
    changed_at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"rating rules version {self.version}"
