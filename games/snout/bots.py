"""Snout! bots: the random one, and a sensible one that reads only its own view."""
from __future__ import annotations

import math

from games.core.bots import Bot, CarelessBot, RandomBot
from games.snout.pigs import PIG_BY_KEY, PIGS, TOSS_ODDS

EASY_SLIP = 0.35  # the easy level: how often it plays any legal move instead of its best

# Keeping one more position in hand means one more toss you need before you can go out.
POSITION_COST = 2.0


def toss_chances(view: dict) -> list[float]:
    odds = TOSS_ODDS[view["options"]["toss_odds"]]
    return [weight / sum(odds) for weight in odds]


def hand_counts(view: dict) -> list[int]:
    counts = [0] * len(PIGS)
    for group in view["hand"]:
        counts[PIG_BY_KEY[group["pig"]]] += len(group["cards"])
    return counts


def keep_cost(counts: list[int], chances: list[float]) -> float:
    """How much a hand is expected to hurt: the points of positions unlikely to be
    tossed soon, plus a charge per position still to clear."""
    return sum(count * PIGS[pig].points * (1 - chances[pig]) + POSITION_COST
               for pig, count in enumerate(counts) if count)


def win_chance(view: dict) -> tuple[float, float]:
    """(Chance of holding the fewest points, expected points in the other hands), treating each
    unseen card (Pigsty and other hands) as a draw from the cards this seat has not seen."""
    unseen = [pig.cards for pig in PIGS]
    for pig, count in enumerate(hand_counts(view)):
        unseen[pig] -= count
    for card in view["pig_pile"]:
        unseen[PIG_BY_KEY[card["pig"]]] -= 1
    pool = sum(unseen)
    mean = sum(count * PIGS[pig].points for pig, count in enumerate(unseen)) / pool
    square = sum(count * PIGS[pig].points ** 2 for pig, count in enumerate(unseen)) / pool
    spread = math.sqrt(max(square - mean * mean, 0.0))
    mine = view["hand_points"]
    chance, others = 1.0, 0.0
    for seat, size in enumerate(view["hand_sizes"]):
        if seat == view["seat"]:
            continue
        expected = size * mean
        others += expected
        deviation = spread * math.sqrt(size) or 1.0
        chance *= 0.5 * (1 + math.erf((expected - mine + 0.5) / (deviation * math.sqrt(2))))
    return chance, others


class SensibleBot(Bot):
    """Passes what it is least likely to shed (the Leaning Jowler first, then high cards of rare
    positions) and, with early Snout, calls Snout when doing so wins points on average."""

    kind = "sensible"
    level = "Sensible"
    level_help = "Passes what it is least likely to shed and calls Snout! when the odds favour it."

    def choose(self, view, legal, rng):
        if not legal:
            return None
        kinds = {action["type"] for action in legal}
        if "pass" in kinds:
            return self._pass(view, legal)
        if "snout" in kinds:
            return next(action for action in legal if action["type"] == ("snout" if self._call(view) else "play_on"))
        return legal[0]

    def _pass(self, view, legal):
        chances = toss_chances(view)
        have = hand_counts(view)

        def cost(action):
            left = list(have)
            for key in action["pigs"]:
                left[PIG_BY_KEY[key]] -= 1
            return keep_cost(left, chances)

        return min(legal, key=cost)

    @staticmethod
    def _call(view) -> bool:
        """Call when the expected gain beats the expected 10-point penalty (S10)."""
        chance, others = win_chance(view)
        gain = others - view["hand_points"]
        return chance >= 0.5 and chance * gain > (1 - chance) * 10


SENSIBLE = SensibleBot()
BOTS = {"easy": CarelessBot(SENSIBLE, EASY_SLIP), "sensible": SENSIBLE, "random": RandomBot()}
