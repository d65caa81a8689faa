"""The engine contract (see ``shared/design.md``).

Time: every ``now_ms`` an engine sees is milliseconds since the table started;
``start`` is time 0. The platform converts wall-clock time before calling, so
a game replays exactly from its seed and its logged ``(seat, action, now_ms)``.

Views: ``view(state, seat)`` is the only way state leaves the server. By
convention every view carries ``"log"``, the most recent events (newest last),
each ``{"n": int, "seat": int | None, "text": str}``; the platform prefixes
the seat's player name ("Ana" + " played two 5s — Hog Wash!"). ``n`` grows by
one per event over the whole game so clients can announce only new ones.

Cards: every card a view shows is an object carrying its unique id under the
key ``"card"`` (an int index into the game's deck table), and HTML renders it
with ``data-card="<id>"``. ``hidden_cards(state, viewer)`` names the ids that
viewer may not see; the contract tests and the transport leak test check that
no view or frame for that viewer ever carries one of them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

# Each game's state is its own frozen dataclass (OinkState, SnoutState…): an engine is an
# ``Engine[ItsState]``, and the platform, which only passes states back to their engine,
# holds an ``Engine[Any]``.
StateT = TypeVar("StateT")
State = Any  # a state the caller does not look inside


class IllegalAction(Exception):
    """An action the rules refuse. ``reason`` is shown to the player."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def same_json(a, b) -> bool:
    """Equal as JSON values. Python's ``==`` calls ``1``, ``1.0`` and ``true``
    equal; an action must name a legal one exactly, not something that compares
    equal to it."""
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(map(same_json, a, b))
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(a[key], b[key]) for key in a)
    return a == b


def legal_match(action: dict, legal: list[dict]) -> dict | None:
    """The entry of ``legal`` that ``action`` is exactly (``same_json``), or None."""
    return next((candidate for candidate in legal if same_json(action, candidate)), None)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: ``ranks[seat]`` (1 = best, ties share) and ``scores[seat]``."""

    ranks: tuple[int, ...]
    scores: tuple[int | float, ...]

    def as_json(self) -> dict:
        return {"ranks": list(self.ranks), "scores": list(self.scores)}


def ranks_from_scores(scores, higher_is_better: bool = True) -> tuple[int, ...]:
    """Competition ranking ("1224"): equal scores share the place."""
    sign = -1 if higher_is_better else 1
    return tuple(1 + sum(1 for other in scores if sign * other < sign * mine) for mine in scores)


@dataclass(frozen=True)
class Progress:
    """How far a game has got, for the platform's words ("round 3 of 5", "turn 7") and the
    replay's round marks: the round (1 = the first) and how many rounds the game plays, the
    score that ends it (``target``) and the leading score, and for a game without rounds the
    turn (1 = the first). Each is None where the game has no such thing."""

    round: int | None = None
    rounds: int | None = None
    target: int | None = None
    leading: int | float | None = None
    turn_number: int | None = None


@dataclass(frozen=True)
class Option:
    """One table option a game declares, as data the lobby renders into a form.

    ``kind`` is "bool", "int" or "choice". ``turn_seconds`` is the shared name
    for a turn timer (0 = no timer, which only a private table may choose).
    ``label``, ``help`` and ``choice_labels`` (one per choice, in order) are what
    players read: in their words, never a ruling id or an internal name.
    """

    name: str
    kind: str
    default: Any
    label: str
    help: str = ""
    choices: tuple[str, ...] = ()
    choice_labels: tuple[str, ...] = ()
    min: int | None = None
    max: int | None = None

    def __post_init__(self):
        if self.choice_labels and len(self.choice_labels) != len(self.choices):
            raise ValueError(f"option {self.name}: one label per choice")

    def labelled_choices(self) -> list[tuple[str, str]]:
        """``(choice, what players read)`` pairs, for a form's select."""
        labels = self.choice_labels or tuple(choice.replace("_", " ") for choice in self.choices)
        return list(zip(self.choices, labels))

    def clean(self, value: Any) -> Any:
        """``value`` if it has exactly this option's type; nothing is coerced
        (``"false"`` is not false, ``3.9`` is not 3, ``Infinity`` is no number)."""
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise IllegalAction(f"option {self.name} must be true or false")
            return value
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise IllegalAction(f"option {self.name} must be a whole number")
            if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
                raise IllegalAction(f"option {self.name} must be between {self.min} and {self.max}")
            return value
        if self.kind == "choice":
            if not isinstance(value, str) or value not in self.choices:
                raise IllegalAction(f"option {self.name} must be one of {', '.join(self.choices)}")
            return value
        raise ValueError(f"unknown option kind {self.kind}")


UNTIMED_LIMIT_SECONDS = 120
"""At a table without a turn timer (``turn_seconds`` 0, private tables only) a player who does
nothing is still played for after this long: no live table waits for ever on one person."""

TURN_SECONDS = Option(
    "turn_seconds", "int", 30, "Turn timer (seconds)", min=0, max=600,
    help="When a player's time runs out the game plays for them. 0 = no timer, for private tables "
         f"only: a player who does nothing for {UNTIMED_LIMIT_SECONDS // 60} minutes is still played for.",
)


def turn_limit_ms(turn_seconds: int) -> int:
    """How long a player may take over a move: the turn timer, or UNTIMED_LIMIT_SECONDS without one."""
    return (turn_seconds or UNTIMED_LIMIT_SECONDS) * 1000


class Engine(Generic[StateT]):
    """Base class of every game's engine. Subclasses set the metadata (class
    attributes) and implement the methods; each game module exposes one
    instance as ``ENGINE``.

    ``options`` declares the table options; ``clean_options`` fills defaults and
    rejects unknown or bad values with ``IllegalAction`` before ``start``.
    """

    slug: str = ""
    title: str = ""
    min_seats: int = 2
    max_seats: int = 6
    options: tuple[Option, ...] = ()
    # Real-time games (Oink!) get the sender's measured round trip added to
    # every action that arrives over a socket, as "rtt_ms" (server-measured,
    # never the client's word). Turn-based games never see that key.
    realtime: bool = False
    # What the page says above the board when no one seat is to move (the view's
    # "turn" is None): the view's "phase" in a player's words, e.g. "Everyone chooses
    # face-up cards". A phase not listed reads "Everyone plays".
    phase_names: dict[str, str] = {}

    def clean_options(self, options: dict | None) -> dict:
        options = dict(options or {})
        known = {option.name: option for option in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise IllegalAction(f"unknown option {unknown[0]}")
        return {name: option.clean(options.get(name, option.default)) for name, option in known.items()}

    def check_seats(self, seats: int) -> None:
        if not isinstance(seats, int) or isinstance(seats, bool) or not self.min_seats <= seats <= self.max_seats:
            raise IllegalAction(f"{self.title} takes {self.min_seats} to {self.max_seats} players")

    # -- the contract -----------------------------------------------------
    def start(self, seats: int, seed: int, options: dict | None = None) -> StateT:
        raise NotImplementedError

    def legal_actions(self, state: StateT, seat: int) -> list[dict]:
        raise NotImplementedError

    def apply(self, state: StateT, seat: int | None, action: dict, now_ms: int) -> StateT:
        raise NotImplementedError

    def view(self, state: StateT, seat: int | None) -> dict:
        raise NotImplementedError

    def next_deadline(self, state: StateT) -> int | None:
        raise NotImplementedError

    def outcome(self, state: StateT) -> Outcome | None:
        raise NotImplementedError

    def clock_plays_for(self, state: StateT) -> frozenset[int]:
        """The seats whose own move the clock makes when it acts on this state: their
        time ran out (a missed turn, a choice not made). Empty when the clock's move
        only moves the game along (a pause ends, a window closes) and nobody missed
        anything. The platform counts these as the seats' timeouts."""
        raise NotImplementedError

    def hidden_cards(self, state: StateT, seat: int | None) -> frozenset[int]:
        """Ids of the cards ``seat`` (None = spectator) may not see now."""
        raise NotImplementedError

    def progress(self, state: StateT) -> Progress:
        """How far the game has got (``Progress``). The platform asks this, never a view's
        keys; a game that tells nothing keeps this default."""
        return Progress()

    def dump(self, state: StateT) -> dict:
        raise NotImplementedError

    def load(self, data: dict) -> StateT:
        raise NotImplementedError
