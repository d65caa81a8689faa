"""Piggy Piggy taught at the table (games.core.coach): the four steps of a turn in a
player's words; the first game's hints suggest what the sensible bot would play and why.

Targets name ``piggypiggy/table.html``: a food's group in the hand and its Play button,
the goat button and the stack card a goat throws away, End step 1, and the Add button.
"""
from __future__ import annotations

from games.core.coach import Coach, Hint, Lesson, form_button, picture
from games.piggypiggy.bots import SENSIBLE
from games.piggypiggy.decks import STAND_IN
from games.piggypiggy.rules import strict_leader
from games.piggypiggy.state import WIN_POINTS
from games.piggypiggy.templatetags.board import card_face
from games.piggypiggy.views import card_faces

GOAT_BUTTON = "#pg-prompt .pg-goat-toggle"
STEPS = ("At step 2 you take every pig whose food you have strictly the most of; then you draw up to "
         f"five cards and score the drawn cards that match your pigs. First to {WIN_POINTS} points wins.")


def _food(view: dict, key: str) -> dict:
    return next(food for food in view["foods"] if food["food"] == key)


def _totals(view: dict, key: str) -> list[int]:
    index = [food["food"] for food in view["foods"]].index(key)
    return [stacks[index]["total"] for stacks in view["stacks"]]


class PiggyPiggyCoach(Coach):
    lesson = Lesson(seats=2, seed=76, bot="sensible", aim=f"Play a whole game: first to {WIN_POINTS} points.",
                    options={"turn_seconds": 0})

    def samples(self) -> dict:
        """Each food with its pig's colour and one card of each amount, and a goat, as the table draws them."""
        faces = [picture(card_face(face)) for face in card_faces(STAND_IN.key)]
        foods = [{"food": food.key, "name": food.name, "colour": food.colour,
                  "cards": list({face["amount"]: face for face in faces if face["food"] == food.key}.values())}
                 for food in STAND_IN.foods]
        return {"foods": foods, "goat": next(face for face in faces if face["goat"])}

    def learned(self, view: dict) -> bool:
        return view["phase"] == "over"

    def now(self, view: dict, legal: list[dict]) -> str:
        if view["phase"] == "over":
            return f"The game is over: the first to {WIN_POINTS} points won."
        prompt = view["prompt"]
        if prompt is not None:
            food = _food(view, prompt["food"])
            if legal:
                return (f"A goat handed you the {food['colour']} pig: you may add your {food['name']} cards "
                        "to that stack, so it is harder to take.")
            return f"A goat moved the {food['colour']} pig: its new holder may add cards to that stack."
        kinds = {action["type"] for action in legal}
        if "play_food" in kinds or "goat" in kinds or "end_play" in kinds:
            play = "Step 1: play one food — all your cards of it — onto your own stack" if "play_food" in kinds \
                else "Step 1: you have played your food"
            goats = "; a goat throws away a card of another player's stack" if "goat" in kinds else ""
            return f"{play}{goats}. Then end step 1. {STEPS}"
        return f"Another player's turn. {STEPS}"

    def hint(self, view: dict, legal: list[dict]) -> Hint | None:
        if view["phase"] == "over" or view.get("you") is None:
            return None
        if not legal:
            return Hint("Wait while the other player takes their turn; watch which pigs move.")
        action = SENSIBLE.choose(view, legal, None)
        kind = action["type"]
        if kind == "add":
            return Hint("Add your matching cards to the stack you just took over: the bigger it is, the "
                        "harder the pig is to take back.", action, (form_button(action),))
        if kind == "play_food":
            return self._play(view, action)
        if kind == "goat":
            return self._goat(view, action)
        return Hint(f"End step 1. {STEPS}", action, (form_button(action),))

    def _play(self, view: dict, action: dict) -> Hint:
        key = action["food"]
        food = _food(view, key)
        amount = sum(card["amount"] for card in view["hand"] if card["food"] == key)
        totals = _totals(view, key)
        me = view["you"]
        totals[me] += amount
        pig = next(pig for pig in view["pigs"] if pig["food"] == key)
        if pig["holder"] == me:
            why = f"it keeps your {food['colour']} pig out of reach"
        elif strict_leader(totals) == me:
            why = f"with {totals[me]} {food['name']} you have the most, so at step 2 you take the {food['colour']} pig"
        else:
            why = f"the more {food['name']} on your stack, the nearer the {food['colour']} pig"
        targets = (f'#pg-hand .pg-group[data-food="{key}"] .pg-food', form_button(action))
        return Hint(f"Play your {food['name']} (tap them, then Play): {why}.", action, targets)

    def _goat(self, view: dict, action: dict) -> Hint:
        card = next(card for stacks in view["stacks"] for stack in stacks for card in stack["cards"]
                    if card["card"] == action["card"])
        pig = next(pig for pig in view["pigs"] if pig["food"] == card["food"])
        why = (f"it shrinks the stack that holds the {pig['colour']} pig" if pig["holder"] == action["seat"]
               else "it keeps that stack from beating yours")
        return Hint(f"Play a goat, then tap the highlighted {card['amount']}-{card['name']} card to throw it "
                    f"away: {why}.", action, (GOAT_BUTTON, form_button(action)))


COACH = PiggyPiggyCoach()
