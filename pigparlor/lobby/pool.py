"""Quick play: join and leave a game's pool, and seat who matches.

The pool lives in the database (``PoolEntry``), so any process's tick may seat
players whose sockets are on another. ``tick`` runs under the pool rows' locks
(one transaction per game): matched players get one new rated table through
the tables' own services, and their entries point at it; after the commit
their sockets hear ``pool.seated`` and take them there. Every lobby socket in
a pool ticks about once a second and beats its entry's heart; an entry whose
socket died without a goodbye goes stale and is dropped.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction

from pigparlor.lobby.matching import Waiter, closest_bot, groups
from pigparlor.lobby.models import PoolEntry
from pigparlor.ratings import queries
from pigparlor.ratings.bot_levels import bot_skill
from pigparlor.tables import services
from pigparlor.tables.errors import TableError
from pigparlor.tables.timing import epoch_ms

WAITS = (10, 30, 60)
STALE_MS = 15_000
TICK_SECONDS = 1.0
TITLE = "Quick play"
log = logging.getLogger(__name__)


class PoolRefusal(ValueError):
    pass


def default_wait() -> int:
    """Seconds before bots fill the table unless the player chooses (``PIGPARLOR_QUICK_PLAY_WAIT_S``)."""
    return settings.PIGPARLOR_QUICK_PLAY_WAIT_S


def wait_choices() -> list[int]:
    return sorted({*WAITS, default_wait()})


def default_seats(game) -> int:
    """The seat count quick play and "Play now" offer first: four, or the game's nearest."""
    return min(max(4, game.engine.min_seats), game.engine.max_seats)


@dataclass(frozen=True)
class Request:
    seats: int
    wait_s: int | None


def parse_request(game, seats, wait) -> Request:
    """``seats`` and ``wait`` as a form sends them (strings); ``wait`` "humans" = people only."""
    try:
        seats = int(seats)
    except (TypeError, ValueError):
        raise PoolRefusal("choose how many players") from None
    if not game.engine.min_seats <= seats <= game.engine.max_seats:
        raise PoolRefusal(f"{game.title} is for {game.engine.min_seats}–{game.engine.max_seats} players")
    if wait in ("humans", None, ""):
        return Request(seats, None if wait == "humans" else default_wait())
    try:
        wait_s = int(wait)
    except (TypeError, ValueError):
        raise PoolRefusal("choose how long to wait for people") from None
    if wait_s not in wait_choices():
        raise PoolRefusal("choose how long to wait for people")
    return Request(seats, wait_s)


def shown_rating(user, game_slug: str) -> int:
    return queries.skills_of({user.pk}, game_slug)[user.pk].rating


@transaction.atomic
def join_pool(user, game, request: Request, channel: str) -> PoolEntry:
    """Wait for a table; joining again (another tab, other choices) replaces the old wait."""
    now = epoch_ms()
    PoolEntry.objects.filter(user=user, game=game.slug).delete()
    return PoolEntry.objects.create(user=user, game=game.slug, seats=request.seats, wait_s=request.wait_s,
                                    rating=shown_rating(user, game.slug), channel=channel, joined_ms=now, seen_ms=now)


def leave_pool(channel: str) -> None:
    PoolEntry.objects.filter(channel=channel).delete()


def entry_of(channel: str) -> PoolEntry | None:
    return PoolEntry.objects.filter(channel=channel).first()


def heartbeat(channel: str) -> None:
    PoolEntry.objects.filter(channel=channel).update(seen_ms=epoch_ms())


def waiting_count(entry: PoolEntry) -> int:
    return PoolEntry.objects.filter(game=entry.game, seats=entry.seats, table__isnull=True).count()


def bot_ratings(game) -> dict[str, int]:
    """Each bot level's fixed rating in ``game`` (docs/ratings.md, "Bots")."""
    return {kind: bot_skill(game.slug, kind).rating for kind in game.bot_levels}


def tick(game) -> int:
    """Seat whoever matches in ``game``'s pool now; returns how many tables it made."""
    seated: list[PoolEntry] = []
    with transaction.atomic():
        now = epoch_ms()
        PoolEntry.objects.filter(game=game.slug, table__isnull=True, seen_ms__lt=now - STALE_MS).delete()
        entries = {entry.pk: entry for entry in PoolEntry.objects.select_for_update()
                   .filter(game=game.slug, table__isnull=True).select_related("user").order_by("pk")}
        made = 0
        for seats in sorted({entry.seats for entry in entries.values()}):
            waiters = [Waiter(entry.pk, entry.rating, entry.joined_ms, entry.wait_s)
                       for entry in entries.values() if entry.seats == seats]
            for group in groups(waiters, seats, now):
                members = [entries[waiter.key] for waiter in group.waiters]
                try:
                    with transaction.atomic():
                        table = _seat(game, seats, members, group.bots, group.rating)
                except TableError as refusal:  # e.g. a player's table limit: they wait on
                    log.warning("quick play could not seat %s: %s", [m.user_id for m in members], refusal)
                    continue
                for entry in members:
                    entry.table = table
                    entry.save(update_fields=["table"])
                seated.extend(members)
                made += 1
        transaction.on_commit(lambda: _tell_seated(seated))
    return made


def _seat(game, seats: int, members: list[PoolEntry], bots: int, rating: int):
    """One rated table: the longest waiter hosts, the others join, bots of the
    nearest rating take the rest (the table starts once every seat is taken)."""
    kind = closest_bot(bot_ratings(game), rating) if bots else None
    table = services.create_table(host=members[0].user, game=game.slug, seats=seats, bots=bots, rated=True,
                                  title=TITLE, **({"bot_kind": kind} if kind else {}))
    for entry in members[1:]:
        services.join_table(table, entry.user)
    return table


def _tell_seated(entries: list[PoolEntry]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    for entry in entries:
        async_to_sync(layer.send)(entry.channel, {"type": "pool.seated", "table_id": entry.table_id})


def seat_taken(channel: str) -> int | None:
    """The table this socket's player was seated at, if any; the entry is done with."""
    entry = PoolEntry.objects.filter(channel=channel, table__isnull=False).first()
    if entry is None:
        return None
    entry.delete()
    return entry.table_id


def pool_context(game, *, entry: PoolEntry | None = None, waiting: int = 0, table_id: int | None = None,
                 error: str = "") -> dict:
    """What the "Play now" panel shows: the form, the wait, or the way to the table."""
    seats = range(game.engine.min_seats, game.engine.max_seats + 1)
    context = {"seat_choices": list(seats), "default_seats": default_seats(game),
               "wait_choices": wait_choices(), "default_wait": default_wait(), "error": error, "table_id": table_id,
               "entry": entry, "waiting": waiting}
    if entry is not None:
        now = epoch_ms()
        waiter = Waiter(entry.pk, entry.rating, entry.joined_ms, entry.wait_s)
        waited_s = max(0, now - entry.joined_ms) // 1000
        context.update(waited_s=waited_s, window=round(waiter.window(now)),
                       bots_in_s=max(0, entry.wait_s - waited_s) if entry.wait_s is not None else None)
    return context
