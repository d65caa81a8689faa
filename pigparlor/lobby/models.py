"""Quick play's pool: who is waiting for a table, in the database so that every
server process sees the same pool (a socket on one process may be matched by
another's tick)."""
from django.conf import settings
from django.db import models

from pigparlor.tables.models import Table


class PoolEntry(models.Model):
    """One player waiting in one game's pool, held by one lobby socket
    (``channel``). ``seen_ms`` is that socket's heartbeat: an entry whose socket
    died without a goodbye goes stale and is dropped. ``table`` is set when the
    player has been seated; the socket then takes them there."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="pool_entries")
    game = models.CharField(max_length=40)
    seats = models.PositiveSmallIntegerField()
    wait_s = models.PositiveSmallIntegerField(null=True, blank=True)  # None: people only
    rating = models.IntegerField()
    channel = models.CharField(max_length=200)
    joined_ms = models.BigIntegerField()
    seen_ms = models.BigIntegerField()
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_pool_entry_per_game")]
        indexes = [models.Index(fields=["game", "table"])]

    def __str__(self):
        return f"{self.user} waiting for {self.game} ({self.seats} seats)"
