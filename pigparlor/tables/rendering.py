"""What each viewer of a table sees, rendered once per version per viewer.

A ``Snapshot`` is a table as committed at one (version, seats_rev). From it come
the browser's HTML fragments (the game's table template plus the shell's parts)
and the JSON API's state frame, both for one viewer: a seat index, or None for
every spectator. Both are cached per (table, version, seats_rev, viewer) in
process memory — only a cache: a miss renders again from the database.
"""
from __future__ import annotations

import copy
import json
import re
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property

from django.template import Context
from django.template.loader import get_template
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe

from games.core.cards import word_list
from games.core.registry import get_game
from pigparlor.ratings.accounts import seat_username
from pigparlor.ratings.explain import PENDING, ordinal, reason
from pigparlor.ratings.queries import table_ratings
from pigparlor.ratings.scale import REPEAT_GAMES
from pigparlor.tables import prepared
from pigparlor.tables.errors import FORBIDDEN, NOT_FOUND, TableError
from pigparlor.tables.fragments import MEMO_SLOTS, SHARED_BLOCKS, fill_slots, out_of_band, split_top_level
from pigparlor.tables.models import ABORTED, FINISHED, OPEN, RUNNING, TIMEOUTS_BEFORE_BOT, Seat, Table, seats_of
from pigparlor.tables.signals import table_origin
from pigparlor.tables.timing import epoch_ms, to_epoch_ms

SHELL_TEMPLATE = "tables/_shell.html"
# The browser sockets' renders run here (pigparlor.tables.consumers): off the event
# loop and the ORM's thread. Python runs one thread at a time, so two are plenty.
RENDER_THREADS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="pigparlor-render")
PAGE_LOG, FRAME_LOG, LAST_MOVES = object(), object(), object()  # Snapshot.once's kinds
CACHE_SIZE = 4096


class Lru:
    """A bounded cache shared by the event loop and the threads that render and
    query. No lock: each OrderedDict call is atomic, and a lock held by a thread
    the interpreter had just switched away from kept the others waiting (issue 14);
    a key another thread evicted between two calls is simply a miss."""

    def __init__(self, size: int):
        self.size = size
        self.items: OrderedDict = OrderedDict()

    def get(self, key):
        value = self.items.get(key)
        if value is not None:
            try:
                self.items.move_to_end(key)
            except KeyError:
                pass
        return value

    def put(self, key, value):
        self.items[key] = value
        _newest_last(self.items, key, self.size)
        return value


def _newest_last(items: OrderedDict, key, size: int) -> None:
    """Move ``key`` to the end of ``items`` and drop the oldest beyond ``size``
    (a key another thread evicted meanwhile is left alone, as a miss)."""
    try:
        items.move_to_end(key)
        while len(items) > size:
            items.popitem(last=False)
    except KeyError:
        pass


class _Latest:
    """The newest entry of each table (or table and viewer), for at most ``size`` of them.

    A live table only ever needs its latest version: a socket told of version 7
    when 8 is already here sends 8. Keeping older versions too (an LRU of 4,096
    entries each) held some 4,000 game states and frames that every full
    collection of the garbage collector walked: at 500 live tables a pause of a
    quarter of a second, every table's update waiting (issue 14). No lock, as
    ``Lru``."""

    def __init__(self, size: int, group, order):
        self.size, self.group, self.order = size, group, order
        self.items: OrderedDict = OrderedDict()  # group -> (key, value)

    def get(self, key):
        """The value at exactly ``key``."""
        entry = self.items.get(self.group(key))
        return entry[1] if entry is not None and entry[0] == key else None

    def newest(self, key):
        """The value at ``key`` or a newer one of the same group."""
        entry = self.items.get(self.group(key))
        return entry[1] if entry is not None and self.order(entry[0]) >= self.order(key) else None

    def put(self, key, value):
        """Keep ``value`` unless the group already holds a newer one; returns ``value``."""
        group = self.group(key)
        entry = self.items.get(group)
        if entry is None or self.order(entry[0]) <= self.order(key):
            self.items[group] = (key, value)
            _newest_last(self.items, group, self.size)
        return value


def _table(key):
    return key[0]


def _table_and_viewer(key):
    return (key[0], key[3])


def _version(key):
    return key[1:3]


# (table, version, seats_rev) -> Snapshot; (table, seats_rev) -> seats;
# (table, version, seats_rev, viewer) -> HTML parts / JSON frame.
SNAPSHOTS = _Latest(CACHE_SIZE, _table, _version)
SEATS = _Latest(CACHE_SIZE, _table, _version)
HTML = _Latest(4 * CACHE_SIZE, _table_and_viewer, _version)
JSON = _Latest(4 * CACHE_SIZE, _table_and_viewer, _version)


@dataclass(frozen=True)
class Snapshot:
    table: Table
    seats: tuple[Seat, ...]
    state: object  # the engine's state; None before the start
    # A finished rated table's ratings and why they moved (pigparlor.ratings.queries.table_ratings),
    # read with the snapshot so that rendering, off the ORM's thread, reads no database.
    ratings: tuple = ()
    # A finished table's "Play again" table and its seats (``Rematch``), read likewise.
    rematch: Rematch | None = None
    # Where a finished or closed table came from (``Origin``), read likewise.
    origin: object = None

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.table.pk, self.table.version, self.table.seats_rev)

    @property
    def live(self) -> bool:
        """Started and not closed: a table a moderator closed offers no actions,
        whatever its game's state would allow."""
        return self.state is not None and self.table.status != ABORTED

    @property
    def game(self):
        return get_game(self.table.game)

    @cached_property
    def names(self) -> dict[int, str]:
        """Each seat's name as the page shows it: the same for every viewer, so worked
        out once per version (frames, log lines and the replay all use it)."""
        return {seat.index: seat_name(seat) for seat in self.seats}

    @cached_property
    def _named_lines(self) -> dict:
        return {}  # (text, html) -> the line named

    @cached_property
    def shared_blocks(self) -> dict:
        """``{% for_every_viewer %}`` blocks rendered for this version: name -> HTML."""
        return {}

    @cached_property
    def _per_version(self) -> dict:
        return {}  # PAGE_LOG / FRAME_LOG / LAST_MOVES -> (what it was worked out from, the result)

    def once(self, kind, source, build):
        """``build(source)``, worked out once per version for every viewer whose ``source``
        is the same (the usual case: every viewer of a version sees the same log)."""
        shared = self._per_version.get(kind)
        if shared is not None and shared[0] == source:
            return shared[1]
        result = build(source)
        self._per_version[kind] = (source, result)
        return result

    def page_log(self, events) -> list[dict]:
        """A view's log as the page shows it (each line named, with who moved: a
        stand-in bot's lines are the bot's, "Bot for Ana")."""
        return self.once(PAGE_LOG, events, lambda events: [
            {**event, "who": self.mover(event), "text": self.named(event["text"], True)}
            for event in events])

    def mover(self, event: dict) -> str | None:
        seat = event.get("seat")
        if seat is None:
            return None
        name = self.names.get(seat)
        if name is None or self.seats[seat].user_id is None or not self.seats[seat].bot_events:
            return name
        n = event.get("n", 0)
        by_bot = any(first <= n and (last is None or n <= last) for first, last in self.seats[seat].bot_events)
        return bot_for(name) if by_bot else name

    def frame_log(self, events) -> list[dict]:
        """A view's log as the JSON frame carries it (each line named)."""
        return self.once(FRAME_LOG, events, lambda events: [
            {**event, "text": self.named(event["text"])} for event in events])

    def named(self, text: str, html: bool = False) -> str:
        """A log line with its seats named (``seat_names``, or ``seat_names_html`` for
        the page), worked out once per version for all its viewers: each viewer's
        frame carries the same lines (issue 14)."""
        key = (text, html)
        named = self._named_lines.get(key)
        if named is None:
            named = self._named_lines[key] = _named(text, self.names, html)
        return named


def load_snapshot(table_id: int) -> Snapshot:
    """The table as committed now (one query for the row, one for the seats)."""
    try:
        # Compiled once (prepared): on a second worker every socket of a table reads
        # the row at every version it is told of (issue 14).
        table = prepared.read_row(Table, table_id)
    except (ValueError, TypeError):
        table = None
    if table is None:
        raise TableError(NOT_FOUND, "no such table")
    key = (table.pk, table.version, table.seats_rev)
    cached = SNAPSHOTS.get(key)
    if cached is not None:
        return cached
    seats = tuple(seats_at(table))
    state = get_game(table.game).engine.load(table.state) if table.state is not None else None
    ratings: tuple = ()
    if table.rated and table.status == FINISHED:
        ratings = tuple(table_ratings(table, seats, {seat.index: seat_name(seat) for seat in seats}))
    rematch = load_rematch(table) if table.status == FINISHED else None
    origin = load_origin(table) if table.status in (FINISHED, ABORTED) else None
    return SNAPSHOTS.put(key, Snapshot(table, seats, state, ratings, rematch, origin))


@dataclass(frozen=True)
class Origin:
    """Where a table came from, for its end screen's way back ("Back to Porch
    cup"). ``rematch``: whether "Play again" and "New table" belong there too
    (not at a tournament's table: the tournament seats its next round)."""

    label: str
    url: str
    rematch: bool = False


def load_origin(table: Table) -> Origin | None:
    """The first ``Origin`` a ``table_origin`` receiver answers for ``table``."""
    for _, answer in table_origin.send(sender=Table, table=table):
        if answer is not None:
            return answer
    return None


@dataclass(frozen=True)
class Rematch:
    """A finished table's rematch as its players see it: who is in, who is still
    deciding, and whether it started."""

    table_id: int
    status: str
    seat_users: tuple  # the user id sitting in each seat (None: empty or a bot)
    taken: int
    seats: int
    deciding: tuple = ()  # (user id, name) of each player a seat is still kept for
    host: str = ""  # the name of the player who offered it


def load_rematch(table: Table) -> Rematch | None:
    rematch = Table.objects.filter(rematch_of=table).select_related("host").order_by("pk").first()
    if rematch is None:
        return None
    seats = list(rematch.seat_set.order_by("index").select_related("reserved_for"))
    deciding = tuple((seat.reserved_for_id, display_name(seat.reserved_for)) for seat in seats
                     if seat.reserved_for_id is not None and not seat.taken and rematch.status == OPEN)
    return Rematch(rematch.pk, rematch.status, tuple(seat.user_id for seat in seats),
                   sum(1 for seat in seats if seat.taken), len(seats), deciding,
                   display_name(rematch.host) if rematch.host_id else "")


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
    """The snapshot at ``key`` (table, version, seats_rev) or a newer one, if this process has it."""
    return SNAPSHOTS.newest(key)


def viewer_for(snapshot: Snapshot, user, invite_code: str | None = None) -> int | None:
    """The user's seat index, or None for a spectator; private tables need the
    invite code to watch."""
    signed_in = user is not None and user.is_authenticated  # a visitor without an account only watches
    for seat in snapshot.seats:
        if signed_in and seat.user_id == user.pk:
            # A player who left during play watches the rest (a bot plays the seat);
            # the result is theirs again.
            return None if seat.resigned and snapshot.table.status == RUNNING else seat.index
    if snapshot.table.private and invite_code != snapshot.table.invite_code:
        raise TableError(FORBIDDEN, "this table is private")
    return None


def display_name(user) -> str:
    profile = getattr(user, "profile", None)
    return getattr(profile, "display_name", "") or user.get_username()


def seat_name(seat: Seat) -> str:
    if seat.user is not None:
        return display_name(seat.user)
    if seat.bot_kind:
        return f"{seat.bot_kind.capitalize()} bot {seat.index + 1}"
    return "Empty seat"


def bot_for(name: str) -> str:
    """What a stand-in bot's moves are labelled with: "Bot for Ana" ("Bot for you" to Ana)."""
    return f"Bot for {name}"


def players(snapshot: Snapshot, viewer: int | None) -> list[dict]:
    """Each seat as the page shows it. ``label`` is how the seat's moves are named
    to this viewer now: "You", the name, or while a stand-in bot plays, "Bot for you"
    / "Bot for Ana" (a bot's move is never "You")."""
    names = snapshot.names
    return [{
        "index": seat.index, "name": names[seat.index], "is_bot": seat.is_bot, "is_you": seat.index == viewer,
        "connected": bool(seat.bot_kind) or seat.connections > 0, "replaced": seat.replaced,
        "resigned": seat.resigned, "empty": not seat.taken, "username": seat_username(seat),
        "label": seat_label(names[seat.index], seat.index == viewer, seat.replaced),
    } for seat in snapshot.seats]


def seat_label(name: str, is_you: bool, replaced: bool) -> str:
    who = "you" if is_you else name
    if replaced:
        return bot_for(who)
    return "You" if is_you else name


SEAT_REF = re.compile(r"\{seat:(\d+)\}")


def seat_names(text: str, names: dict[int, str]) -> str:
    """A log line with every ``{seat:N}`` (games.core.cards.seat_ref) replaced by that seat's
    player: the one way every game's log names seats (docs/platform.md §1)."""
    return _named(text, names, False)


def seat_names_html(text: str, names: dict[int, str]) -> str:
    """``seat_names`` for the page: the text escaped, each name inside ``<bdi>`` (docs/platform.md §5)."""
    return _named(text, names, True)


# A log line stays in the log for many versions and is shown to every viewer:
# named once per process for the same names (naming the same lines again was a
# third of building a browser seat's template context, issue 14).
NAMED = Lru(16384)


def _named(text: str, names: dict[int, str], html: bool) -> str:
    key = (text, html, *names.items())
    named = NAMED.get(key)
    if named is None:
        named = NAMED.put(key, _seat_names_html(text, names) if html else SEAT_REF.sub(
            lambda ref: names.get(int(ref.group(1)), f"seat {int(ref.group(1)) + 1}"), text))
    return named


def _seat_names_html(text: str, names: dict[int, str]) -> str:
    parts = SEAT_REF.split(text)
    html = [escape(part) if index % 2 == 0 else
            format_html("<bdi>{}</bdi>", names.get(int(part), f"seat {int(part) + 1}"))
            for index, part in enumerate(parts)]
    return mark_safe("".join(html))


def deadline_ms(snapshot: Snapshot) -> int | None:
    if snapshot.state is None or snapshot.table.status == ABORTED:
        return None
    return to_epoch_ms(snapshot.table, snapshot.game.engine.next_deadline(snapshot.state))


def countdown_ms(snapshot: Snapshot, your_move: bool) -> int | None:
    """The deadline the page counts down to: a player's own time only — while the clock
    would play someone's missed turn (a turn timer), or in a turn-based game while this
    viewer has a move to make (Snout!'s window, the pause after a round). Never a real-time
    game's pauses: Oink!'s countdown is the flipper's flip time, not the gap between cards."""
    engine = snapshot.game.engine
    if snapshot.table.status != RUNNING or snapshot.state is None:
        return None
    if engine.clock_plays_for(snapshot.state) or (your_move and not engine.realtime):
        return deadline_ms(snapshot)
    return None


def seat_notice(seat: Seat | None, your_move: bool) -> dict | None:
    """What the top of a seated player's page says about their seat, if anything
    (docs/rules/timeouts.md): a bot plays it ("bot", and why), or the clock played
    their last turns for them ("missed": how many in a row, and whether the next
    one hands the seat to a bot)."""
    if seat is None or not (seat.replaced or seat.timeouts):
        return None
    if seat.replaced:
        return {"kind": "bot", "missed": seat.timeouts >= TIMEOUTS_BEFORE_BOT, "limit": TIMEOUTS_BEFORE_BOT}
    return {"kind": "missed", "count": seat.timeouts, "limit": TIMEOUTS_BEFORE_BOT,
            "last_chance": your_move and seat.timeouts + 1 >= TIMEOUTS_BEFORE_BOT}


def score_text(game, score) -> str:
    singular, plural = game.score_unit
    return f"{score} {singular if score in (1, -1) else plural}"


def standings_of(snapshot: Snapshot, names: dict, viewer: int | None = None) -> list[dict]:
    """One row per seat, best first: place, name, score, and once rated the rating's
    change and why (``explain.reason``, in the viewer's words for their own seat)."""
    outcome = snapshot.table.outcome
    if not outcome:
        return []
    ratings = {row.seat: row for row in snapshot.ratings}
    left = set(outcome.get("left", ()))
    rows = [{"rank": rank, "place": ordinal(rank), "name": names[index], "seat": index,
             "score": outcome["scores"][index], "score_text": score_text(snapshot.game, outcome["scores"][index]),
             "shared": list(outcome["ranks"]).count(rank) > 1, "left": index in left,
             **rating_fields(ratings.get(index), index == viewer)}
            for index, rank in enumerate(outcome["ranks"])]
    return sorted(rows, key=lambda row: (row["rank"], row["seat"]))


def rating_fields(rated, you: bool) -> dict:
    """A standings row's rating: the change (``1512 → 1531 (+19)``) and why, a bot's fixed rating."""
    if rated is None:
        return {}
    return {"change": rated.change, "delta": rated.delta, "why": reason(rated, you), "bot": rated.bot,
            "fixed": rated.before.shown if rated.bot else "", "pending": rated.unrated == PENDING}


def rating_note(snapshot: Snapshot) -> str:
    """What the results screen says about a finished rated table's ratings as a whole (docs/ratings.md)."""
    outcome = snapshot.table.outcome
    if not (snapshot.table.rated and outcome):
        return ""
    unrated = outcome.get("unrated")
    if unrated == "repeat":
        return (f"Not rated: these players already have {REPEAT_GAMES} rated {snapshot.game.title} games together "
                "within 24 hours.")
    if unrated:
        return "Not rated: no player was left at the table."
    if any(row.unrated == PENDING for row in snapshot.ratings):
        return "Rated game: the rating changes are on their way."
    if outcome.get("left_early"):
        return "Rated game. Whoever left before playing half of their moves is rated last, and nobody gains for beating them."
    return "Rated game."


def headline(standings: list[dict]) -> str:
    """"Ana wins with 11 pigs", or "Ana and Bo share the win with 9 points"."""
    winners = [row for row in standings if row["rank"] == 1]
    if not winners:
        return ""
    if len(winners) == 1:
        return f"{winners[0]['name']} wins with {winners[0]['score_text']}"
    return f"{word_list([row['name'] for row in winners])} share the win with {winners[0]['score_text']}"


def last_moves(log: list[dict], viewer: int | None, snapshot: Snapshot | None = None) -> tuple[dict, int | None]:
    """Each seat's latest line in the log, and the seat (not the viewer's) that moved last.
    Given the ``snapshot`` whose ``page_log`` the log is, the walk is done once per version."""
    latest, mover = snapshot.once(LAST_MOVES, log, _latest_moves) if snapshot is not None else _latest_moves(log)
    return latest, (mover if mover != viewer else None)


def _latest_moves(log: list[dict]) -> tuple[dict, int | None]:
    latest = {}
    mover = None
    for event in log:
        seat = event.get("seat")
        if isinstance(seat, int):
            latest[seat] = event["text"]
            mover = seat
    return latest, mover


def rematch_context(snapshot: Snapshot, viewer: int | None) -> dict | None:
    rematch = snapshot.rematch
    if rematch is None:
        return None
    me = snapshot.seats[viewer].user_id if viewer is not None else None
    return {"id": rematch.table_id, "status": rematch.status, "taken": rematch.taken, "seats": rematch.seats,
            "joined": me is not None and me in rematch.seat_users, "host": rematch.host,
            "kept_for_you": me is not None and any(user == me for user, _ in rematch.deciding),
            "deciding": [name for user, name in rematch.deciding if user != me]}


def context(snapshot: Snapshot, viewer: int | None) -> dict:
    """The template context of docs/platform.md §5, plus what the shell needs."""
    engine = snapshot.game.engine
    view = engine.view(snapshot.state, viewer) if snapshot.state is not None else {}
    legal = engine.legal_actions(snapshot.state, viewer) if snapshot.live and viewer is not None else []
    people = players(snapshot, viewer)
    names = snapshot.names
    standings = standings_of(snapshot, names, viewer)
    log = snapshot.page_log(view.get("log", ()))
    running = snapshot.table.status == "running"
    latest, mover = last_moves(log, viewer, snapshot)
    for player in people:
        player["last_move"] = latest.get(player["index"], "")
        player["moved_last"] = running and player["index"] == mover
    turn = view.get("turn")
    mine = snapshot.seats[viewer] if viewer is not None else None
    stand_in = mine is not None and mine.replaced
    turn_is_you = viewer is not None and turn == viewer
    # Whose move it is, for the turn alerts: a real-time game's players may always
    # slap, so there only the turn counts; elsewhere any legal action does.
    your_move = running and (turn_is_you or (bool(legal) and not engine.realtime))
    return {
        "view": view, "legal": legal, "version": snapshot.table.version, "seat": viewer,
        "table": snapshot.table, "game": snapshot.game, "players": people,
        "deadline_ms": countdown_ms(snapshot, your_move), "now_ms": epoch_ms(),
        "turn_name": people[turn]["label"] if isinstance(turn, int) and 0 <= turn < len(people) else None,
        "turn_is_you": turn_is_you,
        "your_move": your_move, "stand_in": stand_in,
        "notice": seat_notice(mine, your_move) if running else None,
        "log": log,
        "phase_name": engine.phase_names.get(view.get("phase"), ""),
        "standings": standings, "headline": headline(standings), "rating_note": rating_note(snapshot),
        "replaced": stand_in,
        "watchers": snapshot.table.watchers, "rematch": rematch_context(snapshot, viewer),
        "origin": snapshot.origin,
        "closed": snapshot.table.status == ABORTED,  # a moderator closed it: nothing to press
        **coaching(snapshot, viewer, view, legal),
    }


def coaching(snapshot: Snapshot, viewer: int | None, view: dict, legal: list) -> dict:
    """What the game's coach (games.core.coach) says to this viewer, from this viewer's view
    and legal actions only: ``howto_now`` for the "How to play" panel of every table, and
    at a first game with hints the seat's ``lesson`` (its aim, whether it is reached, the hint)."""
    coach = snapshot.game.coach
    if coach is None or snapshot.state is None:
        return {"howto_now": "", "lesson": None}
    lesson = None
    if snapshot.table.tutorial and viewer is not None:
        hint = coach.hint(view, legal) if snapshot.live else None
        lesson = {"aim": coach.lesson.aim, "learned": coach.learned(view), "hint": hint,
                  "targets": json.dumps(list(hint.targets) if hint else [])}
    return {"howto_now": coach.now(view, legal), "lesson": lesson}


def html_parts(snapshot: Snapshot, viewer: int | None) -> dict[str, str]:
    """``{element id: html}`` for this viewer: the shell's parts, then the game's."""
    key = (*snapshot.key, viewer)
    cached = HTML.get(key)
    if cached is not None:
        return cached
    ctx = context(snapshot, viewer)
    slots = ctx[MEMO_SLOTS] = []  # the memoised partials' HTML, put back after the cut
    ctx[SHARED_BLOCKS] = snapshot.shared_blocks  # what every viewer of this version is shown alike
    parts = split_top_level(render_table_template(SHELL_TEMPLATE, ctx))
    if snapshot.state is not None:
        game_parts = split_top_level(render_table_template(snapshot.game.table_template, ctx))
        parts.update(closed_parts(game_parts) if snapshot.table.status == ABORTED else game_parts)
    return HTML.put(key, fill_slots(parts, slots))


OPENING_TAG = re.compile(r"^(\s*<[A-Za-z][\w-]*)")
CLOSED_PROMPT = '<section id="{}" class="table-closed-prompt" role="status"><p>Play has stopped: this table is closed.</p></section>'


def closed_parts(parts: dict[str, str]) -> dict[str, str]:
    """A closed table's game, for every viewer at once (its sockets re-render on the
    close's ``seats_rev``): read-only. The game's prompt (each game's ``…-prompt``
    part: "Your flip in a moment…", its buttons) says that play has stopped; every
    other part stays in view but ``inert`` (nothing in it can be pressed or focused,
    static/css/table.css greys it)."""
    closed = {}
    for element_id, html in parts.items():
        if html.lstrip().startswith(("<link", "<script", "<style")):
            closed[element_id] = html
        elif element_id.endswith("-prompt"):
            closed[element_id] = CLOSED_PROMPT.format(element_id)
        else:
            closed[element_id] = OPENING_TAG.sub(r"\1 inert", html, count=1)
    return closed


def render_table_template(name: str, ctx: dict) -> str:
    """A table template rendered with numbers left unlocalised: the site is en-us
    without thousand separators, so the HTML is the same, but localising looked
    up the active language for every number in the table, a sixth of the CPU
    of a browser seat's update (docs/benchmarks.md, issue 14)."""
    return get_template(name).template.render(Context(ctx, autoescape=True, use_l10n=False))


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
        "view": _named_log(engine.view(snapshot.state, viewer), snapshot) if started else None,
        "legal": engine.legal_actions(snapshot.state, viewer) if snapshot.live and viewer is not None else [],
        "deadline_ms": deadline_ms(snapshot), "commitment": snapshot.table.commitment,
    }
    if snapshot.table.outcome is not None:
        frame["outcome"] = snapshot.table.outcome
    if snapshot.table.closed_reason:
        frame["reason"] = snapshot.table.closed_reason
    return JSON.put(key, frame)


def _named_log(view: dict, snapshot: Snapshot) -> dict:
    """The view with its log's seat references filled in, as the page shows them."""
    return {**view, "log": snapshot.frame_log(view.get("log", ()))}
