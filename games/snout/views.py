"""What each seat may see (S11): its own hand, every hand's size, the Pigsty's size, the
Pig Pile, every toss, the score sheet — and every hand once a round is scored."""
from __future__ import annotations

from games.core.cards import next_seat
from games.snout import pigs
from games.snout.pigs import PIGS, card_json
from games.snout.rules import TARGET
from games.snout.state import Phase, RoundResult, SnoutState, Toss

REVEALED = (Phase.ROUND_OVER, Phase.GAME_OVER)


def hidden_cards(state: SnoutState, seat: int | None) -> frozenset[int]:
    seen = set(state.pig_pile)
    if state.phase in REVEALED:
        for hand in state.hands:
            seen.update(hand)
    elif seat is not None:
        seen.update(state.hands[seat])
    return frozenset(range(len(pigs.DECK))) - seen


def view(state: SnoutState, seat: int | None) -> dict:
    own = state.hands[seat] if seat is not None else ()
    return {
        "phase": state.phase.value,
        "turn": state.tosser if state.phase is Phase.TOSS else None,
        "seat": seat,
        "seats": state.seats,
        "round": state.round,
        "dealer": state.dealer,
        "tosser": state.tosser,
        "target": TARGET,
        "options": {"toss_odds": state.toss_odds, "early_snout": state.early_snout,
                    "turn_seconds": state.turn_seconds},
        "hand": grouped(own),
        "hand_points": pigs.points(own),
        "hand_sizes": [len(hand) for hand in state.hands],
        "pigsty": len(state.pigsty),
        "pig_pile": [card_json(card) for card in state.pig_pile],
        "toss": toss_json(state.last_toss),
        "passed": [bool(chosen) for chosen in state.passes],
        "my_pass": pass_json(state.passes[seat]) if seat is not None else [],
        "received": received_json(state, seat),
        "done": list(state.done),
        "scores": list(state.scores),
        "rounds": [result_json(result) for result in state.results],
        "hands": [[card_json(card) for card in hand] for hand in state.hands] if state.phase in REVEALED else None,
        "log": [{"n": n, "seat": who, "text": text} for n, who, text in state.log],
    }


def grouped(hand: tuple[int, ...]) -> list[dict]:
    """A hand grouped by position, as the rulebook suggests arranging it."""
    groups = []
    for index, pig in enumerate(PIGS):
        cards = [card_json(card) for card in hand if pigs.pig_of(card) == index]
        if cards:
            groups.append({"pig": pig.key, "name": pig.name, "points": pig.points, "cards": cards})
    return groups


def pass_json(cards: tuple[int, ...]) -> list[str]:
    """Passed cards by position only: their ids now sit in another hand."""
    return [PIGS[pigs.pig_of(card)].key for card in cards]


def received_json(state: SnoutState, seat: int | None) -> list[str]:
    """What came from the right, once the passes have happened (never a neighbour's pending choice)."""
    if seat is None or state.phase is Phase.PASS:
        return []
    return pass_json(state.passes[next_seat(seat, state.seats, -1)])


def toss_json(toss: Toss | None) -> dict | None:
    if toss is None:
        return None
    pig = PIGS[toss.pig]
    return {
        "n": toss.n, "seat": toss.seat, "pig": pig.key, "name": pig.name, "points": pig.points,
        "discards": list(toss.discards), "draws": [draw.name.lower() for draw in toss.draws],
        "reshuffled": toss.reshuffled,
    }


def result_json(result: RoundResult) -> dict:
    return {
        "number": result.number, "dealer": result.dealer, "end": result.end.value, "caller": result.caller,
        "winners": list(result.winners),
        "hands": [[{"pig": PIGS[pig].key, "name": PIGS[pig].name, "count": count}
                   for pig, count in enumerate(hand) if count] for hand in result.hands],
        "hand_points": list(result.hand_points), "points": list(result.points), "totals": list(result.totals),
    }
