"""Tables waiting on a player: the "your turn" push, the app badge and the notifications menu.

After every move (``tables.signals.table_moved``, sent after the commit) the
table's check is due ``PIGPARLOR_PUSH_TURN_DELAY_MS`` later (one check per
table waits on the push queue, for its latest move): if the table is still at
that version and waits on a human who has no socket open at it, that player
gets one "your turn" push — one per table until they act there (``TurnAlert``
keeps the version it was sent at; a move of theirs in the log after it ends
the debounce). A move writes nothing: the earlier design deleted the mover's
alert after every move, a write that took SQLite's one lock from every table's
``act`` (at 500 live tables a third of the server's CPU and most of its tail,
issue 14).
"""
from __future__ import annotations

import threading
import time

from django.conf import settings
from django.urls import reverse

from games.core.registry import UnknownGame, get_game
from pigparlor.pwa.kinds import TURN
from pigparlor.pwa.models import TurnAlert
from pigparlor.pwa.push import Message, deliver
from pigparlor.pwa.sender import draining, enqueue
from pigparlor.tables.errors import TableError
from pigparlor.tables.models import RUNNING, ActionLog, Presence, Seat, Table
from pigparlor.tables.rendering import load_snapshot
from pigparlor.tables.timing import epoch_ms


def turn_seat(game, state, seats):
    """The seat the game waits on (its view's ``turn``), if it is a human's and not a bot's to play."""
    turn = game.engine.view(state, None).get("turn")
    if isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn < len(seats):
        return None
    seat = seats[turn]
    return None if seat.user_id is None or seat.is_bot else seat


# Each table's latest move not yet checked: (due, version). A table has at most
# one check on the queue; a move while it waits only moves this entry on, and the
# check, once due, looks at the latest move. An older move's check could only
# find the table moved on, so skipping it sends the same pushes, and a table
# that moves every few seconds costs no query at all (issue 14: one query per
# move from the push thread, and that thread's wake-ups, were a fifth of the
# CPU at 500 live tables).
_LATEST: dict[int, tuple[float, int]] = {}
_LATEST_LOCK = threading.Lock()


def table_moved(sender, table_id: int, version: int, user_id: int | None, **kwargs) -> None:
    """Listener of ``table_moved``: only queues (this runs in the mover's request)."""
    delay_ms = settings.PIGPARLOR_PUSH_TURN_DELAY_MS
    with _LATEST_LOCK:
        waiting = table_id in _LATEST
        _LATEST[table_id] = (time.monotonic() + delay_ms / 1000, version)
    if not waiting:
        _queue_again(table_id, delay_ms)


def forget_checks() -> None:
    """Forget the tables waiting for a check (tests, after emptying the push queue)."""
    with _LATEST_LOCK:
        _LATEST.clear()


class TurnCheck:
    """The check of a table's latest move, once it is due."""

    def __init__(self, table_id: int):
        self.table_id = table_id

    def __call__(self) -> int:
        with _LATEST_LOCK:
            latest = _LATEST.get(self.table_id)
            if latest is None:
                return 0
            due, version = latest
            wait_ms = 0 if draining() else (due - time.monotonic()) * 1000
            if wait_ms <= 0:
                del _LATEST[self.table_id]
        if wait_ms > 0:
            _queue_again(self.table_id, wait_ms)
            return 0
        return check_turn(self.table_id, version)

    def __repr__(self):
        return f"TurnCheck(table {self.table_id})"


def _queue_again(table_id: int, delay_ms: float) -> None:
    """Queue the table's check ``delay_ms`` from now (again, when it moved while the
    check waited). A full queue drops it: the table's next move queues afresh."""
    if not enqueue(TurnCheck(table_id), delay_ms):
        with _LATEST_LOCK:
            _LATEST.pop(table_id, None)


def check_turn(table_id: int, version: int) -> int:
    """Push "your turn" if the table, still at ``version``, waits on someone who is away."""
    found = Table.objects.filter(pk=table_id).values_list("status", "version").first()
    if found is None:
        return 0
    status, now_at = found
    if status != RUNNING:
        TurnAlert.objects.filter(table_id=table_id).delete()
        return 0
    if now_at != version:
        return 0  # a later move queued its own check (a read of two columns, not the state)
    try:
        snapshot = load_snapshot(table_id)
    except TableError:
        return 0
    table = snapshot.table
    if table.version != version or table.status != RUNNING:
        return 0
    seat = turn_seat(snapshot.game, snapshot.state, snapshot.seats)
    if seat is None or Presence.objects.filter(table_id=table_id, user_id=seat.user_id).exists():
        return 0
    from pigparlor.pwa.inbox import poke  # the inbox lists these tables (tables_waiting_on)

    poke([seat.user_id])  # their notifications menu, on whatever page they have open
    if not _claim_alert(seat.user_id, table_id, version):
        return 0
    game = snapshot.game
    return deliver(Message(seat.user_id, TURN, reverse("table", args=[table_id]), f"Your turn — {game.title}",
                           f"{table.display_title} is waiting on you.", tag=f"turn-{table_id}"))


def _claim_alert(user_id: int, table_id: int, version: int) -> bool:
    """Record a push for this table at ``version``, unless one went out and the
    player has not moved there since. True for exactly one caller (two processes
    checking at once: the row's unique key, then a compare-and-set on its version)."""
    alert = TurnAlert.objects.filter(user_id=user_id, table_id=table_id).first()
    if alert is None:
        _, created = TurnAlert.objects.get_or_create(user_id=user_id, table_id=table_id,
                                                     defaults={"sent_ms": epoch_ms(), "version": version})
        return created
    acted = ActionLog.objects.filter(table_id=table_id, user_id=user_id, version__gt=alert.version).exists()
    if not acted:
        return False
    return TurnAlert.objects.filter(pk=alert.pk, version=alert.version).update(
        version=version, sent_ms=epoch_ms()) == 1


def tables_waiting_on(user_id: int) -> list[Table]:
    """The running tables whose game waits on this player's move, oldest move first."""
    waiting = []
    seats = Seat.objects.filter(user_id=user_id, table__status=RUNNING, replaced=False).select_related("table")
    for seat in seats.order_by("table__changed_at_ms"):
        try:
            game = get_game(seat.table.game)
        except UnknownGame:
            continue
        snapshot = load_snapshot(seat.table_id)
        mine = turn_seat(game, snapshot.state, snapshot.seats)
        if mine is not None and mine.user_id == user_id:
            waiting.append(snapshot.table)
    return waiting


def waiting_count(user_id: int) -> int:
    return len(tables_waiting_on(user_id))
