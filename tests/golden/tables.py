"""Seeded bot games at real tables, and what each viewer is sent at every version.

A game is played through the platform as a browser player's table is: one player
(``ana``, seat 0, her socket open) and bots in the other seats, her moves going
through ``services.act`` as her socket's would, the bots' and the timers' through
the clock (``tests.support.tables.step_clock``). Ana plays as the game's sensible
bot would (its choice and its think time, from a generator seeded by the
version), so the whole game follows from the table's seed.

Everything that would differ from run to run is fixed by the setup rather than
normalised away: the wall clock is frozen at ``EPOCH_S`` and only moves when the
clock skips ahead, the table and user ids start at 1 (the test resets the
database's sequences), the player's name is fixed and the table's seed is given.
The one normaliser is ``normalise_html``.
"""
from __future__ import annotations

import hashlib
import json
import random
import re
import types
from dataclasses import dataclass

from games.core.registry import get_game
from pigparlor.tables import broadcast, presence, rendering, services, timing
from pigparlor.tables.models import RUNNING
from tests.support.tables import make_user, step_clock, table

# The frozen wall clock (2027-01-15 08:00 UTC): deadlines and times in the pages
# are this plus what the clock skipped ahead.
EPOCH_S = 1_800_000_000.0
PLAYER = "ana"
SOCKET = "golden-ana"  # the channel name of ana's one table socket
STEPS = 5000  # more than any game takes: a game that does not end fails


@dataclass(frozen=True)
class Case:
    """One seeded table: ``seats`` players of ``game``, dealt from ``seed``."""

    game: str
    seats: int
    seed: int

    @property
    def name(self) -> str:
        return f"{self.game}-{self.seats}-seats-seed-{self.seed}"

    @property
    def viewers(self) -> list[int | None]:
        return [*range(self.seats), None]


def viewer_name(viewer: int | None) -> str:
    return "spectator" if viewer is None else f"seat {viewer}"


def quiet_tables(monkeypatch) -> None:
    """The tables' wall clock (``timing.epoch_ms``) stands at ``EPOCH_S`` until skipped
    ahead; and no channel layer, as no socket listens (each commit's announcement would
    start a thread to reach the layer: a sixth of a game's time)."""
    monkeypatch.setattr(timing, "time", types.SimpleNamespace(time=lambda: EPOCH_S))
    monkeypatch.setattr(timing, "_skipped_ms", 0)
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: None)


def digest(text: str, chars: int) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:chars]


def canonical(value) -> str:
    """JSON with sorted keys and no spaces (games.core.replay.canonical_json's rule)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


# A static file's hashed name (pigparlor/static_files.py: ``css/snout.5568f814a2f7.css``)
# changes with the file's content, which these records do not pin: the name stays.
HASHED_STATIC = re.compile(r"(/static/[^\"'\s#?]*?)\.[0-9a-f]{12}(\.[A-Za-z0-9]+)")
SPACE = re.compile(r"\s+")
BETWEEN_TAGS = re.compile(r">\s+<")


def normalise_html(html: str) -> str:
    """An element's HTML with whitespace normalised (runs of white space are one
    space; none between two tags, none at the ends) and static files by their
    plain names. Nothing else: text, attributes and cards stay as sent."""
    html = HASHED_STATIC.sub(r"\1\2", html)
    return BETWEEN_TAGS.sub("><", SPACE.sub(" ", html)).strip()


PART_CHARS = 8  # an element's or a frame's digest: enough to see that it changed
PREVIEW = 300  # how much of today's HTML or frame a failure shows


@dataclass
class Sent:
    """What every viewer is sent at one version (the latest snapshot at that version), as digests."""

    version: int
    state: dict  # ENGINE.dump of the table's state
    parts: dict  # viewer -> {element id: digest of its normalised HTML}
    frames: dict  # viewer -> digest of the JSON API's state frame (canonical JSON)


class Digests:
    """Each text's digest, and the start of it for a failure to show. Most of a
    version's parts are the same HTML as at the version before: each distinct
    text is normalised and digested once."""

    def __init__(self):
        self.previews: dict[str, str] = {}  # digest -> the text's start
        self._html: dict[str, str] = {}  # HTML as rendered -> digest

    def of_text(self, text: str) -> str:
        key = digest(text, PART_CHARS)
        self.previews.setdefault(key, text[:PREVIEW])
        return key

    def of_html(self, html: str) -> str:
        key = self._html.get(html)
        if key is None:
            key = self._html[html] = self.of_text(normalise_html(html))
        return key


def sent_at(table_id: int, viewers, digests: Digests) -> Sent:
    """Rendered as the table sockets render: the table's snapshot (``load_snapshot``, primed
    by the commit's announcement when it can be), ``html_parts`` for a browser seat and
    ``json_state`` for a JSON API seat."""
    snapshot = rendering.load_snapshot(table_id)
    return Sent(
        version=snapshot.table.version, state=snapshot.table.state,
        parts={viewer: {element: digests.of_html(html) for element, html in rendering.html_parts(snapshot, viewer).items()}
               for viewer in viewers},
        frames={viewer: digests.of_text(canonical(rendering.json_state(snapshot, viewer))) for viewer in viewers})


def her_move(game, current, state) -> tuple[int, dict] | None:
    """When (epoch ms) and what ana plays next, if anything: what the game's sensible bot
    would, with its think time, counted from the version's commit as a bot's is
    (pigparlor.tables.botdriver). Nothing once a stand-in bot plays her seat."""
    engine = game.engine
    if rendering.seats_at(current)[0].replaced:
        return None
    legal = engine.legal_actions(state, 0)
    if not legal:
        return None
    bot, view = game.bots["sensible"], engine.view(state, 0)
    rng = random.Random(f"golden:{current.version}")
    action = bot.choose(view, legal, rng)
    if action is None:
        return None
    think = bot.delay_ms(view, action, timing.to_engine_ms(current, current.changed_at_ms), rng)
    return current.changed_at_ms + max(0, think), action


def play(case: Case, digests: Digests) -> tuple[int, list[Sent]]:
    """Play ``case`` to its end: the table's id, and what was sent at each version, in order."""
    ana = make_user(PLAYER)
    created = services.create_table(host=ana, game=case.game, seats=case.seats, bots=case.seats - 1,
                                     seed=case.seed)
    game = get_game(case.game)
    presence.open_socket(created.pk, ana, SOCKET)
    sent: list[Sent] = []
    try:
        seen = None
        for _ in range(STEPS):
            current = table(created.pk)
            if (current.version, current.seats_rev) != seen:  # the latest snapshot of each version
                if sent and sent[-1].version == current.version:
                    sent.pop()
                sent.append(sent_at(created.pk, case.viewers, digests))
                seen = (current.version, current.seats_rev)
            if current.status != RUNNING:
                return created.pk, sent
            mine = her_move(game, current, game.engine.load(current.state))
            if mine is not None and (current.wake_at_ms is None or mine[0] < current.wake_at_ms):
                due, action = mine
                timing.skip_ahead(due - timing.epoch_ms())
                services.act(created.pk, 0, action, current.version, user=ana)
            else:
                assert step_clock(created.pk), f"{case.name}: nobody can move at version {current.version}"
        raise AssertionError(f"{case.name}: not over after {STEPS} steps")
    finally:
        presence.close_socket(created.pk, SOCKET)
