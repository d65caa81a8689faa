"""Oink! taught at the table (games.core.coach): what the top two cards call for, read from
the view's shown cards only (never a deck), and when to flip.

Targets name ``oink/table.html``: the flip button and the cry buttons (``data-cry``).
"""
from __future__ import annotations

from games.core.coach import Coach, Hint, Lesson, picture
from games.oink.cards import ANIMALS, CRIES, OINK, PIG, animal, card_json, correct_cry, value

FLIP_BUTTON = "#ok-prompt .ok-flip button"
WATCH = ("Watch the top two cards: the same animal twice calls for its cry; a pig on top, "
         "or two numbers that make 7, call for Oink!")


def _cry_button(cry: int) -> str:
    return f'#ok-cries .ok-cry[data-cry="{cry}"]'


def _card(card: int) -> str:
    return "a pig" if animal(card) == PIG else f"a {ANIMALS[animal(card)]} {value(card)}"


def reason(top: int, under: int | None, cry: int) -> str:
    """Why the pile calls for ``cry``, in a player's words (O3)."""
    if under is not None and animal(top) == animal(under):
        return f"Two {ANIMALS[animal(top)]}s on top: cry {CRIES[cry]}"
    if animal(top) == PIG:
        return "A pig on top: cry Oink!"
    assert under is not None  # two values make 7 only with a card under the top one (O3)
    return f"{value(under)} + {value(top)} make 7: cry Oink!"


class OinkCoach(Coach):
    lesson = Lesson(seats=2, seed=39, bot="patient", aim="Win your first pile.",
                    options={"reveal_gap_ms": 2500, "turn_seconds": 30})

    def samples(self) -> dict:
        # One card of each animal (its 3, or a pig), and the pairs the panel shows.
        cards = {name: card_json(index * 14 + 6) for index, name in enumerate(ANIMALS[:PIG])}
        cards["pig"] = card_json(84)
        cards["cow_four"] = card_json(2 * 14 + 8)
        cards["sheep_four"] = card_json(4 * 14 + 8)
        cards["dog_five"] = card_json(0 * 14 + 10)
        return {**{name: picture(card) for name, card in cards.items()}, "cries": list(zip(ANIMALS, CRIES))}

    def learned(self, view: dict) -> bool:
        seat = view.get("seat")
        return view["phase"] == "over" or (seat is not None and view["players"][seat]["won"] > 0)

    def now(self, view: dict, legal: list[dict]) -> str:
        phase = view["phase"]
        if phase == "over":
            return "The game is over: whoever won the most cards wins."
        if phase == "collect":
            return "Someone slapped: the slaps are being judged. The fastest right cry takes the pile."
        if {"type": "flip"} in legal:
            return ("Your turn to flip: tap Flip your card (or press Space). The card is shown to everyone "
                    f"at once, you too. {WATCH}")
        return f"{WATCH} Tap the cry (or press its key, 1–7) before anyone else and the pile is yours."

    def hint(self, view: dict, legal: list[dict]) -> Hint | None:
        if view["phase"] == "over" or view.get("seat") is None:
            return None
        mine = view["your_slap"]
        if mine is not None and view["phase"] == "collect":
            return Hint(f"You cried {mine['cry_name']}: wait for the verdict.")
        shown = [card["card"] for card in view["pile"]["top"]]
        top, under = (shown + [None, None])[:2]
        cry = correct_cry(top, under) if top is not None else None
        slap = {"type": "slap", "cry": cry, "pile": view["pile"]["id"]}
        if cry is not None and slap in legal:
            key = "7" if cry == OINK else str(cry + 1)
            return Hint(f"{reason(top, under, cry)}! Tap {CRIES[cry]} (key {key}) — quick, before the bot.",
                        slap, (_cry_button(cry),))
        if {"type": "flip"} in legal:
            return Hint("Your turn: tap Flip your card (or press Space). Then watch the new top two cards.",
                        {"type": "flip"}, (FLIP_BUTTON,))
        verdict = view["verdict"]
        if mine is not None and verdict is not None and verdict["pile"] == view["pile"]["id"]:
            if verdict["taker"] == view["seat"]:
                return Hint(f"Well cried: the pile is yours! Wait for your next flip. {WATCH}")
            return Hint(f"That slap did not win the pile. Wait for the next card. {WATCH}")
        if top is None:
            return Hint("Wait for the first card. " + WATCH)
        if under is None:
            return Hint(f"{_card(top).capitalize()}, alone on the pile: no cry. Only a pig could be slapped now.")
        return Hint(f"{_card(top).capitalize()} on {_card(under)}: no cry — different animals, and "
                    f"{value(under)} + {value(top)} is not 7. Wait for the next card.")


COACH = OinkCoach()
