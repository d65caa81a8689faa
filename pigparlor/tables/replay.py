"""A finished table, replayed from its seed and its action log by the engine itself.

Nothing per version is stored: ``rebuild`` starts the engine from the table's
deal seed (games.core.replay) and applies every logged action at its logged
time, so each version's state is the engine's own answer. Everything that ever
changed a table's state went through ``services.act`` and is in the log — the
players' moves, the bots' (a stand-in bot at a player's seat acts with no
user), and the clock's timeouts (seat None); seat hand-overs change who
moves, never the state. ``verify`` checks the result against what the table
recorded. Only a table that is over may be replayed: a running one's seed and
hidden cards stay on the server.
"""
from __future__ import annotations

import json
from bisect import bisect_left
from dataclasses import dataclass
from functools import cached_property

from games.core import IllegalAction
from games.core.registry import get_game
from games.core.replay import commitment, state_digest, states
from pigparlor.moderation.permissions import is_moderator
from pigparlor.tables.errors import FORBIDDEN, ILLEGAL, NOT_FOUND, TableError
from pigparlor.tables.models import ABORTED, FINISHED, ActionLog, Table
from pigparlor.tables.rendering import Lru

OVER = (FINISHED, ABORTED)
CACHE = Lru(16)


@dataclass(frozen=True)
class Step:
    """One logged action: ``at_ms`` in the engine's clock (ms since the start);
    ``by_user`` False for the platform's own moves (the clock, a bot)."""

    version: int
    seat: int | None
    action: dict
    at_ms: int
    by_user: bool
    # games.core.replay.state_digest of the state it made, as logged ("" on older rows);
    # not in the replay document (as_json).
    state_sha: str = ""

    def as_json(self) -> dict:
        return {"version": self.version, "seat": self.seat, "action": self.action, "at_ms": self.at_ms}


@dataclass(frozen=True)
class Replay:
    table: Table
    steps: tuple[Step, ...]  # versions 2 … last
    states: tuple  # states[i] is version i + 1

    @property
    def engine(self):
        return get_game(self.table.game).engine

    @property
    def last(self) -> int:
        return len(self.states)

    def state(self, version: int):
        return self.states[version - 1]

    def step(self, version: int) -> Step | None:
        """The action that made ``version`` (None for version 1, the deal)."""
        return self.steps[version - 2] if version >= 2 else None

    def events(self, before: int, version: int) -> list[dict]:
        """The game's log lines (the spectator's view's) written after ``before`` up to ``version``."""
        seen = max((event["n"] for event in self.engine.view(self.state(before), None).get("log", ())), default=-1)
        return [event for event in self.engine.view(self.state(version), None).get("log", ()) if event["n"] > seen]

    @cached_property
    def moments(self) -> tuple[int, ...]:
        """The versions the replay steps through: the deal, then each action's, except that a
        clock tick which wrote nothing in the log (Oink!'s pause between flips ending) is folded
        into the moment before it, whose last version it becomes."""
        moments = [1]
        for version in range(2, self.last + 1):
            if self.steps[version - 2].seat is None and not self.events(version - 1, version):
                moments[-1] = version
            else:
                moments.append(version)
        return tuple(moments)

    def moment_of(self, version: int) -> int:
        """The index in ``moments`` of the moment ``version`` belongs to."""
        return bisect_left(self.moments, max(1, min(version, self.last)))

    def round_starts(self) -> list[int]:
        """The moments (indexes in ``moments``) at which a new round (or, for games without
        rounds, a new turn) begins, by the engine's ``progress``: its round, else its turn."""
        starts, previous = [], object()
        for version, state in enumerate(self.states, start=1):
            found = self.engine.progress(state)
            mark = found.turn_number if found.round is None else found.round
            if mark != previous and self.moment_of(version) not in starts:
                starts.append(self.moment_of(version))
            previous = mark
        return starts


class ReplayBroken(Exception):
    """The log does not replay: an action the engine refuses, or a gap."""


def refuse_unless_over(table: Table | None) -> Table:
    """The table, if a replay of it may be shown at all (404 / 409, docs/api.md)."""
    if table is None:
        raise TableError(NOT_FOUND, "no such table")
    if table.status not in OVER:
        raise TableError(ILLEGAL, "this table is still being played: its replay and seed are shown once it is over")
    if table.state is None:
        raise TableError(ILLEGAL, "this table never started: there is nothing to replay")
    return table


def may_watch(table: Table, user) -> bool:
    """Anyone may replay a public table; a private one only its players and moderators."""
    if not table.private:
        return True
    if user is None or not user.is_authenticated:
        return False
    return is_moderator(user) or table.seat_set.filter(user=user).exists()


def replay_for(table_id, user) -> Replay:
    """The replay ``user`` may see, or the refusal (404 unknown, 403 private, 409 not over)."""
    table = Table.objects.filter(pk=table_id).first() if isinstance(table_id, int) else None
    if table is None:
        raise TableError(NOT_FOUND, "no such table")
    if not may_watch(table, user):
        raise TableError(FORBIDDEN, "this table is private: only its players may replay it")
    refuse_unless_over(table)
    return rebuild(table)


def logged_steps(table: Table) -> tuple[Step, ...]:
    rows = ActionLog.objects.filter(table=table).order_by("version").values_list(
        "version", "seat", "action", "at_ms", "user_id", "state_sha")
    return tuple(Step(version, seat, action, at_ms - table.started_at_ms, user_id is not None, state_sha)
                 for version, seat, action, at_ms, user_id, state_sha in rows)


def rebuild(table: Table, *, cached: bool = True) -> Replay:
    """Every version's state, from the deal seed and the log (kept in a small
    per-process cache for finished tables unless ``cached`` is False)."""
    key = (table.pk, table.version, table.seed)  # the seed too: a test database reuses ids
    hit = CACHE.get(key) if cached and table.status in OVER else None
    if hit is not None:
        return hit
    steps = logged_steps(table)
    expected = list(range(2, len(steps) + 2))
    if [step.version for step in steps] != expected:
        raise ReplayBroken(f"the log of table {table.pk} has a gap or a duplicate version")
    engine = get_game(table.game).engine
    built = []
    try:
        for state in states(engine, table.seats, table.deal_seed, table.options,
                            [step.as_json() for step in steps]):
            built.append(state)
    except IllegalAction as refusal:
        bad = steps[len(built) - 1]
        raise ReplayBroken(f"version {bad.version}: the engine refuses seat {bad.seat}'s "
                           f"{bad.action} at {bad.at_ms} ms: {refusal.reason}") from None
    replay = Replay(table, steps, tuple(built))
    return CACHE.put(key, replay) if table.status in OVER else replay


def document(replay: Replay) -> dict:
    """The replay as the JSON API gives it (docs/api.md)."""
    table = replay.table
    seats = list(table.seat_set.select_related("user").order_by("index"))
    return {
        "id": table.pk, "game": table.game, "status": table.status,
        "seats": [{"index": seat.index, "user": seat.user.get_username() if seat.user else None,
                   "bot": seat.bot_kind or None} for seat in seats],
        "options": table.options, "seed": table.seed, "commitment": table.commitment,
        "salts": list(table.salts or ()), "deal_seed": table.deal_seed,
        "started_at_ms": table.started_at_ms,
        "actions": [step.as_json() for step in replay.steps],
        "outcome": table.outcome,
    }


def as_stored(dumped: dict) -> dict:
    """An engine's dump as the database's JSON column gives it back (tuples become lists)."""
    return json.loads(json.dumps(dumped))


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str


def _steps_check(replay: Replay) -> Check:
    """Every version the replay passes through is the state that was played then: the
    digest logged with each action (``Step.state_sha``). A changed move that ends in
    the very same final state still leaves the game played here."""
    logged = [step for step in replay.steps if step.state_sha]
    if not logged:
        return Check("steps", True, "no per-version digests were logged (a table from before they were)")
    engine = replay.engine
    for step in logged:
        if state_digest(engine.dump(replay.state(step.version))) != step.state_sha:
            return Check("steps", False, f"version {step.version}: the replayed state differs from the state "
                                         f"played then (seat {step.seat}'s {step.action})")
    return Check("steps", True, f"all {len(logged)} logged versions match the states played then")


def verify(table: Table) -> list[Check]:
    """Re-run the deal and the log; every check must hold. Never raises for a bad log:
    a broken replay is a failed check, said plainly."""
    checks = [Check("commitment", commitment(table.seed) == table.commitment,
                    f"sha256({table.seed}) = {commitment(table.seed)}; shown at the start: {table.commitment}")]
    try:
        replay = rebuild(table, cached=False)
    except ReplayBroken as broken:
        return [*checks, Check("replay", False, str(broken))]
    engine = replay.engine
    final = replay.states[-1]
    checks.append(Check("replay", True, f"{len(replay.steps)} logged actions replay from the deal seed "
                                        f"{table.deal_seed} to version {replay.last}"))
    checks.append(_steps_check(replay))
    checks.append(Check("version", replay.last == table.version,
                        f"the replay ends at version {replay.last}; the table is at version {table.version}"))
    same_state = as_stored(engine.dump(final)) == table.state
    checks.append(Check("state", same_state, "the replay's final state is the recorded state" if same_state
                        else "the replay's final state differs from the recorded state"))
    outcome = engine.outcome(final)
    replayed = outcome.as_json() if outcome is not None else None
    recorded = {key: table.outcome[key] for key in ("ranks", "scores")} if table.outcome else None
    checks.append(Check("outcome", replayed == recorded,
                        f"replayed outcome {replayed}; recorded {recorded}"))
    return checks

