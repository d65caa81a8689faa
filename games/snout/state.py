"""The state of a Snout! table: frozen dataclasses of tuples and ints, and its JSON form.

Seats are 0..n-1 and "left" is the next seat (seat + 1): the deal, the pass,
the draws and the pig all go that way. Hands are kept sorted by card id (so
grouped by position); the Pigsty's top card is at the front; the Pig Pile's
newest card is at the end.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum

from games.core import Rng

LOG_KEEP = 30


class Phase(str, Enum):
    PASS = "pass"                  # S3: everyone secretly picks 3 cards
    TOSS = "toss"                  # S6: the tosser tosses the pig
    SNOUT_WINDOW = "snout_window"  # S10: after a toss, anyone may call Snout
    ROUND_OVER = "round_over"      # S11: every hand is shown with the round's scores
    GAME_OVER = "game_over"        # S9


class Draw(int, Enum):
    """What one seat's draw did during a toss (S4 step 3)."""

    NONE = 0        # had a match, so no draw
    HIDDEN = 1      # drew a card that stays secret in hand
    MATCH = 2       # drew a match and discarded it at once


class End(str, Enum):
    """How a round ended."""

    OUT = "out"                  # S8: hands emptied
    JOWLER = "jowler"            # S7: the Leaning Jowler was tossed and held
    EARLY_SNOUT = "early_snout"  # S10: someone called Snout


@dataclass(frozen=True)
class Toss:
    """The latest toss, public in every view."""

    n: int                      # tosses over the whole game
    seat: int
    pig: int
    discards: tuple[int, ...]   # per seat, cards of the position discarded at once
    draws: tuple[Draw, ...]     # per seat
    reshuffled: bool            # S5: the Pig Pile became the Pigsty during the draws


@dataclass(frozen=True)
class RoundResult:
    """One line of the score sheet, with every hand as it was at the round's end."""

    number: int
    dealer: int
    end: End
    caller: int | None               # S10: who called Snout, if anyone
    winners: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]  # per seat: cards held per position (PIGS order)
    hand_points: tuple[int, ...]
    points: tuple[int, ...]          # what each seat scored this round
    totals: tuple[int, ...]          # running totals after this round


@dataclass(frozen=True)
class SnoutState:
    seats: int
    toss_odds: str
    early_snout: bool
    turn_seconds: int
    rng: Rng
    phase: Phase
    round: int
    dealer: int
    tosser: int
    hands: tuple[tuple[int, ...], ...]
    pigsty: tuple[int, ...]
    pig_pile: tuple[int, ...]
    passes: tuple[tuple[int, ...], ...]  # S3: the cards each seat chose to pass (empty = not yet)
    done: tuple[bool, ...]               # who has played on (S10 window) or is ready (round over)
    deadline: int | None
    scores: tuple[int, ...]
    tosses: int
    last_toss: Toss | None
    results: tuple[RoundResult, ...]
    log: tuple[tuple[int, int | None, str], ...]
    log_n: int


def with_events(state: SnoutState, events) -> SnoutState:
    """``state`` with ``(seat, text)`` events appended to its log (the last 30 kept)."""
    log = list(state.log)
    n = state.log_n
    for seat, text in events:
        n += 1
        log.append((n, seat, text))
    return dataclasses.replace(state, log=tuple(log[-LOG_KEEP:]), log_n=n)


def _tuples(value):
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    return value


def dump(state: SnoutState) -> dict:
    data = {}
    for field in dataclasses.fields(state):
        value = getattr(state, field.name)
        if isinstance(value, Rng):
            value = value.state
        elif isinstance(value, Enum):
            value = value.value
        elif isinstance(value, Toss):
            value = _json(dataclasses.asdict(value))
        elif field.name == "results":
            value = [_json(dataclasses.asdict(result)) for result in value]
        data[field.name] = _json(value)
    return data


def _json(value):
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {key: _json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json(item) for item in value]
    return value


def load(data: dict) -> SnoutState:
    fields = {name: _tuples(value) for name, value in data.items()}
    fields["rng"] = Rng(data["rng"])
    fields["phase"] = Phase(data["phase"])
    if data["last_toss"] is not None:
        toss = {name: _tuples(value) for name, value in data["last_toss"].items()}
        toss["draws"] = tuple(Draw(draw) for draw in toss["draws"])
        fields["last_toss"] = Toss(**toss)
    fields["results"] = tuple(_load_result(result) for result in data["results"])
    return SnoutState(**fields)


def _load_result(data: dict) -> RoundResult:
    fields = {name: _tuples(value) for name, value in data.items()}
    fields["end"] = End(data["end"])
    return RoundResult(**fields)
