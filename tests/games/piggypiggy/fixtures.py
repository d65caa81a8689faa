"""Compact positions for the Piggy Piggy rule tests.

A card is written as its food's initial and its amount — ``T2`` is a tacos
card showing 2 tacos, ``I1`` one ice cream — and ``G`` is a goat. Each token
takes the lowest unused card id of that kind from the deck, so a position
names real cards and every card of the deck ends up somewhere.
"""
from __future__ import annotations

from collections import defaultdict

from games.core import Rng
from games.core.contract import turn_limit_ms
from games.piggypiggy.decks import DECKS
from games.piggypiggy.engine import ENGINE
from games.piggypiggy.state import Phase, State


def letter(deck, food: int) -> str:
    return deck.foods[food].key[0].upper()


def token(deck, card: int) -> str:
    kind = deck.cards[card]
    return "G" if kind.is_goat else f"{letter(deck, kind.food)}{kind.amount}"


class Pool:
    def __init__(self, deck):
        self.deck = deck
        self.free = defaultdict(list)
        for card in range(len(deck.cards)):
            self.free[token(deck, card)].append(card)

    def take(self, spec: str) -> tuple[int, ...]:
        cards = []
        for name in spec.split():
            if not self.free[name]:
                raise ValueError(f"no {name} card left in the {self.deck.key} deck")
            cards.append(self.free[name].pop(0))
        return tuple(cards)

    def take_any(self, count: int) -> tuple[int, ...]:
        """``count`` food cards of whatever kind is left (for points piles)."""
        names = [name for name, cards in self.free.items() for _ in cards if name != "G"]
        return self.take(" ".join(names[:count]))

    def rest(self) -> tuple[int, ...]:
        return tuple(sorted(card for cards in self.free.values() for card in cards))


def table(hands, stacks=None, pigs=None, points=None, draw="", rest="draw", discards="", current=0,
          deck="stand-in", turn_seconds=0, food_played=False, seed=1) -> State:
    """A position at the start of ``current``'s step 1.

    ``stacks`` gives each seat's face-up food as tokens; ``pigs`` maps a food
    initial to its holder; ``points`` gives each seat's points pile as tokens
    or a count; ``draw`` is the top of the draw pile, and the unused cards go
    to the bottom of the draw pile (``rest="draw"``), to the discards
    (``"discards"``) or out of the game (``"out"``, for draw tests only).
    """
    the_deck = DECKS[deck]
    pool = Pool(the_deck)
    seats = len(hands)
    hand_cards = tuple(pool.take(hand) for hand in hands)
    stack_cards = []
    for spec in stacks or ("",) * seats:
        cards = pool.take(spec)
        stack_cards.append(tuple(tuple(card for card in cards if the_deck.cards[card].food == food)
                                 for food in range(len(the_deck.foods))))
    point_specs = points or ("",) * seats
    named_points = [pool.take(spec) if isinstance(spec, str) else None for spec in point_specs]
    draw_pile = pool.take(draw)
    discard_pile = pool.take(discards)
    point_cards = tuple(cards if cards is not None else pool.take_any(spec)
                        for cards, spec in zip(named_points, point_specs))
    left = pool.rest()
    if rest == "draw":
        draw_pile += left
    elif rest == "discards":
        discard_pile += left
    holders = [None] * len(the_deck.foods)
    for initial, seat in (pigs or {}).items():
        holders[next(food for food in range(len(the_deck.foods)) if letter(the_deck, food) == initial)] = seat
    return State(
        deck=deck, turn_seconds=turn_seconds, rng=Rng.from_seed(seed), hands=hand_cards,
        stacks=tuple(stack_cards), pigs=tuple(holders), points=point_cards, draw_pile=draw_pile,
        discards=discard_pile, current=current, phase=Phase.PLAY, turn=1, food_played=food_played,
        turn_deadline=turn_limit_ms(turn_seconds),
    )


def tokens(state: State, cards) -> str:
    """Cards as sorted tokens, e.g. ``"D3 G T1"``."""
    return " ".join(sorted(token(state.the_deck, card) for card in cards))


def hand(state: State, seat: int) -> str:
    return tokens(state, state.hands[seat])


def stack(state: State, seat: int, initial: str) -> str:
    return tokens(state, state.stacks[seat][food_of(state, initial)])


def food_of(state: State, initial: str) -> int:
    deck = state.the_deck
    return next(food for food in range(len(deck.foods)) if letter(deck, food) == initial)


def holder(state: State, initial: str) -> int | None:
    return state.pigs[food_of(state, initial)]


def card_in_stack(state: State, seat: int, name: str) -> int:
    initial = name[0]
    return next(card for card in state.stacks[seat][food_of(state, initial)] if token(state.the_deck, card) == name)


def play(state: State, initial: str, now_ms: int = 0) -> State:
    return ENGINE.apply(state, state.current, {"type": "play_food", "food": state.the_deck.foods[food_of(state, initial)].key},
                        now_ms)


def goat(state: State, target: int, name: str, now_ms: int = 0) -> State:
    card = card_in_stack(state, target, name)
    return ENGINE.apply(state, state.current, {"type": "goat", "seat": target, "card": card}, now_ms)


def end_play(state: State, now_ms: int = 0) -> State:
    return ENGINE.apply(state, state.current, {"type": "end_play"}, now_ms)


def add(state: State, names: str, now_ms: int = 0) -> State:
    seat = state.prompt.seat
    wanted = names.split()
    cards = []
    for card in state.hands[seat]:
        name = token(state.the_deck, card)
        if name in wanted:
            wanted.remove(name)
            cards.append(card)
    return ENGINE.apply(state, seat, {"type": "add", "cards": cards}, now_ms)


def all_cards(state: State) -> list[int]:
    """Every card in every place, for conservation checks."""
    places = [*state.hands, *(stack for stacks in state.stacks for stack in stacks), *state.points,
              state.draw_pile, state.discards]
    return sorted(card for place in places for card in place)
