"""Who is at the table: sockets coming and going, timeouts, bots standing in;
and the caps on open sockets.

Every open socket of the site is a ``Presence`` row naming its process (a
table socket's names its table too); each ``serve`` process beats
(``ServerProcess``) and sweeps the rows of processes whose beat expired and of
its own consumers that died without closing. A seat's ``connections`` is
recounted from the rows under the table's lock, so no crash, restart or change
of occupant can leave a phantom connection behind.

**Caps** (``reserve``, docs/operations.md "Socket caps"): of each kind of socket
(table, lobby, tournament, player) one account may hold
``PIGPARLOR_MAX_SOCKETS_PER_USER`` and one visitor address without an account
``PIGPARLOR_MAX_SOCKETS_PER_ADDRESS``; a table takes at most
``PIGPARLOR_MAX_WATCHERS_PER_TABLE`` sockets of people without a seat there
(its players always get in). The counts are rows in the database, taken under a
lock every process shares, so the caps hold across processes.

Timeouts forgive (docs/rules/timeouts.md): when a player's time runs out the
clock plays that move for them (the engine's own timeout move) and the seat stays
theirs. A bot plays the seat (``Seat.replaced``) only when the player is gone — no
socket at a running table for ``PIGPARLOR_SEAT_GRACE_MS`` — or has missed
``TIMEOUTS_BEFORE_BOT`` turns in a row (``Engine.clock_plays_for`` says whose turn
the clock played). The player gets it back by reconnecting, pressing "I'm here",
or acting; a player who pressed Leave (``Seat.resigned``) does not. None of this
touches the game's state or version: it bumps ``seats_rev``, which the page shows.
"""
from __future__ import annotations

import asyncio
import logging
import uuid
from collections import Counter, defaultdict
from typing import NamedTuple

from django.conf import settings
from django.db import connection, transaction

from games.core.registry import get_game
from pigparlor.tables.botdriver import pending_bot_moves
from pigparlor.tables.broadcast import announce_after_commit, call_then_send
from pigparlor.tables.errors import NOT_FOUND, RATE_LIMITED, TableError
from pigparlor.tables.models import RUNNING, TIMEOUTS_BEFORE_BOT, Presence, Seat, ServerProcess, Table
from pigparlor.tables.rendering import seats_at
from pigparlor.tables.timing import epoch_ms, to_epoch_ms

log = logging.getLogger(__name__)

# How many stand-in spans a seat remembers for labelling the log (it shows its last 30 events).
BOT_SPANS_KEPT = 4

# This process, as its presence rows and heartbeat name it.
PROCESS_ID = uuid.uuid4().hex


class Held(NamedTuple):
    """A socket open in this process: its table (None for the other kinds), its
    user (None for a visitor), its kind, and a visitor's address."""

    table_id: int | None
    user_id: int | None
    kind: str = "table"
    address: str = ""


# The sockets open in this process right now, by channel name.
LIVE_CHANNELS: dict[str, Held] = {}


def grace_ms() -> int:
    return settings.PIGPARLOR_SEAT_GRACE_MS


def absent_until(seat: Seat) -> int | None:
    """When an absent human's grace period ends (epoch ms), if they are absent."""
    if seat.user_id is None or seat.bot_kind or seat.replaced or seat.connections or seat.left_at_ms is None:
        return None
    return seat.left_at_ms + grace_ms()


def next_wake(game, table, state, seats) -> int | None:
    """The earliest moment the clock has something to do at this table."""
    times = [to_epoch_ms(table, game.engine.next_deadline(state))]
    moves = pending_bot_moves(game, table, state, seats)
    if moves:
        times.append(moves[0].due_ms)
    times.extend(absent_until(seat) for seat in seats)
    due = [at for at in times if at is not None]
    return min(due) if due else None


def refresh_wake(table, seats) -> None:
    if table.status == RUNNING:
        game = get_game(table.game)
        table.wake_at_ms = next_wake(game, table, game.engine.load(table.state), seats)


SEAT_FIELDS = ["replaced", "timeouts", "bot_events"]


def last_event(engine, state) -> int:
    """The number of the game log's newest event (0 before any: docs/platform.md §1)."""
    return max((event["n"] for event in engine.view(state, None).get("log") or ()), default=0)


def table_last_event(table) -> int:
    if table.state is None:
        return 0
    engine = get_game(table.game).engine
    return last_event(engine, engine.load(table.state))


def stand_in(seat: Seat, playing: bool, last_n: int) -> None:
    """A stand-in bot starts (``playing``) or stops playing a human's seat, the game
    log's newest event being ``last_n``: the bot's events are the ones in between
    (``bot_events``). Unsaved; the caller saves ``SEAT_FIELDS``."""
    spans = [list(span) for span in seat.bot_events]
    if playing and not seat.replaced:
        spans.append([last_n + 1, None])
    elif not playing and seat.replaced and spans and spans[-1][1] is None:
        spans[-1][1] = last_n
        if last_n < spans[-1][0]:  # the bot made no event
            spans.pop()
    seat.replaced = playing
    seat.bot_events = spans[-BOT_SPANS_KEPT:]


def counts_timeouts(seat: Seat) -> bool:
    """A human plays this seat now (not a bot seat, no stand-in)."""
    return seat.user_id is not None and not seat.bot_kind and not seat.replaced


def count_timeouts(engine, state, new_state, seat, user, seats, timed_out) -> bool:
    """Book-keeping for the move from ``state`` to ``new_state``; True if a seat row
    changed (the caller then bumps ``seats_rev``, as every write to a seat must).

    A clock move counts a missed turn for each human seat it played for
    (``timed_out``: the engine's ``clock_plays_for``); the ``TIMEOUTS_BEFORE_BOT``-th
    in a row hands the seat to a bot. The human's own move resets the count and
    takes the seat back.
    """
    if seat is None:
        changed = False
        for index in timed_out:
            mover = seats[index]
            if not counts_timeouts(mover):
                continue
            mover.timeouts += 1
            if mover.timeouts >= TIMEOUTS_BEFORE_BOT:
                stand_in(mover, True, last_event(engine, new_state))
            mover.save(update_fields=SEAT_FIELDS)
            changed = True
        return changed
    if user is None:
        return False
    mover = seats[seat]
    if not (mover.timeouts or mover.replaced):
        return False
    mover.timeouts = 0
    stand_in(mover, False, last_event(engine, state))
    mover.save(update_fields=SEAT_FIELDS)
    return True


def recount(table, seats, now: int) -> bool:
    """Set each seat's ``connections`` from its owner's presence rows at this
    table, and the table's ``watchers`` from the rest (inside the caller's
    transaction, under the table's lock; the caller saves the table). An owner
    with no socket at a running table is absent from ``now`` on, unless already
    absent. True if a seat row changed (the caller bumps ``seats_rev``)."""
    owners = list(Presence.objects.filter(table_id=table.pk).values_list("user_id", flat=True))
    counts = Counter(owners)
    seated = {seat.user_id for seat in seats if seat.user_id is not None}
    # Watchers: each visitor's socket without an account, each other user once.
    watchers = owners.count(None) + len({owner for owner in owners if owner is not None and owner not in seated})
    changed = watchers != table.watchers
    table.watchers = watchers
    for seat in seats:
        count = counts.get(seat.user_id, 0) if seat.user_id is not None else 0
        left_at_ms = seat.left_at_ms
        if count:
            left_at_ms = None
        elif seat.user_id is None or table.status != RUNNING:
            left_at_ms = None
        elif left_at_ms is None:
            left_at_ms = now
        if (count, left_at_ms) != (seat.connections, seat.left_at_ms):
            seat.connections, seat.left_at_ms = count, left_at_ms
            seat.save(update_fields=["connections", "left_at_ms"])
            changed = True
    return changed


def _locked_table(table_id):
    return Table.objects.select_for_update().filter(pk=table_id).first()


def _settle(table, seats, changed: bool) -> None:
    """Save a presence change: bump ``seats_rev`` if a seat changed, and move the wake-up."""
    if changed:
        table.seats_rev += 1
    wake_at_ms = table.wake_at_ms
    refresh_wake(table, seats)
    if changed or wake_at_ms != table.wake_at_ms:
        table.save(update_fields=["seats_rev", "wake_at_ms", "watchers"])
        announce_after_commit(table, listing=changed)


def _presence_changed(table_id: int, now: int, change=None) -> bool:
    """Under the table's lock: ``change(table, seats)`` (True if it changed a
    seat row itself), then recount the seats from the presence rows and save.
    False if there is no such table."""
    with transaction.atomic():
        table = _locked_table(table_id)
        if table is None:
            return False
        seats = seats_at(table)
        changed = bool(change(table, seats)) if change is not None else False
        _settle(table, seats, recount(table, seats, now) or changed)
        return True


def _forget(rows):
    """A change that only removes presence rows (the recount then sees to the seats)."""
    def change(table, seats):
        rows.delete()
        return False
    return change


def _take_seat_back(table, seats, user) -> bool:
    """The user is here: their seat is theirs again, no stand-in bot, no missed turns
    counted. Not a seat they left with the Leave button."""
    mine = next((seat for seat in seats if seat.user_id == user.pk), None)
    if mine is None or mine.resigned or not (mine.replaced or mine.timeouts):
        return False
    mine.timeouts = 0
    if mine.replaced:
        stand_in(mine, False, table_last_event(table))
    mine.save(update_fields=SEAT_FIELDS)
    return True


def max_sockets() -> int:
    return settings.PIGPARLOR_MAX_SOCKETS_PER_USER


def _hold_lock(name: str) -> None:
    """Inside a transaction: wait for the lock called ``name`` and hold it until the
    transaction ends, in every process. PostgreSQL: an advisory lock. SQLite needs
    none: each write transaction holds the whole database (``IMMEDIATE``)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [name])


def reserve(kind: str, user, address: str, channel: str, table_id: int | None = None) -> None:
    """A socket's place under its caps: its account's (or, for a visitor, its
    address's) sockets of this kind are counted under a lock on that count, and
    past the cap it is refused (``rate_limited``); else its row is written."""
    if user is not None:
        cap, mine, whose = max_sockets(), {"user": user}, "you have"
    else:
        cap, mine, whose = settings.PIGPARLOR_MAX_SOCKETS_PER_ADDRESS, {"user": None, "address": address}, \
            "your address has"
    with transaction.atomic():
        _hold_lock(f"sockets:{kind}:{user.pk if user is not None else 'address ' + address}")
        if table_id is not None and not Table.objects.filter(pk=table_id).exists():
            raise TableError(NOT_FOUND, "no such table")
        if Presence.objects.filter(kind=kind, **mine).count() >= cap:
            advice = "close some tabs or programs first" if user is not None else "sign in, or close some tabs first"
            raise TableError(RATE_LIMITED, f"{whose} {cap} {kind} connection{'s' if cap != 1 else ''} open already: "
                                           f"{advice}")
        Presence.objects.create(kind=kind, table_id=table_id, user=user, address=address if user is None else "",
                                process=PROCESS_ID, channel=channel, opened_ms=epoch_ms())
    LIVE_CHANNELS[channel] = Held(table_id, user.pk if user is not None else None, kind,
                                  address if user is None else "")


def open_socket(table_id: int, user, channel: str, address: str = "") -> None:
    """A table socket of ``user`` (None: a visitor without an account, who can
    only watch) opened in this process. The seat's owner is back: they get
    their seat back from a stand-in bot. Refused past the caps: the user's (or
    the visitor address's) table sockets, and the table's watchers."""
    reserve("table", user, address, channel, table_id)

    def arrive(table, seats):
        seated = {seat.user_id for seat in seats if seat.user_id is not None}
        if user is None or user.pk not in seated:
            watchers = Presence.objects.filter(table_id=table.pk).exclude(user_id__in=seated).count()
            if watchers > settings.PIGPARLOR_MAX_WATCHERS_PER_TABLE:
                raise TableError(RATE_LIMITED, f"this table has {settings.PIGPARLOR_MAX_WATCHERS_PER_TABLE} "
                                               "watchers already: try again later")
        return user is not None and _take_seat_back(table, seats, user)

    try:
        if not _presence_changed(table_id, epoch_ms(), arrive):
            raise TableError(NOT_FOUND, "no such table")
    except BaseException:
        close_socket(table_id, channel)
        raise


def close_socket(table_id: int | None, channel: str) -> None:
    """A socket closed (a table socket's owner may now be absent)."""
    LIVE_CHANNELS.pop(channel, None)
    rows = Presence.objects.filter(channel=channel)
    if table_id is None:
        rows.delete()
    else:
        _presence_changed(table_id, epoch_ms(), _forget(rows))


def reclaim_seat(table_id: int, user) -> None:
    """The "I'm here" button: after a missed turn, or to take the seat back from a bot."""
    _presence_changed(table_id, epoch_ms(), lambda table, seats: _take_seat_back(table, seats, user))


def beat(now: int | None = None) -> None:
    """This process is alive (``serve`` calls this every ``PIGPARLOR_PRESENCE_BEAT_MS``).

    If another process had given it up for dead (a stall longer than the
    expiry) and swept its sockets, they are put back: they are still open."""
    now = epoch_ms() if now is None else now
    _, revived = ServerProcess.objects.update_or_create(
        pk=PROCESS_ID, defaults={"beat_ms": now}, create_defaults={"beat_ms": now, "started_ms": now})
    if not revived:
        return
    by_table = defaultdict(list)
    for channel, held in list(LIVE_CHANNELS.items()):
        by_table[held.table_id].append(channel)

    def restore(channels):
        def change(table=None, seats=None):
            for channel in channels:
                held = LIVE_CHANNELS.get(channel)
                if held is not None:
                    Presence.objects.get_or_create(channel=channel, defaults={
                        "kind": held.kind, "table_id": held.table_id, "user_id": held.user_id,
                        "address": held.address, "process": PROCESS_ID, "opened_ms": now})
        return change

    for table_id, channels in by_table.items():
        if table_id is None:
            restore(channels)()
        else:
            _presence_changed(table_id, now, restore(channels))


def sweep(now: int | None = None, *, alone: bool = False) -> int:
    """Forget the sockets no live process holds, and recount their tables.

    Dead are the processes whose heartbeat is older than
    ``PIGPARLOR_PRESENCE_EXPIRY_MS`` (every other process when ``alone``: the
    embedded server holds every socket there is), and this process's own rows
    whose consumer is gone without its disconnect (it crashed). Returns how
    many rows were removed."""
    now = epoch_ms() if now is None else now
    dead = ServerProcess.objects.exclude(pk=PROCESS_ID)
    if not alone:
        dead = dead.filter(beat_ms__lt=now - settings.PIGPARLOR_PRESENCE_EXPIRY_MS)
    dead.delete()
    live = set(ServerProcess.objects.values_list("pk", flat=True)) | {PROCESS_ID}
    stale = defaultdict(list)
    # Only rows that can be stale are read (issue 14: reading all of them, 2,000 at
    # 500 tables, held the one ORM thread 50–140 ms every beat, every table's act
    # waiting): those of dead processes, and this process's own only when it holds
    # more rows than sockets. LIVE_CHANNELS and this process's rows change together,
    # in one call on this same thread, so between two calls they agree.
    for pk, table_id in Presence.objects.exclude(process__in=live).values_list("pk", "table_id"):
        stale[table_id].append(pk)
    own = Presence.objects.filter(process=PROCESS_ID)
    if own.count() != len(LIVE_CHANNELS):
        for pk, table_id, channel in own.values_list("pk", "table_id", "channel"):
            if channel not in LIVE_CHANNELS:
                stale[table_id].append(pk)
    for table_id, rows in stale.items():
        if table_id is None:  # the other kinds: no seat to recount
            Presence.objects.filter(pk__in=rows).delete()
        else:
            _presence_changed(table_id, now, _forget(Presence.objects.filter(pk__in=rows)))
    return sum(len(rows) for rows in stale.values())


def wake_all(now: int | None = None) -> None:
    """Recount and recompute the wake-up of every running table (at start-up:
    whatever a previous run left, each live table wakes when it should)."""
    now = epoch_ms() if now is None else now
    for table_id in Table.objects.filter(status=RUNNING).values_list("pk", flat=True):
        _presence_changed(table_id, now)


async def heartbeat() -> None:
    """The task every ``serve`` process runs: beat and sweep, forever."""
    while True:
        await asyncio.sleep(settings.PIGPARLOR_PRESENCE_BEAT_MS / 1000)
        try:
            await call_then_send(beat_and_sweep)
        except Exception:
            log.exception("presence heartbeat failed")


def beat_and_sweep() -> None:
    beat()
    sweep()


def start_up(*, alone: bool) -> None:
    """A ``serve`` process starts: beat, sweep what dead processes left, wake every table."""
    beat()
    sweep(alone=alone)
    wake_all()


def replace_absent(table, seats, now: int) -> bool:
    """Inside the clock's transaction: bots take the seats whose grace ran out."""
    changed = False
    for seat in seats:
        until = absent_until(seat)
        if until is not None and until <= now:
            stand_in(seat, True, table_last_event(table))
            seat.save(update_fields=SEAT_FIELDS)
            changed = True
    return changed
