"""Piggy Piggy (Hasbro), 2–6 players: the engine the platform calls.

Step 1 of a turn is a sequence of the current player's actions — goats
before or after at most one food play, then ``end_play`` — after which steps
2–4 run by themselves (``rules.finish_turn``). A goat can hand a pig to
another player, who then answers PG5's prompt (``add``) before step 1 goes on.
"""
from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from games.core import Engine, IllegalAction, Outcome, Progress, Rng, legal_match, ranks_from_scores
from games.core.cards import seat_ref
from games.core.contract import TURN_SECONDS
from games.piggypiggy import rules
from games.piggypiggy.decks import DECK_OPTION, DECKS
from games.piggypiggy.rules import cards_of, goats_in, log, put
from games.piggypiggy.state import HAND_SIZE, Phase, State, dump_state, load_state
from games.piggypiggy.views import build_view, hidden_cards


def _normalized(action: dict) -> dict:
    """An ``add`` names a set of cards: accept them in any order."""
    cards = action.get("cards")
    if action.get("type") == "add" and isinstance(cards, list) and all(type(card) is int for card in cards):
        return {**action, "cards": sorted(cards)}
    return action


class PiggyPiggyEngine(Engine[State]):
    slug = "piggypiggy"
    title = "Piggy Piggy"
    min_seats = 2
    max_seats = 6
    options = (TURN_SECONDS, DECK_OPTION)

    def start(self, seats: int, seed: int, options: dict | None = None) -> State:
        self.check_seats(seats)
        options = self.clean_options(options)
        deck = DECKS[options["deck"]]
        pile, rng = Rng.from_seed(seed).shuffled(range(len(deck.cards)))
        hands = tuple(pile[seat * HAND_SIZE:(seat + 1) * HAND_SIZE] for seat in range(seats))
        first, rng = rng.below(seats)  # PG1: the first player is random
        state = State(
            deck=deck.key, turn_seconds=options["turn_seconds"], rng=rng, hands=hands,
            stacks=tuple(((),) * len(deck.foods) for _ in range(seats)), pigs=(None,) * len(deck.foods),
            points=((),) * seats, draw_pile=pile[seats * HAND_SIZE:], discards=(), current=first,
            phase=Phase.PLAY, turn=0, food_played=False, turn_deadline=None,
        )
        state = log(state, None, f"Five cards each are dealt from the {deck.title.lower()}.")
        return rules.begin_turn(state, first, 0)

    def legal_actions(self, state: State, seat: int) -> list[dict]:
        if state.phase is Phase.INHERIT and seat == state.asked.seat:
            matching = sorted(cards_of(state, state.hands[seat], state.asked.food))
            return [{"type": "add", "cards": list(chosen)}
                    for size in range(len(matching) + 1) for chosen in combinations(matching, size)]
        if state.phase is not Phase.PLAY or seat != state.current:
            return []
        deck = state.the_deck
        hand = state.hands[seat]
        actions: list[dict] = []
        if not state.food_played:
            in_hand = sorted({food for food in (deck.cards[card].food for card in hand) if food is not None})
            actions += [{"type": "play_food", "food": deck.foods[food].key} for food in in_hand]
        if goats_in(state, hand):  # PG4: one card of another player's stack; no target, no goat
            actions += [{"type": "goat", "seat": other, "card": card}
                        for other, stacks in enumerate(state.stacks) if other != seat
                        for stack in stacks for card in stack]
        actions.append({"type": "end_play"})
        return actions

    def apply(self, state: State, seat: int | None, action: dict, now_ms: int) -> State:
        if state.phase is Phase.OVER:
            raise IllegalAction("the game is over")
        if not isinstance(action, dict):
            raise IllegalAction("an action is a JSON object with a type")
        if seat is None:
            return self._clock(state, action, now_ms)
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("it is not your turn")
        matched = legal_match(_normalized(action), legal)
        if matched is None:
            raise IllegalAction("that move is not allowed now")
        action = matched
        kind = action["type"]
        if kind == "play_food":
            food = state.the_deck.food_index(action["food"])
            assert food is not None  # a legal play names a food of this deck
            return self._play_food(state, food)
        if kind == "goat":
            return self._goat(state, action["seat"], action["card"], now_ms)
        if kind == "add":
            return rules.close_prompt(state, tuple(action["cards"]), now_ms)
        return rules.finish_turn(state, now_ms)

    def _play_food(self, state: State, food: int) -> State:
        """PG2: all the cards of one food type from the hand onto the player's own stack of it."""
        seat = state.current
        played = cards_of(state, state.hands[seat], food)
        hand = tuple(card for card in state.hands[seat] if card not in played)
        stack = state.stacks[seat][food] + played
        state = replace(rules.set_stack(state, seat, food, stack), hands=put(state.hands, seat, hand),
                        food_played=True)
        return log(state, seat, f"played {rules.describe(state, played)}; the stack has "
                                f"{rules.food_total(state, stack)} {state.the_deck.foods[food].name}.")

    def _goat(self, state: State, target: int, card: int, now_ms: int) -> State:
        """PG4: discard the goat and the chosen card; PG5: then settle that food's pig at once."""
        seat = state.current
        goat = goats_in(state, state.hands[seat])[0]
        kind = state.the_deck.cards[card]
        food = kind.food
        assert food is not None  # stacks hold food cards only
        name = state.the_deck.foods[food].name
        stack = tuple(other for other in state.stacks[target][food] if other != card)
        hand = tuple(other for other in state.hands[seat] if other != goat)
        state = rules.set_stack(state, target, food, stack)
        state = replace(state, hands=put(state.hands, seat, hand), discards=state.discards + (card, goat))
        state = log(state, seat, f"played a goat on {seat_ref(target)}'s {name}: "
                                 f"a {kind.amount}-{name} card is discarded.")
        return rules.resolve_pig(state, food, target, now_ms)

    def _clock(self, state: State, action: dict, now_ms: int) -> State:
        if action.get("type") != "clock":
            raise IllegalAction("only the clock acts without a seat")
        deadline = self.next_deadline(state)
        if deadline is None or now_ms < deadline:
            raise IllegalAction("nothing is due yet")
        if state.phase is Phase.INHERIT:  # PG5: the prompt times out as "add none"
            state = log(state, state.asked.seat, "ran out of time.")
            return rules.close_prompt(state, (), now_ms)
        state = log(state, state.current, "ran out of time and plays nothing more this turn.")  # PG12
        return rules.finish_turn(state, now_ms)

    def view(self, state: State, seat: int | None) -> dict:
        return build_view(state, seat)

    def progress(self, state: State) -> Progress:
        """No rounds: the turn (1 = the first)."""
        return Progress(turn_number=state.turn)

    def hidden_cards(self, state: State, seat: int | None) -> frozenset[int]:
        return hidden_cards(state, seat)

    def next_deadline(self, state: State) -> int | None:
        if state.phase is Phase.INHERIT:
            return state.asked.deadline_ms
        if state.phase is Phase.PLAY:
            return state.turn_deadline
        return None

    def clock_plays_for(self, state: State) -> frozenset[int]:
        """PG5: the player asked to add cards; PG12: the player whose turn it is."""
        if state.phase is Phase.INHERIT:
            return frozenset({state.asked.seat})
        return frozenset({state.current}) if state.phase is Phase.PLAY else frozenset()

    def outcome(self, state: State) -> Outcome | None:
        """PG10: the player at 8 points wins; the others rank by points, then by pigs held."""
        if state.phase is not Phase.OVER:
            return None
        points = tuple(len(pile) for pile in state.points)
        pigs = [state.pigs.count(seat) for seat in range(state.seats)]
        order = [score * (len(state.pigs) + 1) + pigs[seat] for seat, score in enumerate(points)]
        return Outcome(ranks_from_scores(order), points)

    def dump(self, state: State) -> dict:
        return dump_state(state)

    def load(self, data: dict) -> State:
        return load_state(data)


ENGINE = PiggyPiggyEngine()
