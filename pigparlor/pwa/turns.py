"""Tables waiting on a player: the "your turn" push and the app badge.

After every move (``tables.signals.table_moved``, sent after the commit) one
job goes on the push queue: after ``PIGPARLOR_PUSH_TURN_DELAY_MS``, if the
table is still at that version and waits on a human who has no socket open at
it, that player gets one "your turn" push — one per table until they act there
(``TurnAlert`` keeps the version it was sent at; a move of theirs in the log
after it ends the debounce). A move costs one cheap read when its check runs,
and no write: the earlier design deleted the mover's alert after every move,
a write that took SQLite's one lock from every table's ``act`` (at 500 live
tables a third of the server's CPU and most of its tail, issue 14).
"""
from __future__ import annotations

from django.conf import settings
from django.urls import reverse

from pigparlor.pwa.kinds import TURN
from pigparlor.pwa.models import TurnAlert
from pigparlor.pwa.push import Message, deliver
from pigparlor.pwa.sender import enqueue
from pigparlor.tables.errors import TableError
from pigparlor.tables.models import RUNNING, ActionLog, Presence, Seat, Table
from pigparlor.tables.registry import UnknownGame, get_game
from pigparlor.tables.rendering import load_snapshot
from pigparlor.tables.timing import epoch_ms


def turn_seat(game, state, seats):
    """The seat the game waits on (its view's ``turn``), if it is a human's and not a bot's to play."""
    turn = game.engine.view(state, None).get("turn")
    if isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn < len(seats):
        return None
    seat = seats[turn]
    return None if seat.user_id is None or seat.is_bot else seat


def table_moved(sender, table_id: int, version: int, user_id: int | None, **kwargs) -> None:
    """Listener of ``table_moved``: only queues (this runs in the mover's request)."""
    enqueue(TurnCheck(table_id, version), settings.PIGPARLOR_PUSH_TURN_DELAY_MS)


class TurnCheck:
    def __init__(self, table_id: int, version: int):
        self.table_id, self.version = table_id, version

    def __call__(self) -> int:
        return check_turn(self.table_id, self.version)

    def __repr__(self):
        return f"TurnCheck(table {self.table_id} v{self.version})"


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
