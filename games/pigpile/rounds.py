"""Rounds: the deal, the simultaneous face-up choice, and the scoring with the pen."""
from __future__ import annotations

from games.core.cards import count_words
from games.pigpile.cards import CARD_COUNT, take_rank
from games.pigpile.rules import strongest_choice
from games.pigpile.state import PEN, ROUNDS, LastRound, Phase, PigPileState, cards_held, evolve, set_seat, with_event

SLOP = 3
HAND = 7
FACE_UP = 3
CHOOSE_SECONDS = 60
"""PP1: the face-up choice's timeout at a table without a turn timer."""
PLACES = ("first", "second")


def new_game(seats: int, seed: int, options: dict, rng) -> PigPileState:
    """Round 1 dealt by a seat drawn from the seed (our decision: the rulebook says "one player is selected")."""
    dealer, rng = rng.below(seats)
    empty = ((),) * seats
    state = PigPileState(
        seats=seats, greased_pig_start=options["greased_pig_start"],
        three_player_last_gets_one=options["three_player_last_gets_one"],
        turn_seconds=options["turn_seconds"], rng=rng, phase=Phase.CHOOSE, round=1, dealer=dealer,
        hands=empty, face_up=empty, slop=empty, draw=(), pile=(), washed=(), direction=1, turn=dealer,
        out=(), pigs=(0,) * seats, pen=PEN, last_round=None, began_ms=0, log=(), log_count=0,
    )
    return deal(state, 0)


def deal(state: PigPileState, now_ms: int) -> PigPileState:
    """PP1: 3 Slop each, then 7 to the hand; the rest is the draw pile. PP2: the Greased Pig Start
    only skips the first round's choosing — three of those seven, at random, are dealt face up."""
    deck, rng = state.rng.shuffled(range(CARD_COUNT))
    n = state.seats
    slop = tuple(deck[SLOP * seat:SLOP * seat + SLOP] for seat in range(n))
    hands_at = SLOP * n
    chunks = [deck[hands_at + HAND * seat:hands_at + HAND * (seat + 1)] for seat in range(n)]
    greased = state.greased_pig_start and state.round == 1
    face_up_count = FACE_UP if greased else 0  # the deck is shuffled: the chunk's first cards are random
    hands = tuple(tuple(sorted(chunk[face_up_count:])) for chunk in chunks)
    face_up = tuple(tuple(sorted(chunk[:face_up_count])) for chunk in chunks)
    state = evolve(
        state, rng=rng, hands=hands, face_up=face_up, slop=slop,
        draw=tuple(deck[hands_at + HAND * n:]), pile=(), washed=(), direction=1, turn=state.dealer,
        out=(), phase=Phase.PLAY if greased else Phase.CHOOSE, began_ms=now_ms,
    )
    state = with_event(state, state.dealer, f"dealt round {state.round}")
    if greased:
        state = with_event(state, None, "Greased Pig Start: the face-up cards were dealt.")
    return state


def choose_face_up(state: PigPileState, seat: int, ranks, now_ms: int) -> PigPileState:
    """PP1: set ``seat``'s three face-up cards aside; reveal them all once everyone has chosen."""
    hand = state.hands[seat]
    chosen: list[int] = []
    for rank in ranks:
        taken, hand = take_rank(hand, rank, 1)
        chosen.extend(taken)
    state = evolve(state, hands=set_seat(state.hands, seat, hand), face_up=set_seat(state.face_up, seat, tuple(chosen)))
    state = with_event(state, seat, "chose face-up cards")
    if all(state.face_up):
        state = evolve(state, phase=Phase.PLAY, turn=state.dealer, began_ms=now_ms)
        state = with_event(state, None, "Face-up cards revealed.")
    return state


def choose_for_the_slow(state: PigPileState, now_ms: int) -> PigPileState:
    """The CHOOSE phase's timeout: the clock picks the strongest three for everyone still choosing."""
    for seat in range(state.seats):
        if not state.face_up[seat] and state.phase is Phase.CHOOSE:
            state = with_event(state, seat, "ran out of time")
            state = choose_face_up(state, seat, strongest_choice(state.hands[seat])["ranks"], now_ms)
    return state


def round_pigs(state: PigPileState) -> tuple[int, ...]:
    """PP17: 3 to the first out, 2 to the second, 1 to each other player except those holding
    the most cards (ties for most all get 0). Option: in a 3-player game the last gets 1."""
    pigs = [0] * state.seats
    first, second = state.out
    pigs[first], pigs[second] = 3, 2
    others = [seat for seat in range(state.seats) if seat not in state.out]
    most = max(cards_held(state, seat) for seat in others)
    lenient = state.three_player_last_gets_one and state.seats == 3
    for seat in others:
        pigs[seat] = 1 if lenient or cards_held(state, seat) < most else 0
    return tuple(pigs)


def end_round(state: PigPileState, now_ms: int) -> PigPileState:
    """PP17/PP18: hand out the pigs from the pen (never more than it holds), then deal the next
    round to the left, or end the game after round 5 or once the pen is empty."""
    due = round_pigs(state)
    pen = state.pen
    given = [0] * state.seats
    for seat in (*state.out, *(seat for seat in range(state.seats) if seat not in state.out)):
        given[seat] = min(due[seat], pen)
        pen -= given[seat]
    last = LastRound(pigs=tuple(given), cards=tuple(cards_held(state, seat) for seat in range(state.seats)),
                     out=state.out)
    state = evolve(state, pigs=tuple(p + g for p, g in zip(state.pigs, given)), pen=pen, last_round=last)
    state = with_event(state, None, f"Round {state.round} is over.")
    for seat in range(state.seats):
        state = with_event(state, seat, _pigs_text(given[seat], due[seat]))
    if state.round >= ROUNDS or state.pen == 0:
        state = evolve(state, phase=Phase.OVER, began_ms=now_ms)
        return with_event(state, None, "Game over.")
    state = evolve(state, round=state.round + 1, dealer=(state.dealer + 1) % state.seats)
    return deal(state, now_ms)


def _pigs_text(given: int, due: int) -> str:
    if due == 0:
        return "gets no pigs (most cards left)"
    if given < due:
        return f"gets {given} of {due} pigs (the pen ran out)"
    return f"gets {count_words(given)} pig{'s' if given != 1 else ''}"


def place_word(place: int) -> str:
    return PLACES[place] if place < len(PLACES) else str(place + 1)

