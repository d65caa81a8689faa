"""What each viewer of a table sees, rendered once per version per viewer.

A ``Snapshot`` is a table as committed at one (version, seats_rev). From it come
the browser's HTML fragments (the game's table template plus the shell's parts)
and the JSON API's state frame, both for one viewer: a seat index, or None for
every spectator. Both are cached per (table, version, seats_rev, viewer) in
process memory — only a cache: a miss renders again from the database.
"""
from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from dataclasses import dataclass

from django.template.loader import render_to_string

from pigparlor.ratings.accounts import seat_username
from pigparlor.ratings.pages import rating_change
from pigparlor.ratings.queries import rating_changes
from pigparlor.tables.errors import FORBIDDEN, NOT_FOUND, TableError
from pigparlor.tables.fragments import out_of_band, split_top_level
from pigparlor.tables.models import FINISHED, Seat, Table, seats_of
from pigparlor.tables.registry import get_game
from pigparlor.tables.timing import epoch_ms, to_epoch_ms

SHELL_TEMPLATE = "tables/_shell.html"
CACHE_SIZE = 4096


class _Lru:
    def __init__(self, size: int):
        self.size = size
        self.items: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key):
        with self.lock:
            value = self.items.get(key)
            if value is not None:
                self.items.move_to_end(key)
            return value

    def put(self, key, value):
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return value


SNAPSHOTS = _Lru(CACHE_SIZE)
SEATS = _Lru(CACHE_SIZE)
HTML = _Lru(CACHE_SIZE)
JSON = _Lru(CACHE_SIZE)


@dataclass(frozen=True)
class Snapshot:
    table: Table
    seats: tuple[Seat, ...]
    state: object  # the engine's state; None before the start
    # A finished rated table's rating changes (pigparlor.ratings.queries.rating_changes),
    # read with the snapshot so that rendering, off the ORM's thread, reads no database.
    rating_changes: tuple = ()

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.table.pk, self.table.version, self.table.seats_rev)

    @property
    def game(self):
        return get_game(self.table.game)


def load_snapshot(table_id: int) -> Snapshot:
    """The table as committed now (one query for the row, one for the seats)."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise TableError(NOT_FOUND, "no such table")
    key = (table.pk, table.version, table.seats_rev)
    cached = SNAPSHOTS.get(key)
    if cached is not None:
        return cached
    seats = tuple(seats_at(table))
    state = get_game(table.game).engine.load(table.state) if table.state is not None else None
    changes = tuple(rating_changes(table, seats)) if table.rated and table.status == FINISHED else ()
    return SNAPSHOTS.put(key, Snapshot(table, seats, state, changes))


def seats_at(table: Table) -> list[Seat]:
    """The table's seats as of its ``seats_rev`` (every write to a seat bumps it,
    under the table's row lock), from the cache when this process has them.
    Fresh copies: callers may change and save them."""
    key = (table.pk, table.seats_rev)
    seats = SEATS.get(key)
    if seats is None:
        seats = SEATS.put(key, tuple(seats_of(table)))
    return [copy.copy(seat) for seat in seats]


def cached_snapshot(key) -> Snapshot | None:
    return SNAPSHOTS.get(key)


def viewer_for(snapshot: Snapshot, user, invite_code: str | None = None) -> int | None:
    """The user's seat index, or None for a spectator; private tables need the
    invite code to watch."""
    for seat in snapshot.seats:
        if user is not None and seat.user_id == user.pk:
            return seat.index
    if snapshot.table.private and invite_code != snapshot.table.invite_code:
        raise TableError(FORBIDDEN, "this table is private")
    return None


def display_name(user) -> str:
    profile = getattr(user, "profile", None)
    return getattr(profile, "display_name", "") or user.get_username()


def players(snapshot: Snapshot, viewer: int | None) -> list[dict]:
    result = []
    for seat in snapshot.seats:
        if seat.user is not None:
            name = display_name(seat.user)
        elif seat.bot_kind:
            name = f"{seat.bot_kind.capitalize()} bot {seat.index + 1}"
        else:
            name = "Empty seat"
        result.append({
            "index": seat.index, "name": name, "is_bot": seat.is_bot, "is_you": seat.index == viewer,
            "connected": bool(seat.bot_kind) or seat.connections > 0, "replaced": seat.replaced,
            "empty": not seat.taken, "username": seat_username(seat),
        })
    return result


def deadline_ms(snapshot: Snapshot) -> int | None:
    if snapshot.state is None:
        return None
    return to_epoch_ms(snapshot.table, snapshot.game.engine.next_deadline(snapshot.state))


def context(snapshot: Snapshot, viewer: int | None) -> dict:
    """The template context of docs/platform.md §5, plus what the shell needs."""
    engine = snapshot.game.engine
    view = engine.view(snapshot.state, viewer) if snapshot.state is not None else {}
    legal = engine.legal_actions(snapshot.state, viewer) if snapshot.state is not None and viewer is not None else []
    people = players(snapshot, viewer)
    names = {player["index"]: player["name"] for player in people}
    outcome = snapshot.table.outcome
    changes = {change["seat"]: change for change in snapshot.rating_changes}
    standings = sorted(
        ({"rank": rank, "name": names[index], "score": outcome["scores"][index], "seat": index,
          **rating_change(changes.get(index))}
         for index, rank in enumerate(outcome["ranks"])), key=lambda row: row["rank"]) if outcome else []
    turn = view.get("turn")
    return {
        "view": view, "legal": legal, "version": snapshot.table.version, "seat": viewer,
        "table": snapshot.table, "game": snapshot.game, "players": people,
        "deadline_ms": deadline_ms(snapshot), "now_ms": epoch_ms(),
        "turn_name": names.get(turn) if isinstance(turn, int) else None, "turn_is_you": viewer is not None and turn == viewer,
        "log": [{**event, "who": names.get(event.get("seat"))} for event in view.get("log", ())],
        "standings": standings,
        "replaced": viewer is not None and snapshot.seats[viewer].replaced,
    }


def html_parts(snapshot: Snapshot, viewer: int | None) -> dict[str, str]:
    """``{element id: html}`` for this viewer: the shell's parts, then the game's."""
    key = (*snapshot.key, viewer)
    cached = HTML.get(key)
    if cached is not None:
        return cached
    ctx = context(snapshot, viewer)
    parts = split_top_level(render_to_string(SHELL_TEMPLATE, ctx))
    if snapshot.state is not None:
        parts.update(split_top_level(render_to_string(snapshot.game.table_template, ctx)))
    return HTML.put(key, parts)


def html_frame(parts: dict[str, str], already_sent: dict[str, str]) -> str:
    """The out-of-band swaps for the parts that differ from what the socket holds."""
    return "".join(out_of_band(html) for element_id, html in parts.items() if already_sent.get(element_id) != html)


def json_state(snapshot: Snapshot, viewer: int | None) -> dict:
    """The JSON protocol's state frame for this viewer (design.md)."""
    key = (*snapshot.key, viewer)
    cached = JSON.get(key)
    if cached is not None:
        return cached
    engine = snapshot.game.engine
    started = snapshot.state is not None
    frame = {
        "type": "state", "version": snapshot.table.version, "seat": viewer, "status": snapshot.table.status,
        "view": engine.view(snapshot.state, viewer) if started else None,
        "legal": engine.legal_actions(snapshot.state, viewer) if started and viewer is not None else [],
        "deadline_ms": deadline_ms(snapshot),
    }
    if snapshot.table.outcome is not None:
        frame["outcome"] = snapshot.table.outcome
    return JSON.put(key, frame)
