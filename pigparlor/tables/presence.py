"""Who is at the table: sockets coming and going, timeouts, bots standing in.

A human whose last socket closed gets ``PIGPARLOR_SEAT_GRACE_MS`` to come back;
after that, or after ``TIMEOUTS_BEFORE_BOT`` clock moves in a row on their turn,
a bot plays the seat (``Seat.replaced``) until the human reconnects, presses
"take my seat back", or acts. None of this touches the game's state or version:
it bumps ``seats_rev``, which the page shows.
"""
from __future__ import annotations

from django.conf import settings
from django.db import transaction

from pigparlor.tables.botdriver import pending_bot_moves
from pigparlor.tables.broadcast import announce_after_commit
from pigparlor.tables.models import RUNNING, Seat, Table
from pigparlor.tables.registry import get_game
from pigparlor.tables.rendering import seats_at
from pigparlor.tables.timing import epoch_ms, to_epoch_ms

TIMEOUTS_BEFORE_BOT = 3


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
    times = [at for at in times if at is not None]
    return min(times) if times else None


def refresh_wake(table, seats) -> None:
    if table.status == RUNNING:
        game = get_game(table.game)
        table.wake_at_ms = next_wake(game, table, game.engine.load(table.state), seats)


def count_timeouts(engine, state, seat, user, seats) -> bool:
    """Book-keeping for the seat that just moved; True if a seat row changed
    (the caller then bumps ``seats_rev``, as every write to a seat must).

    A clock move on a human's turn counts a timeout for them (the view's
    ``turn``); the human's own move resets the count and takes the seat back.
    """
    if seat is None:
        turn = engine.view(state, None).get("turn")
        if not isinstance(turn, int) or not 0 <= turn < len(seats):
            return False
        mover = seats[turn]
        if mover.user_id is None or mover.bot_kind or mover.replaced:
            return False
        mover.timeouts += 1
        mover.replaced = mover.timeouts >= TIMEOUTS_BEFORE_BOT
        mover.save(update_fields=["timeouts", "replaced"])
        return True
    if user is None:
        return False
    mover = seats[seat]
    if not (mover.timeouts or mover.replaced):
        return False
    mover.timeouts, mover.replaced = 0, False
    mover.save(update_fields=["timeouts", "replaced"])
    return True


def _seat_change(table_id, user, change) -> None:
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            return
        seats = seats_at(table)
        mine = next((seat for seat in seats if seat.user_id == user.pk), None)
        if mine is None:
            return
        change(mine)
        mine.save()
        table.seats_rev += 1
        refresh_wake(table, seats)
        table.save()
        announce_after_commit(table)


def seat_connected(table_id: int, user) -> None:
    """A socket of the seat's owner opened: they are back, and get their seat back."""
    def change(seat):
        seat.connections += 1
        seat.left_at_ms = None
        seat.replaced = False
        seat.timeouts = 0
    _seat_change(table_id, user, change)


def seat_disconnected(table_id: int, user) -> None:
    def change(seat):
        seat.connections = max(0, seat.connections - 1)
        if not seat.connections:
            seat.left_at_ms = epoch_ms()
    _seat_change(table_id, user, change)


def reclaim_seat(table_id: int, user) -> None:
    """The "take my seat back" button."""
    def change(seat):
        seat.replaced = False
        seat.timeouts = 0
    _seat_change(table_id, user, change)


def replace_absent(table, seats, now: int) -> bool:
    """Inside the clock's transaction: bots take the seats whose grace ran out."""
    changed = False
    for seat in seats:
        until = absent_until(seat)
        if until is not None and until <= now:
            seat.replaced = True
            seat.save(update_fields=["replaced"])
            changed = True
    return changed
