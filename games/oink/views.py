"""What each seat sees of an Oink! state (only revealed cards, never a deck's)."""
from __future__ import annotations

from games.oink.cards import CRIES, card_json
from games.oink.fairness import COLLECT_MS, LAG_CAP_MS
from games.oink.rules import flipped
from games.oink.state import OinkState, Phase, Slap


def _ranked_slap(slap: Slap, cry: int | None) -> dict:
    return {"seat": slap.seat, "cry": slap.cry, "cry_name": CRIES[slap.cry], "reaction_ms": slap.ranked_ms,
            "right": cry is not None and slap.cry == cry and not slap.early, "early": slap.early}


def verdict_json(state: OinkState) -> dict | None:
    verdict = state.verdict
    if verdict is None:
        return None
    return {
        "pile": verdict.pile,
        "cry": verdict.cry,
        "cry_name": None if verdict.cry is None else CRIES[verdict.cry],
        "slaps": [_ranked_slap(slap, verdict.cry) for slap in verdict.slaps],
        "taker": verdict.taker,
        "cards": verdict.cards,
        "monkeys": list(verdict.monkeys),
        "penalties": list(verdict.penalties),
    }


def build_view(state: OinkState, seat: int | None) -> dict:
    """The JSON view for ``seat`` (None = spectator).

    While the collection window is open everyone sees who has slapped (hands
    are seen hitting the table) but only the slapper sees their own cry, so
    nobody can copy a cry before the verdict.
    """
    slapped = {slap.seat: slap for slap in state.slaps}
    mine = slapped.get(seat) if seat is not None else None
    turn = state.flipper if state.phase in (Phase.WAIT, Phase.FLIP) else None
    return {
        "phase": state.phase.value,
        "turn": turn,
        "flipper": state.flipper,
        "seat": seat,
        "round": state.round,
        "pile": {
            "id": state.pile_id,
            "size": len(state.pile),
            "top": [card_json(card) for card in reversed(flipped(state)[-2:])],
            "revealed_at": state.revealed_at,
            "open": state.pile_open,
        },
        "flip_open_since": state.phase_since if state.phase is Phase.FLIP else None,
        "players": [
            {"seat": index, "deck": len(state.decks[index]), "won": len(state.won[index]),
             "monkeys": state.monkeys[index], "slapped": index in slapped}
            for index in range(state.seats)
        ],
        "your_slap": None if mine is None else {"cry": mine.cry, "cry_name": CRIES[mine.cry]},
        "verdict": verdict_json(state),
        "cries": list(CRIES),
        "options": {"penalty_card": state.penalty_card, "reveal_gap_ms": state.reveal_gap_ms,
                    "turn_ms": state.turn_ms, "collect_ms": COLLECT_MS, "lag_cap_ms": LAG_CAP_MS},
        "scores": [len(pile) for pile in state.won],
        "log": [{"n": entry.n, "seat": entry.seat, "text": entry.text} for entry in state.log],
    }
