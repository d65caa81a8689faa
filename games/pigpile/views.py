"""What each seat may see (PP20): its own hand; everyone's face-up cards once revealed; sizes
and counts for the rest. Slop stays hidden from everyone, its owner included."""
from __future__ import annotations

from games.core import ranks_from_scores
from games.pigpile.cards import cards_view
from games.pigpile.rules import pile_value, source, top_run
from games.pigpile.state import ROUNDS, Phase, PigPileState


def view(state: PigPileState, seat: int | None) -> dict:
    choosing = state.phase is Phase.CHOOSE
    playing = state.phase is Phase.PLAY
    rank, run = top_run(state.pile)
    last = state.last_round
    return {
        "phase": state.phase.value,
        "turn": state.turn if playing else None,
        "seat": seat,
        "seats": state.seats,
        "round": state.round,
        "rounds": ROUNDS,
        "dealer": state.dealer,
        "direction": "clockwise" if state.direction == 1 else "anticlockwise",
        "hand": None if seat is None else cards_view(state.hands[seat]),
        "players": _players(state, seat, choosing),
        "pile": cards_view(state.pile),
        "pile_value": pile_value(state.pile),
        "run": None if rank is None else {"rank": rank, "count": run},
        "draw_count": len(state.draw),
        "washed_count": len(state.washed),
        "pen": state.pen,
        "out": list(state.out),
        "playing_from": source(state, state.turn) if playing else None,
        "last_round": None if last is None else {
            "pigs": list(last.pigs), "cards": list(last.cards), "out": list(last.out)},
        "standings": _standings(state) if state.phase is Phase.OVER else None,
        "options": {"greased_pig_start": state.greased_pig_start,
                    "three_player_last_gets_one": state.three_player_last_gets_one,
                    "turn_seconds": state.turn_seconds},
        "log": [{"n": n, "seat": who, "text": text} for n, who, text in state.log],
    }


def _players(state: PigPileState, viewer: int | None, choosing: bool) -> list[dict]:
    """Every seat's public side: counts, pigs, place, and face-up cards — hidden while the
    others are still choosing them (PP1), except from their owner."""
    hands, face_up, slop, out = state.hands, state.face_up, state.slop, state.out
    return [{
        "seat": other,
        "hand_count": len(hands[other]),
        "face_up": cards_view(face_up[other]) if not choosing or other == viewer else [],
        "chosen": bool(face_up[other]),
        "slop_count": len(slop[other]),
        "cards": len(hands[other]) + len(face_up[other]) + len(slop[other]),
        "pigs": state.pigs[other],
        "place": out.index(other) + 1 if other in out else None,
    } for other in range(state.seats)]


def _standings(state: PigPileState) -> list[dict]:
    ranks = ranks_from_scores(state.pigs)
    order = sorted(range(state.seats), key=lambda seat: (ranks[seat], seat))
    return [{"seat": seat, "pigs": state.pigs[seat], "rank": ranks[seat]} for seat in order]


def hidden_cards(state: PigPileState, seat: int | None) -> frozenset[int]:
    """Other hands, every Slop, the draw pile, and (while choosing) the others' face-up picks."""
    hidden = set(state.draw)
    choosing = state.phase is Phase.CHOOSE
    for other in range(state.seats):
        hidden.update(state.slop[other])
        if other != seat:
            hidden.update(state.hands[other])
            if choosing:
                hidden.update(state.face_up[other])
    return frozenset(hidden)
