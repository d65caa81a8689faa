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
import time

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.core import IllegalAction
from games.core.registry import UnknownGame, get_game
from games.core.replay import state_digest
from pigparlor.ops import metrics
from pigparlor.tables import inputs, limits, prepared, presence
from pigparlor.tables.botdriver import STAND_IN
from pigparlor.tables.broadcast import announce_after_commit
from pigparlor.tables.errors import BAD_REQUEST, FORBIDDEN, GAME_OVER, ILLEGAL, NOT_FOUND, STALE, TableError
from pigparlor.tables.leavers import leavers
from pigparlor.tables.models import ABORTED, FINISHED, OPEN, RUNNING, ActionLog, Seat, Table
from pigparlor.tables.rendering import Snapshot, load_origin, seats_at
from pigparlor.tables.signals import seat_wanted, table_finished, table_moved
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
        table = prepared.lock_row(Table, table_id)
    except (ValueError, TypeError):
        table = None
    if table is None:
        raise TableError(NOT_FOUND, "no such table")
    return table


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
                 bot_kind=STAND_IN, salt=None, players=(), spectators_chat=True, bot_level=None,
                 seed=None, tutorial=False) -> Table:
    """A new table: the host takes seat 0, ``players`` (a tournament's, already
    chosen) the seats after it, bots (of ``bot_kind``) the last ``bots`` seats;
    it starts at once if that fills every seat. ``bot_level``, when given, is a
    player's pick among the game's offered levels (``Game.bot_levels``) and
    names the bots' kind. ``rated`` None means the default: public tables are
    rated, private ones casual. ``salt`` is the host's client's contribution to
    the deal (``set_salt``). ``spectators_chat`` False makes the table's chat
    read-only for spectators. Refused with ``rate_limited`` past the host's
    limits (``limits.check_create``). ``seed`` and ``tutorial`` are the platform's
    own (never a request's): a first game with hints deals its lesson's fixed seed
    (pigparlor/tables/lessons.py); any other table draws a secret one."""
    if not isinstance(game, str):
        raise TableError(BAD_REQUEST, "game must be a game's name, such as \"pigpile\"")
    registered = game_for(game)
    engine = registered.engine
    seats = inputs.whole_number(seats, "seats")
    bots = inputs.whole_number(bots, "bots")
    private = inputs.flag(private, "private")
    if rated is not None:
        rated = inputs.flag(rated, "rated")
    spectators_chat = inputs.flag(spectators_chat, "spectators_chat")
    title = inputs.visible_text(title, "title", Table._meta.get_field("title").max_length)
    if options is not None and not isinstance(options, dict):
        raise TableError(BAD_REQUEST, "options must be a JSON object")
    if bot_level is not None:
        if not isinstance(bot_level, str) or bot_level not in registered.bot_levels:
            raise TableError(BAD_REQUEST, f"bot_level must be one of: {', '.join(registered.bot_levels)}")
        bot_kind = bot_level
    if bot_kind not in registered.bots:
        raise TableError(BAD_REQUEST, f"unknown bot {bot_kind!r}")
    try:
        engine.check_seats(seats)
        options = engine.clean_options(options)
    except IllegalAction as refusal:
        raise TableError(BAD_REQUEST, refusal.reason) from None
    check_turn_timer(options, private)
    seated = ([host] if host is not None else []) + list(players)
    if not 0 <= bots < seats or len(seated) + bots > seats:
        raise TableError(BAD_REQUEST, f"bots must be between 0 and {seats - max(1, len(seated))}")
    salts: list[str | None] = [None] * seats
    if salt is not None:
        salts[0] = inputs.salt(salt)
    if host is not None:
        limits.check_create(host)
        if len(seated) + bots < seats:  # the host's seat waits for players
            limits.check_open_seats(host)
    table = Table.objects.create(
        game=game, title=title, host=host, seats=seats, options=options, private=private,
        rated=(not private) if rated is None else rated, spectators_chat=spectators_chat, bot_kind=bot_kind,
        invite_code=secrets.token_urlsafe(12) if private else "", salts=salts, tutorial=tutorial,
        seed=secrets.randbits(63) if seed is None else seed)
    Seat.objects.bulk_create(
        Seat(table=table, index=index, user=seated[index] if index < len(seated) else None,
             bot_kind=bot_kind if index >= seats - bots else "")
        for index in range(seats))
    if host is not None:
        seat_wanted.send(sender=Table, table=table, user=host)
    if seated and len(seated) + bots == seats:
        _start(table, _seats(table))
    announce_after_commit(table, listing=True)
    return table


@transaction.atomic
def join_table(table, user, invite_code=None, salt=None) -> int:
    """Take the first free seat (the same seat again if already seated; at a
    rematch, the seat kept for you); returns its index. ``salt`` is the
    joiner's client's contribution to the deal (``set_salt``)."""
    if salt is not None:
        salt = inputs.salt(salt)
    origin = _lock_origin(table)
    table = _locked(table)
    seats = _seats(table)
    mine = next((seat for seat in seats if seat.user_id == user.pk), None)
    if mine is not None:
        if salt is not None and table.status == OPEN:
            _salt_seat(table, mine.index, salt)
            table.save(update_fields=["salts"])
        return mine.index
    if table.private and invite_code != table.invite_code and not _kept_for(seats, user):
        raise TableError(FORBIDDEN, "this table is private: you need its invite link")
    if table.status != OPEN:
        raise TableError(ILLEGAL, "this table has already started")
    seat_wanted.send(sender=Table, table=table, user=user)
    free = _kept_for(seats, user) or next((seat for seat in seats if seat.free_for(user)), None)
    if free is None:
        raise TableError(ILLEGAL, "every seat here is kept for the players of the last game")
    if any(not seat.taken for seat in seats if seat is not free):  # the table still waits after this seat
        limits.check_open_seats(user)
    free.user = user
    free.save(update_fields=["user"])
    _salt_seat(table, free.index, salt)
    presence.recount(table, seats, epoch_ms())  # the newcomer's own sockets, never the last occupant's
    table.seats_rev += 1
    if all(seat.taken for seat in seats):
        _start(table, seats)
    table.save()
    announce_after_commit(table, listing=True)
    _rematch_changed(origin)
    return free.index


def _kept_for(seats, user) -> Seat | None:
    return next((seat for seat in seats if seat.reserved_for_id == user.pk and not seat.taken), None)


def _lock_origin(table) -> Table | None:
    """A rematch's finished table, locked first (always old before new, so two
    writers never wait on each other): its page shows who is in for the rematch."""
    table_id = table.pk if isinstance(table, Table) else table
    origin_id = Table.objects.filter(pk=table_id).values_list("rematch_of_id", flat=True).first()
    return Table.objects.select_for_update().filter(pk=origin_id).first() if origin_id else None


def _rematch_changed(origin: Table | None) -> None:
    if origin is not None:
        origin.seats_rev += 1
        origin.save(update_fields=["seats_rev"])
        announce_after_commit(origin)


def rematch_wait_ms() -> int:
    return settings.PIGPARLOR_REMATCH_WAIT_MS


@transaction.atomic
def rematch_table(table, user) -> tuple[Table, bool]:
    """"Play again" at a finished table: the first player to ask opens a new
    table with the same game, options and seats (bots stay bots; every other
    player's seat is kept for them); the others take their kept seats by
    asking too (or say no: ``decline_rematch``). It starts when every seat is
    taken, once nobody is still deciding, or ``rematch_wait_ms`` after it opened,
    with bots in the seats nobody took. Returns the rematch and whether this
    call created it."""
    table = _locked(table)
    seats = _seats(table)
    mine = next((seat for seat in seats if seat.user_id == user.pk), None)
    if mine is None:
        raise TableError(FORBIDDEN, "only the players of this table can play it again")
    if table.status != FINISHED:
        raise TableError(ILLEGAL, "the game is not over yet")
    rematch = Table.objects.filter(rematch_of=table).order_by("pk").first()
    if rematch is not None:
        if rematch.status != OPEN and not rematch.seat_set.filter(user=user).exists():
            raise TableError(ILLEGAL, "the rematch has already started")
        join_table(rematch, user)
        return rematch, False
    limits.check_create(user)
    rematch = Table.objects.create(
        game=table.game, title=table.title, host=user, seats=table.seats, options=table.options,
        private=table.private, rated=table.rated, invite_code=secrets.token_urlsafe(12) if table.private else "",
        spectators_chat=table.spectators_chat, bot_kind=table.bot_kind,
        seed=secrets.randbits(63), salts=[None] * table.seats, rematch_of=table,
        wake_at_ms=epoch_ms() + rematch_wait_ms())
    Seat.objects.bulk_create(
        Seat(table=rematch, index=seat.index, user=user if seat.index == mine.index else None,
             bot_kind=seat.bot_kind,
             reserved_for=seat.user if seat.user_id is not None and seat.index != mine.index else None)
        for seat in seats)
    seat_wanted.send(sender=Table, table=rematch, user=user)
    new_seats = _seats(rematch)
    presence.recount(rematch, new_seats, epoch_ms())
    if all(seat.taken for seat in new_seats):
        _start(rematch, new_seats)
    announce_after_commit(rematch, listing=True)
    _rematch_changed(table)
    _offer_rematch(rematch, user, [seat.user_id for seat in seats if seat.user_id not in (None, user.pk)])
    return rematch, True


def _offer_rematch(rematch: Table, user, others: list[int]) -> None:
    """The other players hear of the offer on their phones (sent after the commit)."""
    from django.urls import reverse

    from pigparlor.accounts.models import display_name
    from pigparlor.pwa.kinds import REMATCH
    from pigparlor.pwa.push import notify

    title = f"{display_name(user)} offers a rematch"
    body = f"{get_game(rematch.game).title}: your seat at {rematch.display_title} is kept for you."
    for other in others:
        notify(other, REMATCH, reverse("lobby:table", args=[rematch.pk]), title, body, tag=f"rematch-{rematch.pk}")


@transaction.atomic
def decline_rematch(table, user) -> None:
    """"No thanks" to a rematch offer: the seat kept for ``user`` is given up (a bot
    takes it at the start). Once nobody the rematch keeps a seat for is still
    deciding, it starts at once, with bots in the seats nobody took."""
    origin = _lock_origin(table)
    table = _locked(table)
    seats = _seats(table)
    kept = _kept_for(seats, user)
    if table.rematch_of_id is None or table.status != OPEN or kept is None:
        raise TableError(ILLEGAL, "no rematch offer is waiting for you at this table")
    kept.reserved_for = None
    kept.save(update_fields=["reserved_for"])
    table.seats_rev += 1
    if not any(seat.reserved_for_id is not None and not seat.taken for seat in seats):
        _seat_bots(seats, table.bot_kind)
        _start(table, seats)
    table.save()
    announce_after_commit(table, listing=True)
    _rematch_changed(origin)


def start_rematch_if_due(table_id: int, now: int) -> None:
    """The clock: a rematch nobody else joined in time starts with bots in the free seats."""
    with transaction.atomic():
        origin = _lock_origin(table_id)
        table = Table.objects.select_for_update().filter(pk=table_id, status=OPEN).first()
        if table is None or table.wake_at_ms is None or table.wake_at_ms > now:
            return
        seats = _seats(table)
        _seat_bots(seats, table.bot_kind)
        table.seats_rev += 1
        _start(table, seats)
        announce_after_commit(table, listing=True)
        _rematch_changed(origin)


def _seat_bots(seats, bot_kind: str) -> None:
    """Bots of ``bot_kind`` (the table's level) in every empty seat."""
    for seat in seats:
        if not seat.taken:
            seat.bot_kind = bot_kind
            seat.save(update_fields=["bot_kind"])


@transaction.atomic
def leave_table(table, user) -> None:
    """Before the start the seat is freed (the table closes when no human is left).
    During play it is leaving for good (docs/rules/timeouts.md): a bot plays the seat
    to the end, the player watches from then on and cannot take it back, and their
    result counts as leaving (``leavers``: rated last)."""
    origin = _lock_origin(table)
    table = _locked(table)
    seats = _seats(table)
    mine = next((seat for seat in seats if seat.user_id == user.pk), None)
    if mine is None:
        raise TableError(FORBIDDEN, "you have no seat at this table")
    if table.status == OPEN:
        mine.user = None
        mine.save(update_fields=["user"])
        _salt_seat(table, mine.index, None)
        presence.recount(table, seats, epoch_ms())
        humans = [seat for seat in seats if seat.user_id is not None]
        if not humans:
            table.status = ABORTED
            table.finished_at = timezone.now()
            table.wake_at_ms = None
        elif table.host_id == user.pk:
            table.host = humans[0].user
    elif table.status == RUNNING:
        if mine.resigned:
            raise TableError(ILLEGAL, "you have already left this table")
        mine.resigned, mine.timeouts = True, 0
        presence.stand_in(mine, True, presence.table_last_event(table))
        mine.save(update_fields=["resigned", *presence.SEAT_FIELDS])
        presence.refresh_wake(table, seats)
    else:
        raise TableError(ILLEGAL, GAME_OVER)
    table.seats_rev += 1
    table.save()
    announce_after_commit(table, listing=True)
    _rematch_changed(origin)


@transaction.atomic
def start_table(table, user) -> None:
    """The host starts early: bots sit in the empty seats."""
    origin = _lock_origin(table)
    table = _locked(table)
    if table.host_id != user.pk:
        raise TableError(FORBIDDEN, "only the host can start the table")
    if table.status != OPEN:
        raise TableError(ILLEGAL, "this table has already started")
    seats = _seats(table)
    _seat_bots(seats, table.bot_kind)
    table.seats_rev += 1
    _start(table, seats)
    table.save()
    announce_after_commit(table, listing=True)
    _rematch_changed(origin)


def _salt_seat(table: Table, index: int, salt: str | None) -> None:
    """Set (or with None clear) one seat's salt on the row, unsaved."""
    salts = list(table.salts or ()) + [None] * (table.seats - len(table.salts or ()))
    salts[index] = salt
    table.salts = salts


@transaction.atomic
def set_salt(table_id, user, salt) -> None:
    """A seated player's client sends its random salt before the deal; it is
    mixed into the seed the engine deals from (``Table.deal_seed``,
    docs/fairness.md). A later salt from the same seat replaces the earlier."""
    salt = inputs.salt(salt)
    if user is None:
        raise TableError(FORBIDDEN, "watchers have no seat at this table")
    table = _locked(table_id)
    mine = next((seat for seat in _seats(table) if seat.user_id == user.pk), None)
    if mine is None:
        raise TableError(FORBIDDEN, "you have no seat at this table")
    if table.status != OPEN:
        raise TableError(ILLEGAL, "the cards are already dealt: a salt counts only before the start")
    _salt_seat(table, mine.index, salt)
    table.save(update_fields=["salts"])


@transaction.atomic
def close_table(table, reason: str) -> Table:
    """End a table that is not over as ``aborted`` and unrated, with ``reason``
    for everyone at it (a moderator's close; moderation checks who may). The
    game's state and version stay as they were: ``seats_rev`` tells every socket."""
    table = _locked(table)
    if table.status in (FINISHED, ABORTED):
        raise TableError(ILLEGAL, GAME_OVER)
    table.status = ABORTED
    table.rated = False
    table.closed_reason = reason
    table.finished_at = timezone.now()
    table.wake_at_ms = None
    table.seats_rev += 1
    table.save()
    announce_after_commit(table, listing=True)
    return table


@transaction.atomic
def seat_bot(table, index):
    """A bot takes seat ``index`` for good: its player loses the seat (moderation's
    kick, a ban). Refused for a table that is over and for a seat that is not a
    player's. Returns the player who sat there."""
    table = _locked(table)
    seats = _seats(table)
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(seats):
        raise TableError(BAD_REQUEST, f"no seat {index!r} at this table")
    if table.status in (FINISHED, ABORTED):
        raise TableError(ILLEGAL, GAME_OVER)
    seat = seats[index]
    if seat.user_id is None or seat.bot_kind:
        raise TableError(ILLEGAL, "that seat is a bot's" if seat.bot_kind else "that seat is empty")
    player = seat.user
    seat.user, seat.bot_kind, seat.replaced, seat.resigned, seat.timeouts = None, STAND_IN, False, False, 0
    seat.connections, seat.left_at_ms, seat.bot_events = 0, None, []
    seat.save(update_fields=["user", "bot_kind", "replaced", "resigned", "timeouts", "connections", "left_at_ms",
                             "bot_events"])
    if table.status == OPEN:
        humans = [each for each in seats if each.user_id is not None]
        if not humans:
            table.status, table.finished_at = ABORTED, timezone.now()
        elif table.host_id not in {each.user_id for each in humans}:
            table.host = humans[0].user
        if humans and all(each.taken for each in seats):
            _start(table, seats)
    presence.refresh_wake(table, seats)
    table.seats_rev += 1
    table.save()
    announce_after_commit(table, listing=True)
    return player


def _start(table: Table, seats: list[Seat]) -> None:
    """Deal from the seed mixed with the seats' salts: version 1 is the starting
    position; every logged action comes after it (pigparlor.tables.replay)."""
    engine = get_game(table.game).engine
    now = epoch_ms()
    state = engine.start(table.seats, table.deal_seed, table.options)
    table.status = RUNNING
    table.started_at = timezone.now()
    table.started_at_ms = table.changed_at_ms = now
    table.version = 1
    table.state = engine.dump(state)
    # A player with no socket open is absent from the start. Like every seat write, it
    # bumps seats_rev: a table made with its players (a tournament's) had its seats
    # cached at this rev already, and the clock, reading that cache, never saw the
    # absence start — absent players waited out turn timers instead of the grace.
    if presence.recount(table, seats, now):
        table.seats_rev += 1
    table.wake_at_ms = presence.next_wake(get_game(table.game), table, state, seats)
    table.save()
    moved_after_commit(table, None)


def moved_after_commit(table: Table, user) -> None:
    """Tell ``table_moved``'s listeners (the push app) once this change commits."""
    table_id, version, user_id = table.pk, table.version, getattr(user, "pk", None)
    transaction.on_commit(lambda: table_moved.send(sender=Table, table_id=table_id, version=version,
                                                   user_id=user_id))


def act(table_id, seat, action, expected_version, *, user=None, rtt_ms=None, received_at_ms=None) -> int:
    """``_act``, counted and timed for the operator's metrics (pigparlor/ops/metrics.py)."""
    started = time.perf_counter()
    seen: dict[str, str] = {}
    try:
        version = _act(table_id, seat, action, expected_version, user=user, rtt_ms=rtt_ms,
                       received_at_ms=received_at_ms, seen=seen)
    except TableError as refusal:
        metrics.REFUSED.labels(refusal.code).inc()
        raise
    finally:
        metrics.ACT_SECONDS.labels(seen.get("game", "unknown")).observe(time.perf_counter() - started)
    metrics.ACTIONS.labels(seen["game"], "platform" if user is None else "player").inc()
    return version


def _act(table_id, seat, action, expected_version, *, user=None, rtt_ms=None, received_at_ms=None,
         seen: dict[str, str]) -> int:
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
        seen["game"] = table.game
        seats = _seats(table)
        if user is not None and (seat is None or not 0 <= seat < len(seats) or seats[seat].user_id != user.pk):
            raise TableError(FORBIDDEN, "that is not your seat")
        if user is not None and seats[seat].resigned:
            raise TableError(FORBIDDEN, "you left this table: a bot plays your seat to the end")
        if table.status in (FINISHED, ABORTED):
            raise TableError(ILLEGAL, GAME_OVER)
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
        timed_out = sorted(engine.clock_plays_for(state)) if seat is None else []
        listing = presence.count_timeouts(engine, state, new_state, seat, user, seats, timed_out)
        table.version += 1
        table.state = engine.dump(new_state)
        prepared.insert(ActionLog, {"table_id": table.pk, "version": table.version, "seat": seat, "action": action,
                                    "at_ms": now, "user_id": getattr(user, "pk", None), "timed_out": timed_out,
                                    "state_sha": state_digest(table.state)})
        table.changed_at_ms = now
        outcome = engine.outcome(new_state)
        if outcome is not None:
            table.status = FINISHED
            # "left" / "left_early": who left the game, and who left before playing their share.
            table.outcome = {**outcome.as_json(), **leavers(table.pk, seats)}
            table.finished_at = timezone.now()
            table.wake_at_ms = None
            listing = True
        else:
            table.wake_at_ms = presence.next_wake(game, table, new_state, seats)
        if listing:
            table.seats_rev += 1
        prepared.update_fields(table, ["version", "seats_rev", "state", "changed_at_ms", "status", "outcome",
                                       "finished_at", "wake_at_ms"])
        if outcome is not None:
            # Registered before the broadcast, so listeners (the ratings) run first.
            finished_id = table.pk
            transaction.on_commit(lambda: table_finished.send(sender=Table, table_id=finished_id))
        # A game that just ended shows its way back at once (a tournament's table: to the tournament).
        origin = load_origin(table) if outcome is not None else None
        announce_after_commit(table, listing=listing,
                              snapshot=Snapshot(table, tuple(seats), new_state, origin=origin))
        moved_after_commit(table, user)
        return table.version
