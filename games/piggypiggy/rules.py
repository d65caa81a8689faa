"""The rules of Piggy Piggy as pure functions from state to state.

Steps 2–4 of a turn (steal, draw, score) involve no choice, so they run as
soon as the current player ends step 1; ``finish_turn`` does them and begins
the next turn. Ruling ids (PG1…) refer to ``shared/rules/piggypiggy.md``.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import replace

from games.core.cards import count_words, next_seat, plural, seat_ref
from games.core.contract import turn_limit_ms
from games.piggypiggy.state import (
    DROUGHT_ROUNDS,
    HAND_SIZE,
    LOG_LENGTH,
    PROMPT_SECONDS,
    WIN_POINTS,
    Phase,
    Prompt,
    Scored,
    State,
)


def put(items: tuple, index: int, value) -> tuple:
    return items[:index] + (value,) + items[index + 1:]


def food_total(state: State, cards) -> int:
    """PG3: a stack's size is the food shown on its cards, not how many cards it has."""
    amounts = state.the_deck.amounts
    return sum(amounts[card] for card in cards)


def totals(state: State, food: int) -> tuple[int, ...]:
    return tuple(food_total(state, seat_stacks[food]) for seat_stacks in state.stacks)


def strict_leader(amounts) -> int | None:
    """The seat whose amount beats every other (a missing stack is 0), or None on a tie or no food."""
    best = max(amounts)
    if best == 0 or list(amounts).count(best) > 1:
        return None
    return list(amounts).index(best)


def cards_of(state: State, cards, food: int) -> tuple[int, ...]:
    food_of = state.the_deck.food_of
    return tuple(card for card in cards if food_of[card] == food)


def goats_in(state: State, cards) -> tuple[int, ...]:
    table = state.the_deck.cards
    return tuple(card for card in cards if table[card].is_goat)


def pig_name(state: State, food: int) -> str:
    food_ = state.the_deck.foods[food]
    return f"the {food_.colour} pig ({food_.name})"


def describe(state: State, cards) -> str:
    """'two tacos cards (5 tacos)' — for the log."""
    table = state.the_deck.cards
    foods = {table[card].food for card in cards}
    if len(foods) != 1 or None in foods:
        return f"{count_words(len(cards))} card{'s' if len(cards) != 1 else ''}"
    name = state.the_deck.foods[foods.pop()].name
    plural = "s" if len(cards) != 1 else ""
    return f"{count_words(len(cards))} {name} card{plural} ({food_total(state, cards)} {name})"


def log(state: State, seat: int | None, text: str) -> State:
    event = (state.event_count + 1, seat, text)
    return replace(state, events=(state.events + (event,))[-LOG_LENGTH:], event_count=state.event_count + 1)


def set_stack(state: State, seat: int, food: int, cards: tuple[int, ...]) -> State:
    return replace(state, stacks=put(state.stacks, seat, put(state.stacks[seat], food, cards)))


def take_pig(state: State, food: int, seat: int) -> State:
    """``seat`` takes ``food``'s pig; a previous holder discards their whole stack of it (PG5, PG6)."""
    holder = state.pigs[food]
    if holder is None:
        state = log(state, seat, f"took {pig_name(state, food)} from the middle.")
    else:
        lost = state.stacks[holder][food]
        state = log(state, seat, f"took {pig_name(state, food)} from {seat_ref(holder)}, "
                                 f"who discards {describe(state, lost)}.")
        state = set_stack(state, holder, food, ())
        state = replace(state, discards=state.discards + lost)
    return replace(state, pigs=put(state.pigs, food, seat))


def resolve_pig(state: State, food: int, target: int, now_ms: int) -> State:
    """PG5: right after a goat on ``target``'s stack, settle ``food``'s pig before anything else.

    The rulebook's FAQ settles the pig of the stack the goat hit: only a pig
    ``target`` holds moves. A pig in the middle, or held by someone else, waits
    for step 2 (PG6) — a goat must not hand a middle pig to a third player.
    """
    if state.pigs[food] != target:
        return state
    leader = strict_leader(totals(state, food))
    if leader == target:
        return state
    if leader is None:
        state = log(state, None, f"Nobody has the most {state.the_deck.foods[food].name}: "
                                 f"{pig_name(state, food)} goes back to the middle.")
        return replace(state, pigs=put(state.pigs, food, None))
    state = take_pig(state, food, leader)
    if not cards_of(state, state.hands[leader], food):
        return state
    seconds = state.turn_seconds or PROMPT_SECONDS
    prompt = Prompt(leader, food, now_ms, now_ms + seconds * 1000)
    return replace(state, phase=Phase.INHERIT, prompt=prompt)


def close_prompt(state: State, cards: tuple[int, ...], now_ms: int) -> State:
    """The inheritor adds ``cards`` (maybe none); step 1 goes on, its timer paused while they chose."""
    prompt = state.asked
    if cards:
        hand = tuple(card for card in state.hands[prompt.seat] if card not in cards)
        state = replace(state, hands=put(state.hands, prompt.seat, hand))
        state = set_stack(state, prompt.seat, prompt.food, state.stacks[prompt.seat][prompt.food] + cards)
        state = log(state, prompt.seat, f"added {describe(state, cards)} to the stack.")
    else:
        state = log(state, prompt.seat, "added no cards.")
    assert state.turn_deadline is not None  # a prompt opens during a turn, which has a deadline
    deadline = state.turn_deadline + now_ms - prompt.started_ms
    return replace(state, phase=Phase.PLAY, prompt=None, turn_deadline=deadline)


def steal_pigs(state: State) -> State:
    """PG6: the current player takes every pig whose food they now have strictly the most of."""
    for food in range(len(state.pigs)):
        if state.pigs[food] != state.current and strict_leader(totals(state, food)) == state.current:
            state = take_pig(state, food, state.current)
    return state


def draw_up(state: State, seat: int) -> tuple[State, tuple[int, ...]]:
    """PG7: draw until the hand holds five, reshuffling the discards into an empty draw pile."""
    pile, discards, rng = state.draw_pile, state.discards, state.rng
    drawn: tuple[int, ...] = ()
    reshuffled = False
    while len(state.hands[seat]) + len(drawn) < HAND_SIZE:
        if not pile:
            if not discards:
                break
            pile, rng = rng.shuffled(discards)
            discards, reshuffled = (), True
        need = HAND_SIZE - len(state.hands[seat]) - len(drawn)
        drawn, pile = drawn + pile[:need], pile[need:]
    if reshuffled:
        state = log(state, None, "The discards were shuffled into a new draw pile.")
    state = replace(state, draw_pile=pile, discards=discards, rng=rng,
                    hands=put(state.hands, seat, state.hands[seat] + drawn))
    if not drawn:
        return log(state, seat, "drew no cards."), drawn
    return log(state, seat, f"drew {count_words(len(drawn))} card{'s' if len(drawn) != 1 else ''}."), drawn


def score(state: State, seat: int, drawn: tuple[int, ...]) -> State:
    """PG8: the cards just drawn that match a pig the player holds now go to their points; PG10 ends at 8."""
    table = state.the_deck.cards
    held = {food for food, holder in enumerate(state.pigs) if holder == seat}
    scoring = tuple(card for card in drawn if table[card].food in held)
    state = replace(state, scored=Scored(seat, scoring))
    if not scoring:
        return state
    hand = tuple(card for card in state.hands[seat] if card not in scoring)
    pile = state.points[seat] + scoring
    state = replace(state, hands=put(state.hands, seat, hand), points=put(state.points, seat, pile))
    state = log(state, seat, f"scored {count_words(len(scoring))} point{'s' if len(scoring) != 1 else ''} "
                             f"and has {plural(len(pile), 'point')}.")
    if len(pile) >= WIN_POINTS:
        state = log(state, seat, f"reached {WIN_POINTS} points and wins!")
        return replace(state, phase=Phase.OVER, winner=seat, ending="points", turn_deadline=None)
    return state


def can_refill_discards(state: State) -> bool:
    """Whether a card could ever reach the discards again, and so be drawn (PG7) and maybe score.

    Cards reach the discards only by a goat (it and its target, PG4) or a stolen
    pig (its old holder's stack, PG5 and PG6). A goat needs another player's
    food on a stack, which can only come from a stack or a hand; a steal needs
    two players with that food, one of them holding some to play. The check is
    generous — it may see a chance that sizes rule out — never the other way.
    """
    food_of = state.the_deck.food_of
    in_hand = [{food_of[card] for card in hand} for hand in state.hands]  # None stands for a goat
    anywhere = [{food for food, stack in enumerate(stacks) if stack} | {food for food in foods if food is not None}
                for stacks, foods in zip(state.stacks, in_hand)]
    for seat, foods in enumerate(in_hand):
        others = set().union(*(anywhere[other] for other in range(state.seats) if other != seat))
        if (None in foods and others) or (foods - {None}) & others:
            return True
    return False


def no_point_left(state: State) -> bool:
    """Whether nobody can ever score again, whatever anyone plays (PG10, our decisions).

    A point is a card of a food drawn (PG8) by the holder of that food's pig,
    who always has a card of that food on their stack: so it needs a card that
    can still be drawn, and some food with two cards outside the points piles
    (which they never leave).
    """
    if not (state.draw_pile or state.discards or can_refill_discards(state)):
        return True
    food_of = state.the_deck.food_of
    scored = {card for pile in state.points for card in pile}
    in_play = Counter(food_of[card] for card in range(len(food_of)) if card not in scored)
    return all(count < 2 for food, count in in_play.items() if food is not None)


def after_turn(state: State) -> State:
    """PG10, our decisions: the game ends on points when nobody can score any more ("no
    point left"), or after DROUGHT_ROUNDS whole rounds in a row without a point (the drought)."""
    state = replace(state, dry_turns=0 if state.scored is not None and state.scored.cards else state.dry_turns + 1)
    if no_point_left(state):
        state = log(state, None, "Nobody can score any more: the game ends on points.")
        return replace(state, phase=Phase.OVER, ending="no_point_left", turn_deadline=None)
    if state.dry_turns < DROUGHT_ROUNDS * state.seats:
        return state
    state = log(state, None, f"{DROUGHT_ROUNDS} rounds in a row without a point: the game ends on points.")
    return replace(state, phase=Phase.OVER, ending="drought", turn_deadline=None)


def begin_turn(state: State, seat: int, now_ms: int) -> State:
    """Start ``seat``'s turn. PG9: with an empty hand they skip to drawing and scoring, and play moves on."""
    while True:
        # PG12: the turn timer, or without one the longest wait, so no table waits for ever on one player.
        state = replace(state, current=seat, phase=Phase.PLAY, turn=state.turn + 1, food_played=False,
                        prompt=None, turn_deadline=now_ms + turn_limit_ms(state.turn_seconds))
        if state.hands[seat]:
            return state
        state = log(state, seat, "has no cards: skips to drawing.")
        state, drawn = draw_up(state, seat)
        state = after_turn(score(state, seat, drawn))
        if state.phase is Phase.OVER:
            return state
        seat = next_seat(seat, state.seats)


def finish_turn(state: State, now_ms: int) -> State:
    """Steps 2–4 for the current player (steal, draw, score), then the next player's turn."""
    state = steal_pigs(state)
    state, drawn = draw_up(state, state.current)
    state = score(state, state.current, drawn)
    if state.phase is not Phase.OVER:
        state = after_turn(state)
    if state.phase is Phase.OVER:
        return state
    return begin_turn(state, next_seat(state.current, state.seats), now_ms)
