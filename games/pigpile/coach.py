"""Pig Pile taught at the table (games.core.coach): the phase in a player's words, and the
first game's hints, which suggest what the sensible bot would play and say why.

Targets name ``pigpile/table.html``: the face-up toggles of the hand, a number's group
(it opens that number's counts) and the count's button, the pick-up and Slop forms.
"""
from __future__ import annotations

from games.core.cards import word_list
from games.core.coach import Coach, Hint, Lesson, form_button, picture
from games.pigpile.bots import face_up_score, play_score
from games.pigpile.cards import CARD_VIEWS, EWE_TURN, HOG_TIED, HOG_WASH, WILD, rank_words
from games.pigpile.presenter import card_name
from games.pigpile.rules import strength

FACE_UP_BUTTON = "#pp-prompt .pp-faceup button[type=submit]"



def _label(rank: int) -> str:
    return "W" if rank == WILD else str(rank)


def _group(where: str, rank: int) -> str:
    """The button around a number's cards (hand or face up): it opens that number's counts."""
    part = "#pp-hand" if where == "hand" else "#pp-me"
    return f'{part} .pp-group[data-key="{where}-{_label(rank)}"] .pp-pick'


class PigPileCoach(Coach):
    lesson = Lesson(seats=3, seed=201, bot="sensible", aim="Play your first round to its end.",
                    options={"turn_seconds": 0})

    def samples(self) -> dict:
        def first(rank: int) -> dict:
            card = 72 if rank == WILD else (rank - 1) * 6
            return picture(CARD_VIEWS[card])
        return {"three": first(3), "five": first(5), "nine": first(9), "tied": first(HOG_TIED),
                "wash": first(HOG_WASH), "turn": first(EWE_TURN), "wild": first(WILD)}

    def learned(self, view: dict) -> bool:
        return view["round"] > 1 or view["phase"] == "over"

    def now(self, view: dict, legal: list[dict]) -> str:
        phase = view["phase"]
        kinds = {action["type"] for action in legal}
        if phase == "over":
            return "The game is over: whoever collected the most pigs in five rounds wins."
        if "faceup" in kinds:
            return ("Choose three of your seven cards to lay face up on your Slop. You play them only "
                    "once your hand is empty and the draw pile is gone, so lay strong ones: Hog Wilds, "
                    "8s, high numbers.")
        if phase == "choose":
            return ("Everyone is choosing three cards to lay face up. The choices are shown together "
                    "once all have chosen.")
        value = view["pile_value"]
        fits = "anything" if value == 0 else f"{value} or higher, or a Hog Wild"
        if "play" in kinds:
            where = "your face-up cards" if view["playing_from"] == "faceup" else "your hand"
            draw = " Then you draw a card." if view["draw_count"] and view["playing_from"] == "hand" else ""
            return (f"Your turn: play one or more cards of one number from {where} onto the pig pile — "
                    f"{fits}.{draw} An 8, or three of a number in a row, washes the pile and you play again.")
        if "pickup" in kinds:
            return f"Your turn, but nothing in your hand fits ({fits}): you pick up the whole pig pile."
        if "pickup_faceup" in kinds:
            return ("None of your face-up cards fits: you pick up the pile with one face-up card "
                    "(or all of one number) and play from your hand again.")
        if "slop" in kinds:
            return ("Only your Slop is left: flip one of those face-down cards, blind. If it does not fit, "
                    "you pick up the pile with it.")
        return (f"Another player's turn. Watch the pig pile: on your turn you must play {fits}. "
                "First out each round gets 3 pigs, second out 2.")

    def hint(self, view: dict, legal: list[dict]) -> Hint | None:
        if view["phase"] == "over" or view.get("seat") is None:
            return None
        if not legal:
            if view["phase"] == "choose":
                return Hint("Wait for the others to choose their face-up cards.")
            return Hint("Watch the pile while the others play: your turn comes round.")
        kind = legal[0]["type"]
        if kind == "faceup":
            return self._face_up(view, max(legal, key=face_up_score))
        if kind == "pickup":
            return Hint(f"Nothing in your hand reaches {view['pile_value']}: pick up the pig pile. "
                        "Those cards are yours to play later.", legal[0], (form_button(legal[0]),))
        if kind == "slop":
            return Hint("Flip a Slop card. Nobody knows what it is — if it does not fit, you pick up the pile.",
                        legal[0], (form_button(legal[0]),))
        if kind == "pickup_faceup":
            action = min(legal, key=lambda action: (strength(action["rank"]), -action["count"]))
            return Hint(f"No face-up card fits: take your {card_name(action['rank'])} back with the pile and "
                        "keep the strong ones on the table.", action,
                        (_group("faceup", action["rank"]), form_button(action)))
        action = max(legal, key=lambda action: play_score(view, action))
        return Hint(self._why(view, action), action, (_group(action["from"], action["rank"]), form_button(action)))

    def _face_up(self, view: dict, action: dict) -> Hint:
        cards, taken = [], set()
        for rank in action["ranks"]:
            card = next(card for card in view["hand"] if card["rank"] == rank and card["card"] not in taken)
            taken.add(card["card"])
            cards.append(card["card"])
        names = word_list([card_name(rank) for rank in action["ranks"]])
        targets = tuple(f'#pp-hand .pp-toggle[data-card="{card}"]' for card in cards) + (FACE_UP_BUTTON,)
        return Hint(f"Tap {names}, then lay them face up: strong cards, kept for the end of the round "
                    "when your hand is empty.", action, targets)

    def _why(self, view: dict, action: dict) -> str:
        rank, count = action["rank"], action["count"]
        cards = rank_words(rank, count)
        run = view["run"]
        on_top = run["count"] if run and run["rank"] == rank else 0
        if rank == HOG_WASH:
            return f"Play {cards} — a Hog Wash: it washes the whole pile away, and you play again."
        if on_top + count >= 3:
            return (f"Play {cards}: with the {on_top} on top that makes three in a row, which washes the "
                    "pile — and you play again.")
        if rank == WILD:
            return ("Play a Hog Wild: it goes on anything. Left on top, it lets the next player "
                    "play anything too, so only use one when nothing else fits.")
        if rank == HOG_TIED:
            return f"Play {cards} — Hog Tied: left on top when your turn ends, it makes the next player miss a turn."
        if rank == EWE_TURN:
            return f"Play {cards} — Ewe-Turn: left on top when your turn ends, it turns the direction of play."
        if count > 1:
            return f"Play {cards}: a whole set at once empties your hand faster."
        return f"Play {cards}: the lowest card that fits keeps your high cards for later."


COACH = PigPileCoach()
