"""Tables waiting on a player: the "your turn" push and the app badge.

After every move (``tables.signals.table_moved``, sent after the commit) two
jobs go on the push queue: at once, the mover's debounce for that table is
forgotten (they acted); after ``PIGPARLOR_PUSH_TURN_DELAY_MS``, if the table
is still at that version and waits on a human who has no socket open at it,
that player gets one "your turn" push — one per table until they act there
(``TurnAlert``).
"""
from __future__ import annotations

from django.conf import settings
from django.urls import reverse

from pigparlor.pwa.kinds import TURN
from pigparlor.pwa.models import TurnAlert
from pigparlor.pwa.push import Message, deliver
from pigparlor.pwa.sender import enqueue
from pigparlor.tables.errors import TableError
from pigparlor.tables.models import RUNNING, Presence, Seat, Table
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
    if user_id is not None:
        enqueue(ForgetAlert(user_id, table_id))
    enqueue(TurnCheck(table_id, version), settings.PIGPARLOR_PUSH_TURN_DELAY_MS)


class ForgetAlert:
    def __init__(self, user_id: int, table_id: int):
        self.user_id, self.table_id = user_id, table_id

    def __call__(self):
        TurnAlert.objects.filter(user_id=self.user_id, table_id=self.table_id).delete()

    def __repr__(self):
        return f"ForgetAlert(user {self.user_id}, table {self.table_id})"


class TurnCheck:
    def __init__(self, table_id: int, version: int):
        self.table_id, self.version = table_id, version

    def __call__(self) -> int:
        return check_turn(self.table_id, self.version)

    def __repr__(self):
        return f"TurnCheck(table {self.table_id} v{self.version})"


def check_turn(table_id: int, version: int) -> int:
    """Push "your turn" if the table, still at ``version``, waits on someone who is away."""
    try:
        snapshot = load_snapshot(table_id)
    except TableError:
        return 0
    table = snapshot.table
    if table.status != RUNNING:
        TurnAlert.objects.filter(table_id=table_id).delete()
        return 0
    if table.version != version:
        return 0  # a later move queued its own check
    seat = turn_seat(snapshot.game, snapshot.state, snapshot.seats)
    if seat is None or Presence.objects.filter(table_id=table_id, user_id=seat.user_id).exists():
        return 0
    _, created = TurnAlert.objects.get_or_create(user_id=seat.user_id, table_id=table_id,
                                                 defaults={"sent_ms": epoch_ms()})
    if not created:
        return 0
    game = snapshot.game
    return deliver(Message(seat.user_id, TURN, reverse("table", args=[table_id]), f"Your turn — {game.title}",
                           f"{table.display_title} is waiting on you.", tag=f"turn-{table_id}"))


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
