"""The Snout! engine: the Pass the Pigs card game behind the engine contract.

The rules live in ``rules.py`` (transitions) and ``scoring.py`` (points); the
state and its JSON form in ``state.py``; what each seat sees in ``views.py``.
This module checks who may do what and dispatches.
"""
from __future__ import annotations

from games.core import Engine, IllegalAction, Option, Outcome, Progress, legal_match, ranks_from_scores
from games.core.contract import TURN_SECONDS
from games.snout import rules, views
from games.snout import state as states
from games.snout.pigs import PIG_BY_KEY, PIGS
from games.snout.state import Phase, SnoutState

TOSS = {"type": "toss"}
SNOUT = {"type": "snout"}
PLAY_ON = {"type": "play_on"}
NEXT_ROUND = {"type": "next_round"}
CLOCK = {"type": "clock"}


class SnoutEngine(Engine[SnoutState]):
    slug = "snout"
    title = "Snout!"
    min_seats = 2
    max_seats = 6
    phase_names = {"pass": "Everyone chooses three cards to pass", "snout_window": "Anyone may call Snout! now",
                   "round_over": "Round over: read the hands"}
    options = (
        Option("toss_odds", "choice", "kern", "Pig odds", choices=("kern", "cards"),
               choice_labels=("Like a real pig", "Like the cards"),
               help="How often the pig lands each way: as a real plastic pig lands (counted over "
                    "thousands of tosses), or in proportion to the position cards (18, 16, 10, 5, 2, 1)."),
        Option("early_snout", "bool", False, "Early Snout",
               help="After each toss anyone may call Snout: fewest points in hand wins the round."),
        TURN_SECONDS,
    )

    def start(self, seats: int, seed: int, options: dict | None = None) -> SnoutState:
        self.check_seats(seats)
        chosen = self.clean_options(options)
        return rules.new_game(seats, seed, chosen["toss_odds"], chosen["early_snout"], chosen["turn_seconds"])

    def legal_actions(self, state: SnoutState, seat: int) -> list[dict]:
        if state.phase is Phase.PASS:
            if state.passes[seat]:
                return []
            return [{"type": "pass", "pigs": [PIGS[pig].key for pig in choice]}
                    for choice in rules.pass_options(state.hands[seat])]
        if state.phase is Phase.TOSS:
            return [dict(TOSS)] if seat == state.tosser else []
        if state.phase is Phase.SNOUT_WINDOW:
            return [] if state.done[seat] else [dict(SNOUT), dict(PLAY_ON)]
        if state.phase is Phase.ROUND_OVER:
            return [] if state.done[seat] else [dict(NEXT_ROUND)]
        return []

    def apply(self, state: SnoutState, seat: int | None, action: dict, now_ms: int) -> SnoutState:
        if not isinstance(action, dict):
            raise IllegalAction("an action is a JSON object")
        if state.phase is Phase.GAME_OVER:
            raise IllegalAction("the game is over")
        if seat is None:
            return self._clock(state, action, now_ms)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.seats:
            raise IllegalAction("no such seat")
        matched = legal_match(_canonical(action), self.legal_actions(state, seat))
        if matched is None:
            raise IllegalAction("that is not something you can do now")
        action = matched
        kind = action["type"]
        if kind == "pass":
            return rules.choose_pass(state, seat, tuple(PIG_BY_KEY[key] for key in action["pigs"]), now_ms)
        if kind == "toss":
            return rules.toss_pig(state, now_ms)
        if kind == "snout":
            return rules.call_snout(state, seat, now_ms)
        if kind == "play_on":
            return rules.play_on(state, seat, now_ms)
        return rules.ready(state, seat, now_ms)

    def _clock(self, state: SnoutState, action: dict, now_ms: int) -> SnoutState:
        if action != CLOCK:
            raise IllegalAction("only the clock acts without a seat")
        if state.deadline is None or not isinstance(now_ms, int) or now_ms < state.deadline:
            raise IllegalAction("nothing is due yet")
        if state.phase is Phase.PASS:
            return rules.pass_timeout(state, now_ms)
        if state.phase is Phase.TOSS:
            return rules.toss_pig(state, now_ms)  # S6: the turn timer tosses for a slow player
        if state.phase is Phase.SNOUT_WINDOW:
            return rules.close_window(state, now_ms)
        return rules.next_round(state, now_ms)

    def view(self, state: SnoutState, seat: int | None) -> dict:
        return views.view(state, seat)

    def progress(self, state: SnoutState) -> Progress:
        """The round, and the top score against the score that ends the game (S9)."""
        return Progress(round=state.round, target=rules.TARGET, leading=max(state.scores, default=None))

    def hidden_cards(self, state: SnoutState, seat: int | None) -> frozenset[int]:
        return views.hidden_cards(state, seat)

    def next_deadline(self, state: SnoutState) -> int | None:
        return state.deadline

    def clock_plays_for(self, state: SnoutState) -> frozenset[int]:
        """S3: everyone who has not chosen their pass; S6: the tosser. The Snout window
        and the pause after a round end on their own: nobody missed a turn there."""
        if state.phase is Phase.PASS:
            return frozenset(seat for seat in range(state.seats) if not state.passes[seat])
        return frozenset({state.tosser}) if state.phase is Phase.TOSS else frozenset()

    def outcome(self, state: SnoutState) -> Outcome | None:
        if state.phase is not Phase.GAME_OVER:
            return None
        return Outcome(ranks_from_scores(state.scores), state.scores)

    def dump(self, state: SnoutState) -> dict:
        return states.dump(state)

    def load(self, data: dict) -> SnoutState:
        return states.load(data)


def _canonical(action: dict) -> dict:
    """A pass may name its positions in any order; compare it in ``PIGS`` order."""
    keys = action.get("pigs")
    if action.get("type") == "pass" and isinstance(keys, list) and all(
            isinstance(key, str) and key in PIG_BY_KEY for key in keys):
        return {**action, "pigs": sorted(keys, key=PIG_BY_KEY.__getitem__)}
    return action


ENGINE = SnoutEngine()
