"""What each seat may see (PG11): stacks, pigs, points, sizes and scored cards are public; hands are private."""
from __future__ import annotations

import re
from functools import cache, lru_cache

from games.piggypiggy.decks import DECKS
from games.piggypiggy.rules import food_total
from games.piggypiggy.state import Phase, State

# Log lines as players read them. The state keeps each line as the rules wrote it when it
# was played: a replay re-derives every version's state and checks it against the digest
# logged then (docs/fairness.md), so new wording for an old line is given here, on the way out.
REWORDED = (
    # A pig taken from a holder whose stack of its food a goat had just emptied.
    (re.compile(r"^(took the \w+ pig \(([^)]+)\) from \{seat:\d+\}), who discards 0 cards\.$"),
     r"\1, who had no \2 cards left."),
    # The line said the target, not the points ("reached 8 points" for 9): the line before has them.
    (re.compile(r"^reached (\d+) points and wins!$"), r"has \1 points or more and wins!"),
)


@lru_cache(maxsize=1024)
def worded(text: str) -> str:
    for pattern, words in REWORDED:
        text = pattern.sub(words, text)
    return text


@cache
def card_faces(deck_key: str) -> tuple[dict, ...]:
    deck = DECKS[deck_key]
    faces = []
    for card, kind in enumerate(deck.cards):
        if kind.is_goat:
            faces.append({"card": card, "goat": True, "food": None, "name": "goat", "colour": None, "amount": 0})
        else:
            assert kind.food is not None
            food = deck.foods[kind.food]
            faces.append({"card": card, "goat": False, "food": food.key, "name": food.name,
                          "colour": food.colour, "amount": kind.amount})
    return tuple(faces)


def card_json(state: State, card: int) -> dict:
    """A card as views show it: its id under "card" plus what the table page draws."""
    return dict(card_faces(state.deck)[card])


def cards_json(state: State, cards) -> list[dict]:
    faces = card_faces(state.deck)
    return [dict(faces[card]) for card in cards]


def hidden_cards(state: State, seat: int | None) -> frozenset[int]:
    """Every hand but the viewer's own, and the whole draw pile."""
    hidden = set(state.draw_pile)
    for other, hand in enumerate(state.hands):
        if other != seat:
            hidden.update(hand)
    return frozenset(hidden)


def whose_turn(state: State) -> int | None:
    if state.phase is Phase.OVER:
        return None
    if state.phase is Phase.INHERIT:
        return state.asked.seat
    return state.current


def build_view(state: State, seat: int | None) -> dict:
    deck = state.the_deck
    foods = [{"food": food.key, "name": food.name, "colour": food.colour} for food in deck.foods]
    prompt = state.prompt
    return {
        "phase": state.phase.value,
        "turn": whose_turn(state),
        "current": state.current,
        "step": None if state.phase is Phase.OVER else 1,
        "turn_number": state.turn,
        "you": seat,
        "deck": {"key": deck.key, "title": deck.title, "stand_in": deck.stand_in},
        "foods": foods,
        "hand": cards_json(state, state.hands[seat]) if seat is not None else None,
        "hand_sizes": [len(hand) for hand in state.hands],
        "stacks": [
            [{"food": deck.foods[food].key, "total": food_total(state, stack), "cards": cards_json(state, stack)}
             for food, stack in enumerate(seat_stacks)]
            for seat_stacks in state.stacks
        ],
        "pigs": [{**foods[food], "holder": holder} for food, holder in enumerate(state.pigs)],
        "points": [{"count": len(pile), "cards": cards_json(state, pile)} for pile in state.points],
        "draw_pile": len(state.draw_pile),
        "discards": len(state.discards),
        "discard_top": card_json(state, state.discards[-1]) if state.discards else None,
        "food_played": state.food_played,
        "prompt": None if prompt is None else {
            "seat": prompt.seat, "food": deck.foods[prompt.food].key, "deadline_ms": prompt.deadline_ms},
        "scored": None if state.scored is None else {
            "seat": state.scored.seat, "cards": cards_json(state, state.scored.cards)},
        "winner": state.winner,
        "ending": state.ending or None,
        "dry_rounds": state.dry_turns // state.seats,  # whole rounds without a point (PG10's drought)
        "log": [{"n": n, "seat": who, "text": worded(text)} for n, who, text in state.events],
    }
