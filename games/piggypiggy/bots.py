"""Piggy Piggy bots: a random one and a sensible one.

The sensible bot reads only its view (public stacks and pigs, its own hand):
it plays the food that wins a pig, else the one that shores up a pig it
holds, else its biggest portion; then it aims goats where they take a pig
away from an opponent or win one (failing that, at a pig holder's stack,
since a goat kept in hand only blocks a draw, but never where it hands a pig
to a stronger opponent); and it adds every matching card when it inherits a
pig (PG5).
"""
from __future__ import annotations

from dataclasses import dataclass

from games.core.bots import Bot, CarelessBot, RandomBot
from games.piggypiggy.rules import strict_leader

EASY_SLIP = 0.35  # the easy level: how often it plays any legal move instead of its best

# A pig held by an opponent costs us this much, plus one per point they have: hurt the leader first.
OPPONENT_PIG = 3
OWN_PIG = 10
# Shore up a held pig when the nearest rival is within this much food.
THREATENED_MARGIN = 3


@dataclass
class Position:
    """The public table as plain numbers: ``totals[food][seat]``, ``holders[food]``, ``points[seat]``."""

    me: int
    totals: list[list[int]]
    holders: list[int | None]
    points: list[int]

    @classmethod
    def from_view(cls, view: dict) -> Position:
        foods = [food["food"] for food in view["foods"]]
        totals = [[0] * len(view["stacks"]) for _ in foods]
        for seat, stacks in enumerate(view["stacks"]):
            for food, stack in enumerate(stacks):
                totals[food][seat] = stack["total"]
        return cls(view["you"], totals, [pig["holder"] for pig in view["pigs"]],
                   [pile["count"] for pile in view["points"]])

    def copy(self) -> Position:
        return Position(self.me, [list(row) for row in self.totals], list(self.holders), list(self.points))

    def give(self, food: int, seat: int | None) -> None:
        old = self.holders[food]
        if seat is not None and old is not None and old != seat:
            self.totals[food][old] = 0  # the old holder discards that stack
        self.holders[food] = seat

    def after_goat(self, food: int, seat: int, amount: int) -> Position:
        """PG5 as the view lets us foresee it (an inheritor's additions are unknown): only the
        pig of the stack the goat hits moves; any other waits for a step 2 (PG6)."""
        position = self.copy()
        position.totals[food][seat] -= amount
        leader = strict_leader(position.totals[food])
        if position.holders[food] == seat and leader != seat:
            position.give(food, leader)
        return position

    def after_play(self, food: int, amount: int) -> Position:
        position = self.copy()
        position.totals[food][self.me] += amount
        return position

    def after_step_two(self) -> Position:
        position = self.copy()
        for food, row in enumerate(position.totals):
            if strict_leader(row) == self.me:
                position.give(food, self.me)
        return position

    def value(self) -> int:
        """What the pigs are worth to us once our step 2 is done."""
        settled = self.after_step_two()
        worth = 0
        for holder in settled.holders:
            if holder == self.me:
                worth += OWN_PIG
            elif holder is not None:
                worth -= OPPONENT_PIG + settled.points[holder]
        return worth

    def threatened(self, food: int) -> bool:
        if self.holders[food] != self.me:
            return False
        rivals = [total for seat, total in enumerate(self.totals[food]) if seat != self.me]
        return self.totals[food][self.me] - max(rivals) <= THREATENED_MARGIN


class SensibleBot(Bot):
    kind = "sensible"
    level = "Sensible"
    level_help = "Plays the food that wins or guards a pig, and goats the stacks that matter."

    def choose(self, view, legal, rng):
        if not legal:
            return None
        if legal[0]["type"] == "add":
            return max(legal, key=lambda action: len(action["cards"]))
        position = Position.from_view(view)
        foods = [food["food"] for food in view["foods"]]
        in_hand = [0] * len(foods)
        for card in view["hand"]:
            if not card["goat"]:
                in_hand[foods.index(card["food"])] += card["amount"]
        plays = [action for action in legal if action["type"] == "play_food"]
        if plays:
            def merit(action):
                food = foods.index(action["food"])
                return (position.after_play(food, in_hand[food]).value(), position.threatened(food), in_hand[food])
            return max(plays, key=merit)
        amounts = {card["card"]: (foods.index(stack["food"]), card["amount"])
                   for stacks in view["stacks"] for stack in stacks for card in stack["cards"]}
        goats = [action for action in legal if action["type"] == "goat"]
        if not goats:
            return {"type": "end_play"}

        def merit(action):
            food, amount = amounts[action["card"]]
            target = action["seat"]
            pig_holder = position.holders[food] == target
            return (position.after_goat(food, target, amount).value(), pig_holder, position.points[target], amount)
        best = max(goats, key=merit)
        # A goat kept in hand only blocks a draw, so use it unless every target leaves us worse off.
        return best if merit(best)[0] >= position.value() else {"type": "end_play"}


SENSIBLE = SensibleBot()
BOTS = {"easy": CarelessBot(SENSIBLE, EASY_SLIP), "sensible": SENSIBLE, "random": RandomBot()}
