"""The Piggy Piggy table state and its lossless JSON form.

Everything is tuples and ints (style.md habit 2); seats are 0..n-1, foods are
indexes into the deck's ``foods``, cards are ids into the deck's table.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from games.core import Rng
from games.piggypiggy.decks import DECKS, Deck

HAND_SIZE = 5
WIN_POINTS = 8
LOG_LENGTH = 30
# PG5's prompt must time out even without a turn timer, or the inheritor could stall the table.
PROMPT_SECONDS = 20
# Our decision (PG10): this many whole rounds in a row without a point end the game on points.
DROUGHT_ROUNDS = 10


class Phase(str, Enum):
    PLAY = "play"        # step 1: the current player plays food and goats, then ends the step
    INHERIT = "inherit"  # PG5: a player who just took a pig by a goat may add matching cards
    OVER = "over"


@dataclass(frozen=True)
class Prompt:
    """PG5's question to ``seat``: add matching ``food`` cards to the stack that just took its pig?"""

    seat: int
    food: int
    started_ms: int
    deadline_ms: int


@dataclass(frozen=True)
class Scored:
    """The cards a player scored in their last step 4, shown to everyone (PG8, PG11)."""

    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True)
class State:
    deck: str
    turn_seconds: int
    rng: Rng
    hands: tuple[tuple[int, ...], ...]
    stacks: tuple[tuple[tuple[int, ...], ...], ...]  # stacks[seat][food]
    pigs: tuple[int | None, ...]  # pigs[food] = holder seat, None = in the middle
    points: tuple[tuple[int, ...], ...]
    draw_pile: tuple[int, ...]  # top first
    discards: tuple[int, ...]
    current: int
    phase: Phase
    turn: int  # turns begun so far, 1 = the first turn
    food_played: bool
    turn_deadline: int | None
    prompt: Prompt | None = None
    scored: Scored | None = None
    events: tuple[tuple[int, int | None, str], ...] = ()  # the last LOG_LENGTH (n, seat, text)
    event_count: int = 0
    dry_turns: int = 0  # turns in a row in which nobody scored a point (the drought, PG10)
    winner: int | None = None
    ending: str = ""  # why the game ended: "points", "no_point_left" or "drought" (PG10)

    @property
    def asked(self) -> Prompt:
        """The open prompt: only in the INHERIT phase (PG5)."""
        assert self.prompt is not None, "no prompt is open"
        return self.prompt

    @property
    def seats(self) -> int:
        return len(self.hands)

    @property
    def the_deck(self) -> Deck:
        return DECKS[self.deck]


def dump_state(state: State) -> dict:
    return {
        "deck": state.deck,
        "turn_seconds": state.turn_seconds,
        "rng": state.rng.state,
        "hands": [list(hand) for hand in state.hands],
        "stacks": [[list(stack) for stack in seat] for seat in state.stacks],
        "pigs": list(state.pigs),
        "points": [list(pile) for pile in state.points],
        "draw_pile": list(state.draw_pile),
        "discards": list(state.discards),
        "current": state.current,
        "phase": state.phase.value,
        "turn": state.turn,
        "food_played": state.food_played,
        "turn_deadline": state.turn_deadline,
        "prompt": None if state.prompt is None else [
            state.prompt.seat, state.prompt.food, state.prompt.started_ms, state.prompt.deadline_ms],
        "scored": None if state.scored is None else [state.scored.seat, list(state.scored.cards)],
        "events": [list(event) for event in state.events],
        "event_count": state.event_count,
        "dry_turns": state.dry_turns,
        "winner": state.winner,
        "ending": state.ending,
    }


def load_state(data: dict) -> State:
    prompt, scored = data["prompt"], data["scored"]
    return State(
        deck=data["deck"],
        turn_seconds=data["turn_seconds"],
        rng=Rng(data["rng"]),
        hands=tuple(tuple(hand) for hand in data["hands"]),
        stacks=tuple(tuple(tuple(stack) for stack in seat) for seat in data["stacks"]),
        pigs=tuple(data["pigs"]),
        points=tuple(tuple(pile) for pile in data["points"]),
        draw_pile=tuple(data["draw_pile"]),
        discards=tuple(data["discards"]),
        current=data["current"],
        phase=Phase(data["phase"]),
        turn=data["turn"],
        food_played=data["food_played"],
        turn_deadline=data["turn_deadline"],
        prompt=None if prompt is None else Prompt(*prompt),
        scored=None if scored is None else Scored(scored[0], tuple(scored[1])),
        events=tuple((n, seat, text) for n, seat, text in data["events"]),
        event_count=data["event_count"],
        dry_turns=data["dry_turns"],
        winner=data["winner"],
        ending=data["ending"],
    )
