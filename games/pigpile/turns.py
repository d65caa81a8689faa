"""A turn in the PLAY phase: plays, washes and extra plays, pickups, specials, going out."""
from __future__ import annotations

from games.core.cards import plural
from games.pigpile.cards import EWE_TURN, HOG_TIED, RANK, rank_words, take_rank
from games.pigpile.rounds import end_round, place_word
from games.pigpile.rules import is_wash, pile_value, playable, top_run
from games.pigpile.state import PigPileState, evolve, set_seat, with_event


def play(state: PigPileState, seat: int, where: str, rank: int, count: int, now_ms: int) -> PigPileState:
    """PP6: ``count`` cards of ``rank`` from the hand or (PP15) the face-up cards onto the pile."""
    if where == "hand":
        taken, rest = take_rank(state.hands[seat], rank, count)
        state = evolve(state, hands=set_seat(state.hands, seat, rest))
        text = f"played {rank_words(rank, count)}"
    else:
        taken, rest = take_rank(state.face_up[seat], rank, count)
        state = evolve(state, face_up=set_seat(state.face_up, seat, rest))
        text = f"played {rank_words(rank, count)} from the face-up cards"
    return _onto_pile(state, seat, rank, taken, text, now_ms)


def flip_slop(state: PigPileState, seat: int, index: int, now_ms: int) -> PigPileState:
    """PP16: the Slop card goes onto the pile if legal (a normal play), else the pile, it included, to the hand."""
    slop = state.slop[seat]
    card = slop[index]
    rank = RANK[card]
    state = evolve(state, slop=set_seat(state.slop, seat, slop[:index] + slop[index + 1:]))
    text = f"flipped {rank_words(rank, 1)} from the Slop"
    if playable(rank, pile_value(state.pile)):
        return _onto_pile(state, seat, rank, (card,), text, now_ms)
    picked = state.pile + (card,)
    state = evolve(state, hands=set_seat(state.hands, seat, tuple(sorted(picked))), pile=())
    state = with_event(state, seat, f"{text} — too low, picked up the pig pile ({plural(len(picked), 'card')})")
    return pass_turn(state, seat, 0, now_ms)


def pick_up(state: PigPileState, seat: int, now_ms: int) -> PigPileState:
    """PP5/PP3/PP12: no legal play — the whole pile to the hand; no draw, no specials, the turn ends."""
    pile = state.pile
    state = evolve(state, hands=set_seat(state.hands, seat, tuple(sorted(state.hands[seat] + pile))), pile=())
    state = with_event(state, seat, f"picked up the pig pile ({plural(len(pile), 'card')})")
    return pass_turn(state, seat, 0, now_ms)


def pick_up_with_face_up(state: PigPileState, seat: int, rank: int, count: int, now_ms: int) -> PigPileState:
    """PP15: no face-up card is legal — the pile plus one face-up card (or all of that number) to the hand."""
    taken, rest = take_rank(state.face_up[seat], rank, count)
    pile = state.pile
    state = evolve(state, hands=set_seat(state.hands, seat, tuple(sorted(pile + taken))), pile=(),
                    face_up=set_seat(state.face_up, seat, rest))
    state = with_event(state, seat, f"picked up the pig pile ({plural(len(pile), 'card')}) and {rank_words(rank, count)}"
                                    " from the face-up cards")
    return pass_turn(state, seat, 0, now_ms)


def _onto_pile(state: PigPileState, seat: int, rank: int, cards: tuple, text: str, now_ms: int) -> PigPileState:
    pile = state.pile + cards
    if is_wash(rank, pile):
        state = evolve(state, pile=(), washed=state.washed + pile)
        state = with_event(state, seat, f"{text} — Hog Wash!")
        return _after_wash(state, seat, now_ms)
    state = with_event(evolve(state, pile=pile), seat, text)
    return _end_turn(state, seat, now_ms)


def _after_wash(state: PigPileState, seat: int, now_ms: int) -> PigPileState:
    """PP11: the washer plays again — unless the hand is empty: then draw one and end the turn
    while the draw pile lasts; with it gone, go on with table cards, or go out with none."""
    if state.hands[seat]:
        return evolve(state, began_ms=now_ms)
    if state.draw:
        state = _draw(state, seat)
        return pass_turn(state, seat, 0, now_ms)
    if state.face_up[seat] or state.slop[seat]:
        return evolve(state, began_ms=now_ms)
    state, round_over = _go_out(state, seat, now_ms)
    return state if round_over else pass_turn(state, seat, 0, now_ms)


def _end_turn(state: PigPileState, seat: int, now_ms: int) -> PigPileState:
    """A turn that ends on cards played: draw one (PP3), maybe go out (PP19), then the specials on top fire (PP12)."""
    if state.draw:
        state = _draw(state, seat)
    rank, run = top_run(state.pile)
    if not (state.hands[seat] or state.face_up[seat] or state.slop[seat]):
        state, round_over = _go_out(state, seat, now_ms)
        if round_over:
            return state
    skips = min(run, 2) if rank == HOG_TIED else 0  # PP13
    if rank == EWE_TURN:  # PP14: reverses once however many 11s lie on top
        state = with_event(evolve(state, direction=-state.direction), seat, "reversed the direction with a Ewe-Turn")
    return pass_turn(state, seat, skips, now_ms)


def pass_turn(state: PigPileState, seat: int, skips: int, now_ms: int) -> PigPileState:
    """The turn goes to the next player still in the round; PP13 skips ``skips`` of them first,
    counting round the table from the player who ended the turn (who may be skipped too)."""
    following = _next_in_round(state, seat)
    for _ in range(skips):
        state = with_event(state, following, "was Hog Tied — turn lost")
        following = _next_in_round(state, following)
    return evolve(state, turn=following, began_ms=now_ms)


def _next_in_round(state: PigPileState, seat: int) -> int:
    following = (seat + state.direction) % state.seats
    while following in state.out:
        following = (following + state.direction) % state.seats
    return following


def _draw(state: PigPileState, seat: int) -> PigPileState:
    """PP3: one card from the top of the draw pile into the hand."""
    card, rest = state.draw[0], state.draw[1:]
    state = evolve(state, hands=set_seat(state.hands, seat, tuple(sorted(state.hands[seat] + (card,)))), draw=rest)
    return state if rest else with_event(state, None, "The draw pile is empty: table cards come into play.")


def _go_out(state: PigPileState, seat: int, now_ms: int) -> tuple[PigPileState, bool]:
    """A player with no cards left is out; the second one out ends the round (PP17)."""
    place = len(state.out)
    state = with_event(evolve(state, out=state.out + (seat,)), seat, f"went out {place_word(place)}")
    if len(state.out) == 2:
        return end_round(state, now_ms), True
    return state, False
