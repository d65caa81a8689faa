"""The Pig Pile state: one frozen dataclass of tuples and ints, and its JSON form.

Where the 80 cards are is the whole game: every card id sits in exactly one of
``hands``, ``face_up``, ``slop``, ``draw``, ``pile`` or ``washed``. The draw
pile's top is its first card; the pig pile's top is its last card.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from games.core import Rng

ROUNDS = 5
PEN = 40
LOG_KEEP = 30


class Phase(str, Enum):
    CHOOSE = "choose"  # PP1: everyone picks 3 face-up cards at once
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True)
class LastRound:
    """What the round just ended handed out (pigs) and how many cards each seat still held."""

    pigs: tuple[int, ...]
    cards: tuple[int, ...]
    out: tuple[int, ...]


@dataclass(frozen=True)
class PigPileState:
    seats: int
    greased_pig_start: bool
    three_player_last_gets_one: bool
    turn_seconds: int
    rng: Rng
    phase: Phase
    round: int
    dealer: int
    hands: tuple[tuple[int, ...], ...]
    face_up: tuple[tuple[int, ...], ...]  # in the CHOOSE phase: the choice made so far (or ())
    slop: tuple[tuple[int, ...], ...]
    draw: tuple[int, ...]
    pile: tuple[int, ...]
    washed: tuple[int, ...]
    direction: int  # 1 = clockwise (to the left), -1 after an odd number of Ewe-Turns
    turn: int
    out: tuple[int, ...]  # seats gone out this round, first first
    pigs: tuple[int, ...]
    pen: int
    last_round: LastRound | None
    began_ms: int  # when the current turn (or the CHOOSE phase) began: the timer counts from here
    log: tuple[tuple[int, int | None, str], ...]  # the last LOG_KEEP events (n, seat, text)
    log_count: int


def evolve(state: PigPileState, **changes) -> PigPileState:
    """``dataclasses.replace`` without re-running ``__init__``: a new frozen state sharing the
    unchanged fields. The rules derive a new state several times per action, and
    ``replace`` was the largest single cost of a playout (profiled)."""
    new = object.__new__(PigPileState)
    fields = new.__dict__
    fields.update(state.__dict__)
    fields.update(changes)
    return new


def set_seat(rows: tuple, seat: int, value) -> tuple:
    """``rows`` (one entry per seat) with ``seat``'s entry replaced."""
    return (*rows[:seat], value, *rows[seat + 1:])


def with_event(state: PigPileState, seat: int | None, text: str) -> PigPileState:
    """``state`` with one more log event (keeps the last LOG_KEEP)."""
    n = state.log_count + 1
    return evolve(state, log=(*state.log[-(LOG_KEEP - 1):], (n, seat, text)), log_count=n)


def cards_held(state: PigPileState, seat: int) -> int:
    """Hand + face-up + Slop: what PP17 counts at the end of a round."""
    return len(state.hands[seat]) + len(state.face_up[seat]) + len(state.slop[seat])


def _tuples(rows) -> tuple:
    return tuple(tuple(row) for row in rows)


def dump_state(state: PigPileState) -> dict:
    last = state.last_round
    return {
        "seats": state.seats,
        "greased_pig_start": state.greased_pig_start,
        "three_player_last_gets_one": state.three_player_last_gets_one,
        "turn_seconds": state.turn_seconds,
        "rng": state.rng.state,
        "phase": state.phase.value,
        "round": state.round,
        "dealer": state.dealer,
        "hands": [list(hand) for hand in state.hands],
        "face_up": [list(cards) for cards in state.face_up],
        "slop": [list(cards) for cards in state.slop],
        "draw": list(state.draw),
        "pile": list(state.pile),
        "washed": list(state.washed),
        "direction": state.direction,
        "turn": state.turn,
        "out": list(state.out),
        "pigs": list(state.pigs),
        "pen": state.pen,
        "last_round": None if last is None else {
            "pigs": list(last.pigs), "cards": list(last.cards), "out": list(last.out)},
        "began_ms": state.began_ms,
        "log": [list(event) for event in state.log],
        "log_count": state.log_count,
    }


def load_state(data: dict) -> PigPileState:
    last = data["last_round"]
    return PigPileState(
        seats=data["seats"],
        greased_pig_start=data["greased_pig_start"],
        three_player_last_gets_one=data["three_player_last_gets_one"],
        turn_seconds=data["turn_seconds"],
        rng=Rng(data["rng"]),
        phase=Phase(data["phase"]),
        round=data["round"],
        dealer=data["dealer"],
        hands=_tuples(data["hands"]),
        face_up=_tuples(data["face_up"]),
        slop=_tuples(data["slop"]),
        draw=tuple(data["draw"]),
        pile=tuple(data["pile"]),
        washed=tuple(data["washed"]),
        direction=data["direction"],
        turn=data["turn"],
        out=tuple(data["out"]),
        pigs=tuple(data["pigs"]),
        pen=data["pen"],
        last_round=None if last is None else LastRound(
            pigs=tuple(last["pigs"]), cards=tuple(last["cards"]), out=tuple(last["out"])),
        began_ms=data["began_ms"],
        log=tuple((n, seat, text) for n, seat, text in data["log"]),
        log_count=data["log_count"],
    )
