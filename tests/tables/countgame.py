"""A throwaway game for the platform's tests: "count to ten" with hidden hands.

Each seat holds three cards (values 1–3) nobody else sees; on your turn you play
one, adding its value to the total, and draw from a hidden pile. Whoever brings
the total to ten or more wins. With ``turn_seconds`` set, the clock plays your
first card when your time runs out. It knows nothing of the platform.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from games.core import Engine, IllegalAction, Outcome, Rng
from games.core.bots import RandomBot
from games.core.contract import TURN_SECONDS

DECK = tuple(card % 3 + 1 for card in range(24))  # card id -> value
TARGET = 10


@dataclass(frozen=True)
class CountState:
    hands: tuple[tuple[int, ...], ...]
    pile: tuple[int, ...]
    total: int
    turn: int
    turn_started_ms: int
    turn_seconds: int
    winner: int | None
    log: tuple[tuple[int, int | None, str], ...]


class CountEngine(Engine):
    slug = "countgame"
    title = "Count to Ten"
    min_seats = 2
    max_seats = 4
    options = (TURN_SECONDS,)

    def start(self, seats, seed, options=None):
        self.check_seats(seats)
        options = self.clean_options(options)
        deck, _ = Rng.from_seed(seed).shuffled(range(len(DECK)))
        hands = tuple(deck[3 * seat:3 * seat + 3] for seat in range(seats))
        return CountState(hands, deck[3 * seats:], 0, 0, 0, options["turn_seconds"], None, ())

    def legal_actions(self, state, seat):
        if state.winner is not None or seat != state.turn:
            return []
        return [{"type": "play", "card": card} for card in state.hands[seat]]

    def apply(self, state, seat, action, now_ms):
        if state.winner is not None:
            raise IllegalAction("the game is over")
        if seat is None:
            if action.get("type") != "clock" or self.next_deadline(state) is None or now_ms < self.next_deadline(state):
                raise IllegalAction("the clock has nothing to do")
            return self._play(state, state.turn, state.hands[state.turn][0], now_ms, "ran out of time and played")
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("you cannot play that now")
        return self._play(state, seat, action["card"], now_ms, "played")

    def _play(self, state, seat, card, now_ms, verb):
        hand = tuple(c for c in state.hands[seat] if c != card) + state.pile[:1]
        total = state.total + DECK[card]
        winner = seat if total >= TARGET else None
        event = (len(state.log), seat, f"{verb} a {DECK[card]} — total {total}")
        return dataclasses.replace(
            state, hands=state.hands[:seat] + (hand,) + state.hands[seat + 1:], pile=state.pile[1:], total=total,
            turn=(seat + 1) % len(state.hands), turn_started_ms=now_ms, winner=winner,
            log=(state.log + (event,))[-30:])

    def view(self, state, seat):
        return {
            "phase": "over" if state.winner is not None else "play",
            "turn": None if state.winner is not None else state.turn,
            "total": state.total,
            "hand": [{"card": card, "value": DECK[card]} for card in state.hands[seat]] if seat is not None else [],
            "hand_sizes": [len(hand) for hand in state.hands],
            "pile_size": len(state.pile),
            "log": [{"n": n, "seat": who, "text": text} for n, who, text in state.log],
        }

    def next_deadline(self, state):
        if state.winner is not None or not state.turn_seconds:
            return None
        return state.turn_started_ms + 1000 * state.turn_seconds

    def clock_plays_for(self, state):
        return frozenset() if state.winner is not None else frozenset({state.turn})

    def outcome(self, state):
        if state.winner is None:
            return None
        scores = tuple(1 if seat == state.winner else 0 for seat in range(len(state.hands)))
        return Outcome(tuple(1 if score else 2 for score in scores), scores)

    def hidden_cards(self, state, seat):
        hidden = set(state.pile)
        for index, hand in enumerate(state.hands):
            if index != seat:
                hidden.update(hand)
        return frozenset(hidden)

    def dump(self, state):
        return {**dataclasses.asdict(state), "log": [list(event) for event in state.log]}

    def load(self, data):
        return CountState(
            hands=tuple(tuple(hand) for hand in data["hands"]), pile=tuple(data["pile"]), total=data["total"],
            turn=data["turn"], turn_started_ms=data["turn_started_ms"], turn_seconds=data["turn_seconds"],
            winner=data["winner"], log=tuple(tuple(event) for event in data["log"]))


ENGINE = CountEngine()
BOTS = {"random": RandomBot(), "sensible": RandomBot()}
