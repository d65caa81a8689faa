"""The Oink! state: frozen dataclasses of tuples and ints, and their JSON form."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from games.core import Rng


class Phase(str, Enum):
    WAIT = "wait"        # the reveal gap after a reveal or a verdict: nobody may flip yet (O2)
    FLIP = "flip"        # the flipper may flip; the turn timer runs (O2)
    COLLECT = "collect"  # a slap arrived: the collection window is open (O6)
    OVER = "over"


@dataclass(frozen=True)
class Slap:
    """One slap on the current pile state, kept in arrival order."""

    seat: int
    cry: int
    elapsed_ms: int   # reveal to arrival, on the server's clock
    ranked_ms: int    # the reaction time it is ranked by (O9)
    early: bool       # arrived before its sender could have seen the card (O9)


@dataclass(frozen=True)
class Verdict:
    """How the last collection window was judged (shown to everyone)."""

    pile: int                    # the pile state id the slaps answered
    cry: int | None              # the correct cry, None when nothing was slappable
    slaps: tuple[Slap, ...]      # ranked order
    taker: int | None
    cards: int                   # cards the taker won
    monkeys: tuple[int, ...]     # seats that made the monkey
    penalties: tuple[int, ...]   # seats that put a card under the pile (penalty_card)


@dataclass(frozen=True)
class LogEntry:
    n: int
    seat: int | None
    text: str


@dataclass(frozen=True)
class OinkState:
    seats: int
    penalty_card: bool
    reveal_gap_ms: int
    turn_ms: int
    rng: Rng
    decks: tuple[tuple[int, ...], ...]   # each seat's face-down deck, top first
    won: tuple[tuple[int, ...], ...]     # each seat's winning pile, oldest first
    removed: tuple[int, ...]             # the 2 cards nobody sees with 4 players (O1)
    pile: tuple[int, ...]                # the discard pile, bottom first
    under: int                           # penalty cards at its bottom (O5): never one of the top two
    pile_id: int                         # the pile state id: number of reveals so far (O4)
    revealed_at: int                     # when the top card was revealed
    pile_open: bool                      # slaps on this pile state are still accepted
    slaps: tuple[Slap, ...]              # slaps on this pile state, arrival order
    judged: int                          # how many of them earlier windows already judged
    phase: Phase
    deadline_at: int | None
    phase_since: int
    flipper: int | None                  # who flips next; None once every deck is empty
    round: int
    monkeys: tuple[int, ...]
    verdict: Verdict | None
    log: tuple[LogEntry, ...]
    events: int


def _slap_json(slap: Slap) -> list:
    return [slap.seat, slap.cry, slap.elapsed_ms, slap.ranked_ms, slap.early]


def _slap(data: list) -> Slap:
    seat, cry, elapsed, ranked, early = data
    return Slap(seat, cry, elapsed, ranked, bool(early))


def dump_state(state: OinkState) -> dict:
    verdict = state.verdict
    return {
        "seats": state.seats,
        "penalty_card": state.penalty_card,
        "reveal_gap_ms": state.reveal_gap_ms,
        "turn_ms": state.turn_ms,
        "rng": state.rng.state,
        "decks": [list(deck) for deck in state.decks],
        "won": [list(pile) for pile in state.won],
        "removed": list(state.removed),
        "pile": list(state.pile),
        "under": state.under,
        "pile_id": state.pile_id,
        "revealed_at": state.revealed_at,
        "pile_open": state.pile_open,
        "slaps": [_slap_json(slap) for slap in state.slaps],
        "judged": state.judged,
        "phase": state.phase.value,
        "deadline_at": state.deadline_at,
        "phase_since": state.phase_since,
        "flipper": state.flipper,
        "round": state.round,
        "monkeys": list(state.monkeys),
        "verdict": None if verdict is None else {
            "pile": verdict.pile, "cry": verdict.cry, "slaps": [_slap_json(s) for s in verdict.slaps],
            "taker": verdict.taker, "cards": verdict.cards, "monkeys": list(verdict.monkeys),
            "penalties": list(verdict.penalties),
        },
        "log": [[entry.n, entry.seat, entry.text] for entry in state.log],
        "events": state.events,
    }


def load_state(data: dict) -> OinkState:
    verdict = data["verdict"]
    return OinkState(
        seats=data["seats"],
        penalty_card=data["penalty_card"],
        reveal_gap_ms=data["reveal_gap_ms"],
        turn_ms=data["turn_ms"],
        rng=Rng(data["rng"]),
        decks=tuple(tuple(deck) for deck in data["decks"]),
        won=tuple(tuple(pile) for pile in data["won"]),
        removed=tuple(data["removed"]),
        pile=tuple(data["pile"]),
        under=data["under"],
        pile_id=data["pile_id"],
        revealed_at=data["revealed_at"],
        pile_open=data["pile_open"],
        slaps=tuple(_slap(s) for s in data["slaps"]),
        judged=data["judged"],
        phase=Phase(data["phase"]),
        deadline_at=data["deadline_at"],
        phase_since=data["phase_since"],
        flipper=data["flipper"],
        round=data["round"],
        monkeys=tuple(data["monkeys"]),
        verdict=None if verdict is None else Verdict(
            pile=verdict["pile"], cry=verdict["cry"], slaps=tuple(_slap(s) for s in verdict["slaps"]),
            taker=verdict["taker"], cards=verdict["cards"], monkeys=tuple(verdict["monkeys"]),
            penalties=tuple(verdict["penalties"]),
        ),
        log=tuple(LogEntry(n, seat, text) for n, seat, text in data["log"]),
        events=data["events"],
    )
