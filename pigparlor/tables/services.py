"""Every write to a table, each one transaction (style.md habit 7).

``act`` is the one door for every change to a game's state: a click, a JSON API
call, a bot's move, a timer. It locks the table row, checks in a fixed order
(table exists → your seat → game over → stale version → the rules) and answers
refusals with ``TableError`` codes, changing nothing. After the commit the new
version goes out (``broadcast.announce_after_commit``).
"""
from __future__ import annotations

import logging
import secrets

from django.db import transaction
from django.utils import timezone

from games.core import IllegalAction
from pigparlor.tables import inputs, limits, presence
from pigparlor.tables.botdriver import STAND_IN
from pigparlor.tables.broadcast import announce_after_commit
from pigparlor.tables.errors import BAD_REQUEST, FORBIDDEN, ILLEGAL, NOT_FOUND, STALE, TableError
from pigparlor.tables.models import ABORTED, FINISHED, OPEN, RUNNING, ActionLog, Seat, Table
from pigparlor.tables.registry import UnknownGame, get_game
from pigparlor.tables.rendering import Snapshot, seats_at
from pigparlor.tables.signals import table_finished
from pigparlor.tables.timing import epoch_ms, to_engine_ms

log = logging.getLogger(__name__)


def game_for(slug: str):
    try:
        return get_game(slug)
    except UnknownGame:
        raise TableError(BAD_REQUEST, f"unknown game {slug!r}") from None


def _locked(table_or_id) -> Table:
    table_id = table_or_id.pk if isinstance(table_or_id, Table) else table_or_id
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except (Table.DoesNotExist, ValueError, TypeError):
        raise TableError(NOT_FOUND, "no such table") from None


def _seats(table) -> list[Seat]:
    return seats_at(table)


NO_TIMER_IS_PRIVATE = "a public table needs a turn timer: turn_seconds 0 (no timer) is only for private tables"


def check_turn_timer(options: dict, private: bool) -> None:
    """A public table always has a turn timer (the option's default is 30 s); only a private
    table may choose none. Even then no phase waits for ever (games.core.turn_limit_ms)."""
    if not private and options.get("turn_seconds") == 0:
        raise TableError(BAD_REQUEST, NO_TIMER_IS_PRIVATE)


@transaction.atomic
def create_table(*, host, game, seats, bots=0, options=None, private=False, title="", rated=None,
                 bot_kind=STAND_IN) -> Table:
    """A new table: the host takes seat 0, bots (of ``bot_kind``) take the last
    ``bots`` seats; it starts at once if that fills every seat. ``rated`` None
    means the default: public tables are rated, private ones casual. Refused
    with ``rate_limited`` past the host's limits (``limits.check_create``)."""
    if not isinstance(game, str):
        raise TableError(BAD_REQUEST, "game must be a game's name, such as \"pigpile\"")
    registered = game_for(game)
    engine = registered.engine
    seats = inputs.whole_number(seats, "seats")
    bots = inputs.whole_number(bots, "bots")
    private = inputs.flag(private, "private")
    if rated is not None:
        rated = inputs.flag(rated, "rated")
    title = inputs.visible_text(title, "title", Table._meta.get_field("title").max_length)
    if options is not None and not isinstance(options, dict):
        raise TableError(BAD_REQUEST, "options must be a JSON object")
    if bot_kind not in registered.bots:
        raise TableError(BAD_REQUEST, f"unknown bot {bot_kind!r}")
    try:
        engine.check_seats(seats)
        options = engine.clean_options(options)
    except IllegalAction as refusal:
        raise TableError(BAD_REQUEST, refusal.reason) from None
    check_turn_timer(options, private)
    if not 0 <= bots < seats:
        raise TableError(BAD_REQUEST, f"bots must be between 0 and {seats - 1}")
    if host is not None:
        limits.check_create(host)
    table = Table.objects.create(
        game=game, title=title, host=host, seats=seats, options=options, private=private,
        rated=(not private) if rated is None else rated,
        invite_code=secrets.token_urlsafe(12) if private else "", seed=secrets.randbits(63))
    Seat.objects.bulk_create(
        Seat(table=table, index=index, user=host if index == 0 else None,
             bot_kind=bot_kind if index >= seats - bots else "")
        for index in range(seats))
    if bots == seats - 1:
        _start(table, _seats(table))
    announce_after_commit(table, listing=True)
    return table


@transaction.atomic
def join_table(table, user, invite_code=None) -> int:
    """Take the first free seat (the same seat again if already seated); returns its index."""
    table = _locked(table)
    seats = _seats(table)
    mine = next((seat for seat in seats if seat.user_id == user.pk), None)
    if mine is not None:
        return mine.index
    if table.private and invite_code != table.invite_code:
        raise TableError(FORBIDDEN, "this table is private: you need its invite link")
    if table.status != OPEN:
        raise TableError(ILLEGAL, "this table has already started")
    free = next(seat for seat in seats if not seat.taken)
    free.user = user
    free.save(update_fields=["user"])
    presence.recount(table, seats, epoch_ms())  # the newcomer's own sockets, never the last occupant's
    table.seats_rev += 1
    if all(seat.taken for seat in seats):
        _start(table, seats)
    table.save()
    announce_after_commit(table, listing=True)
    return free.index


@transaction.atomic
def leave_table(table, user) -> None:
    """Before the start the seat is freed (the table closes when no human is left);
    during play a bot takes over the seat until the player comes back."""
    table = _locked(table)
    seats = _seats(table)
    mine = next((seat for seat in seats if seat.user_id == user.pk), None)
    if mine is None:
        raise TableError(FORBIDDEN, "you have no seat at this table")
    if table.status == OPEN:
        mine.user = None
        mine.save(update_fields=["user"])
        presence.recount(table, seats, epoch_ms())
        humans = [seat for seat in seats if seat.user_id is not None]
        if not humans:
            table.status = ABORTED
            table.finished_at = timezone.now()
        elif table.host_id == user.pk:
            table.host = humans[0].user
    elif table.status == RUNNING:
        mine.replaced = True
        mine.save(update_fields=["replaced"])
        presence.refresh_wake(table, seats)
    else:
        raise TableError(ILLEGAL, "the game is over")
    table.seats_rev += 1
    table.save()
    announce_after_commit(table, listing=True)


@transaction.atomic
def start_table(table, user) -> None:
    """The host starts early: bots sit in the empty seats."""
    table = _locked(table)
    if table.host_id != user.pk:
        raise TableError(FORBIDDEN, "only the host can start the table")
    if table.status != OPEN:
        raise TableError(ILLEGAL, "this table has already started")
    seats = _seats(table)
    for seat in seats:
        if not seat.taken:
            seat.bot_kind = STAND_IN
            seat.save(update_fields=["bot_kind"])
    table.seats_rev += 1
    _start(table, seats)
    table.save()
    announce_after_commit(table, listing=True)


def _start(table: Table, seats: list[Seat]) -> None:
    """Deal: version 1 is the starting position; every logged action comes after it."""
    engine = get_game(table.game).engine
    now = epoch_ms()
    state = engine.start(table.seats, table.seed, table.options)
    table.status = RUNNING
    table.started_at = timezone.now()
    table.started_at_ms = table.changed_at_ms = now
    table.version = 1
    table.state = engine.dump(state)
    presence.recount(table, seats, now)  # a player with no socket open is absent from the start
    table.wake_at_ms = presence.next_wake(get_game(table.game), table, state, seats)
    table.save()


def act(table_id, seat, action, expected_version, *, user=None, rtt_ms=None, received_at_ms=None) -> int:
    """Apply ``action`` for ``seat`` if the table is still at ``expected_version``.

    ``user`` None means the platform itself (the clock, a bot); otherwise the
    user must own ``seat``. ``rtt_ms`` is the server's estimate of the socket's
    round trip, passed on to real-time engines only. ``received_at_ms`` (epoch
    ms) is when the socket received the action: the engine's time is stamped
    then, not after waiting for the table's lock, so a slap is not charged for
    other work queued before it (docs/fairness.md). Returns the new version.

    A real-time engine's players race each other, so a player's action may
    name a version that others' actions have already passed: for them an older
    version is handed to the engine, whose actions name what they answer
    (Oink!'s slaps name their pile state) and which refuses what came too
    late. The clock and bots always need the exact version.
    """
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise TableError(BAD_REQUEST, "an action is a JSON object with a \"type\"")
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise TableError(BAD_REQUEST, "version must be an integer")
    with transaction.atomic():
        table = _locked(table_id)
        seats = _seats(table)
        if user is not None and (seat is None or not 0 <= seat < len(seats) or seats[seat].user_id != user.pk):
            raise TableError(FORBIDDEN, "that is not your seat")
        if table.status in (FINISHED, ABORTED):
            raise TableError(ILLEGAL, "the game is over")
        if table.status == OPEN:
            raise TableError(ILLEGAL, "the game has not started")
        game = get_game(table.game)
        engine = game.engine
        racing = engine.realtime and user is not None and 0 < expected_version < table.version
        if expected_version != table.version and not racing:
            raise TableError(STALE, f"the table is at version {table.version}, not {expected_version}")
        action = {key: value for key, value in action.items() if key != "rtt_ms"}
        if engine.realtime and user is not None and rtt_ms is not None:
            action["rtt_ms"] = int(rtt_ms)
        state = engine.load(table.state)
        now = max(epoch_ms() if received_at_ms is None else received_at_ms, table.changed_at_ms)
        try:
            new_state = engine.apply(state, seat, action, to_engine_ms(table, now))
        except IllegalAction as refusal:
            raise TableError(ILLEGAL, refusal.reason) from None
        except Exception:
            if user is None:
                raise  # the platform's own move: the clock logs it and retries
            # A player's odd action tripped the engine (its bug, logged): the
            # player gets a refusal and the table stays as it was.
            log.exception("%s engine failed on an action at table %s: %r", table.game, table.pk, action)
            raise TableError(BAD_REQUEST, "the game could not read that action") from None
        listing = presence.count_timeouts(engine, state, seat, user, seats)
        table.version += 1
        ActionLog.objects.create(table=table, version=table.version, seat=seat, action=action, at_ms=now, user=user)
        table.state = engine.dump(new_state)
        table.changed_at_ms = now
        outcome = engine.outcome(new_state)
        if outcome is not None:
            table.status = FINISHED
            # "left": seats a bot was playing at the end (their player left for good).
            table.outcome = {**outcome.as_json(), "left": [each.index for each in seats if each.replaced]}
            table.finished_at = timezone.now()
            table.wake_at_ms = None
            listing = True
        else:
            table.wake_at_ms = presence.next_wake(game, table, new_state, seats)
        if listing:
            table.seats_rev += 1
        table.save(update_fields=["version", "seats_rev", "state", "changed_at_ms", "status", "outcome",
                                  "finished_at", "wake_at_ms"])
        if outcome is not None:
            # Registered before the broadcast, so listeners (the ratings) run first.
            finished_id = table.pk
            transaction.on_commit(lambda: table_finished.send(sender=Table, table_id=finished_id))
        announce_after_commit(table, listing=listing, snapshot=Snapshot(table, tuple(seats), new_state))
        return table.version
