"""Pig Pile bots. They see only their seat's view and legal actions.

The sensible bot plays low and sheds whole sets, keeps Hog Wilds and Hog Wash
8s for when they pay (a big pile to wash, or nothing else to play), takes any
wash a run of three offers, and lays its strongest cards face up. Once the
draw pile is gone it now and then makes another play: without it a table of
such bots could pass the same cards round for ever (each plays its usual
set, the next picks it up, and nobody ever washes or goes out).
"""
from __future__ import annotations

from games.core.bots import Bot, CarelessBot, RandomBot
from games.pigpile.cards import HOG_WASH, WILD
from games.pigpile.rules import strength

EASY_SLIP = 0.35  # the easy level: how often it plays any legal move instead of its best

BIG_PILE = 5
ENDGAME_WHIM = 0.2  # how often, once the draw pile is gone, it plays something else than its best


class SensibleBot(Bot):
    kind = "sensible"
    level = "Sensible"
    level_help = "Plays low, sheds whole sets, keeps its 8s and Hog Wilds for when they pay."

    def choose(self, view, legal, rng):
        if not legal:
            return None
        kind = legal[0]["type"]
        if kind == "faceup":
            return max(legal, key=face_up_score)
        if kind == "slop":
            return rng.choice(legal)
        if kind == "pickup_faceup":
            # Take the weakest face-up number back to the hand; the strong ones stay for later.
            return min(legal, key=lambda action: (strength(action["rank"]), -action["count"]))
        if kind == "pickup":
            return legal[0]
        if view["draw_count"] == 0 and len(legal) > 1 and rng.random() < ENDGAME_WHIM:
            return rng.choice(legal)
        return max(legal, key=lambda action: play_score(view, action))


def face_up_score(action: dict) -> tuple:
    ranks = action["ranks"]
    pairs = len(ranks) - len(set(ranks))
    return sum(strength(rank) for rank in ranks) + 2 * pairs, ranks


def play_score(view: dict, action: dict) -> float:
    rank, count = action["rank"], action["count"]
    run = view["run"]
    on_top = run["count"] if run and run["rank"] == rank else 0
    pile = len(view["pile"])
    if rank == WILD:
        # Three Hog Wilds in a row wash; otherwise a Hog Wild is the last resort. Spend one at a time.
        return (10 if on_top + count >= 3 else -60) - count
    if rank == HOG_WASH:
        return (20 + pile if pile >= BIG_PILE else -40) - count
    if on_top + count >= 3:
        return 100 + count + pile  # a wash: the pile is gone and the turn goes on
    return 40 - 3 * rank + count


SENSIBLE = SensibleBot()
BOTS = {"easy": CarelessBot(SENSIBLE, EASY_SLIP), "sensible": SENSIBLE, "random": RandomBot()}
