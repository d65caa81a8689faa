"""Snout! taught at the table (games.core.coach): the pass, the toss and the round's end
in a player's words; the first game's hints pass the three highest cards (the picker's
preset, so one tap sends it) and toss whenever the pig is yours.

Targets name ``snout/table.html``: the pass picker's cards and its send button, and the
prompt's buttons.
"""
from __future__ import annotations

from games.core.cards import word_list
from games.core.coach import Coach, Hint, Lesson, form_button, picture
from games.snout.bots import SENSIBLE
from games.snout.pigs import DECK, PIG_BY_KEY, PIGS, card_json, describe
from games.snout.templatetags.board import highest_three

PASS_BUTTON = "#sn-hand .sn-pass button[type=submit]"
LANDS = {"sider": "on its side, no dot", "spotty": "on its side, dot up", "razorback": "on its back",
         "trotter": "standing up", "snouter": "on its snout", "jowler": "on its snout and one ear"}



class SnoutCoach(Coach):
    lesson = Lesson(seats=2, seed=386, bot="sensible", aim="Play your first round to its end.",
                    options={"turn_seconds": 0})

    def samples(self) -> dict:
        """The six positions, one card each, with how the pig lands and how many cards show it."""
        positions = []
        for index, pig in enumerate(PIGS):
            card = DECK.index(index)
            positions.append({**picture(card_json(card)), "cards": pig.cards, "lands": LANDS[pig.key]})
        return {"positions": positions}

    def learned(self, view: dict) -> bool:
        return view["round"] > 1 or view["phase"] in ("round_over", "game_over")

    def now(self, view: dict, legal: list[dict]) -> str:
        phase = view["phase"]
        kinds = {action["type"] for action in legal}
        if phase == "pass":
            if "pass" in kinds:
                return ("Choose three cards to pass to the player on your left; the player on your right "
                        "passes three to you. Pass what you would hate to be left holding: high points.")
            return "Everyone is choosing three cards to pass to the left."
        if phase == "toss":
            if "toss" in kinds:
                return ("You have the pig: toss it. Everyone holding cards of the position it lands in "
                        "throws them all away; everyone else draws a card.")
            return ("Someone else has the pig. When it lands, every card of that position leaves every hand; "
                    "whoever had none draws one. Empty your hand first to win the round.")
        if phase == "snout_window":
            return ("Anyone may call Snout! now: everyone counts the points in hand, and the lowest "
                    "scores the difference. Call it only when your hand is worth very little.")
        if phase == "round_over":
            return ("The round is over: every hand is shown, and the winner scores the points left in the "
                    "other hands (+10). The first to 100 points wins the game.")
        return "The game is over: the most points wins."

    def hint(self, view: dict, legal: list[dict]) -> Hint | None:
        if view["phase"] == "game_over" or view.get("seat") is None:
            return None
        kinds = {action["type"]: action for action in legal}
        if "pass" in kinds:
            chosen = highest_three(view["hand"])
            action = {"type": "pass", "pigs": [card["pig"] for card in chosen]}
            counted = [0] * len(PIGS)
            for card in chosen:
                counted[PIG_BY_KEY[card["pig"]]] += 1
            names = word_list([describe(pig, count) for pig, count in enumerate(counted) if count])
            targets = tuple(f'#sn-hand .sn-pick[data-card="{card["card"]}"]' for card in chosen) + (PASS_BUTTON,)
            return Hint(f"Pass {names}: your highest cards. Points left in your hand when someone else goes out "
                        "are theirs, so send the big ones away.", action, targets)
        if "toss" in kinds:
            hand = view["hand"]
            why = (f"You hold only {describe(PIG_BY_KEY[hand[0]['pig']], len(hand[0]['cards']))}: if it lands "
                   "that way, your hand is empty and the round is yours." if len(hand) == 1 else
                   "If it lands on a position you hold, all those cards go.")
            return Hint(f"You have the pig: toss it! {why}", kinds["toss"], (form_button(kinds["toss"]),))
        if "snout" in kinds:
            action = SENSIBLE.choose(view, legal, None)
            if action["type"] == "snout":
                return Hint("Call Snout!: your hand is worth less than the others are likely to hold.",
                            action, (form_button(action),))
            return Hint("Play on: your hand is still worth too much to call Snout!.", action, (form_button(action),))
        if "next_round" in kinds:
            return Hint("Read the shown hands: the winner scored the points left in the others. "
                        "Then tap Next round.", kinds["next_round"], (form_button(kinds["next_round"]),))
        if view["phase"] == "pass":
            return Hint("Wait for the others to choose their pass.")
        if view["phase"] == "round_over":
            return Hint("Wait for the others to deal on.")
        return Hint("Watch the toss: if the pig lands on a position you hold, those cards leave your hand.")


COACH = SnoutCoach()
