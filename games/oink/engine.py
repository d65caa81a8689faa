"""Oink! (Abacusspiele, 2014): the rules engine, pure Python, time passed in as ``now_ms``.

Rulings O1–O10 are in shared/rules/oink.md; our decisions for the gaps are
in docs/rules/oink.md. The moves themselves live in ``rules.py``, the fair
ranking of slaps (O9) in ``fairness.py``, the state and its JSON form in
``state.py`` and the views in ``views.py``; this module checks actions and
answers the engine contract.
"""
from __future__ import annotations

from games.core import Engine, IllegalAction, Option, Outcome, Progress, Rng, ranks_from_scores
from games.oink import rules
from games.oink.cards import CRIES, DECK_SIZE
from games.oink.fairness import MAX_REPORTED_MS
from games.oink.state import OinkState, Phase, dump_state, load_state
from games.oink.views import build_view

FLIP_SECONDS = Option(
    "turn_seconds", "int", 5, "Flip timer (seconds)", min=1, max=60,
    help="A player who has not flipped this long after their turn came is flipped for.",
)
"""O2: the shared turn-timer option, but never off: a game must always go on (our decision: 5 s)."""

SLAP_KEYS = {"type", "cry", "pile"}
REPORTED_KEYS = ("reaction_ms", "rtt_ms")


def _whole(value, name: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise IllegalAction(f"{name} must be a whole number from {low} to {high}")
    return value


class OinkEngine(Engine[OinkState]):
    slug = "oink"
    title = "Oink!"
    min_seats = 2
    max_seats = 6
    realtime = True
    phase_names = {"wait": "Watch the pile", "flip": "Watch the pile", "collect": "Slaps are in: judging"}
    options = (
        Option("penalty_card", "bool", False, "Penalty card",
               help="A wrong cry puts a card from your winning pile under the discard pile "
                    "(you make the monkey only if you have none)."),
        FLIP_SECONDS,
        Option("reveal_gap_ms", "int", 1200, "Minimum gap between reveals (ms)", min=500, max=5000,
               help="Time everyone gets to react to a card before the next one may cover it."),
    )

    # -- setting up (O1) -------------------------------------------------------
    def start(self, seats, seed, options=None):
        self.check_seats(seats)
        options = self.clean_options(options)
        rng = Rng.from_seed(seed)
        cards, rng = rng.shuffled(range(DECK_SIZE))
        removed, cards = (cards[:2], cards[2:]) if seats == 4 else ((), cards)
        share = len(cards) // seats
        decks = tuple(tuple(cards[i * share:(i + 1) * share]) for i in range(seats))
        first, rng = rng.below(seats)
        turn_ms = options["turn_seconds"] * 1000
        state = OinkState(
            seats=seats, penalty_card=options["penalty_card"], reveal_gap_ms=options["reveal_gap_ms"],
            turn_ms=turn_ms, rng=rng, decks=decks, won=((),) * seats, removed=tuple(removed), pile=(), under=0,
            pile_id=0, revealed_at=0, pile_open=False, slaps=(), judged=0, phase=Phase.FLIP,
            deadline_at=turn_ms, phase_since=0, flipper=first, round=1, monkeys=(0,) * seats, verdict=None,
            log=(), events=0,
        )
        return rules.logged(state, first, "flips first.")

    # -- what may be done --------------------------------------------------------
    def may_slap(self, state: OinkState, seat: int) -> bool:
        return state.pile_open and all(slap.seat != seat for slap in state.slaps)

    def legal_actions(self, state, seat):
        actions = []
        if state.phase is Phase.FLIP and seat == state.flipper:
            actions.append({"type": "flip"})
        if self.may_slap(state, seat):
            actions.extend({"type": "slap", "cry": cry, "pile": state.pile_id} for cry in range(len(CRIES)))
        return actions

    def apply(self, state, seat, action, now_ms):
        if not isinstance(action, dict):
            raise IllegalAction("an action is a JSON object")
        if not isinstance(now_ms, int) or isinstance(now_ms, bool):
            raise IllegalAction("the time must be whole milliseconds")
        if state.phase is Phase.OVER:
            raise IllegalAction("the game is over")
        if seat is None:
            if action != {"type": "clock"}:
                raise IllegalAction("only the clock acts without a seat")
            if now_ms < state.deadline_at:
                raise IllegalAction("the clock has nothing to do yet")
            return rules.clock(state, now_ms)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.seats:
            raise IllegalAction("no such seat")
        kind = action.get("type")
        if kind == "flip":
            if set(action) - {"type", "rtt_ms"}:
                raise IllegalAction("a flip carries nothing else")
            if action.get("rtt_ms") is not None:
                _whole(action["rtt_ms"], "rtt_ms", 0, MAX_REPORTED_MS)  # added by the platform, unused
            if state.phase is not Phase.FLIP or seat != state.flipper:
                raise IllegalAction("it is not your flip")
            return rules.flip(state, seat, now_ms)
        if kind == "slap":
            return self._slap(state, seat, action, now_ms)
        raise IllegalAction("unknown action")

    def _slap(self, state: OinkState, seat: int, action: dict, now_ms: int) -> OinkState:
        extra = set(action) - SLAP_KEYS - set(REPORTED_KEYS)
        if extra or not SLAP_KEYS <= set(action):
            raise IllegalAction("a slap is {type, cry, pile} with optional reaction_ms and rtt_ms")
        cry = _whole(action["cry"], "cry", 0, len(CRIES) - 1)
        pile = _whole(action["pile"], "pile", 0, 1 << 31)
        claimed, rtt = (None if action.get(key) is None else _whole(action[key], key, 0, MAX_REPORTED_MS)
                        for key in REPORTED_KEYS)
        if pile < state.pile_id:
            raise IllegalAction("late: that card has already been covered")  # O4: no penalty
        if pile > state.pile_id:
            raise IllegalAction("no such pile yet")
        if any(slap.seat == seat for slap in state.slaps):
            raise IllegalAction("you already slapped this pile")  # O4: one slap per pile state
        if not state.pile_open:
            raise IllegalAction("late: the pile has been taken" if state.pile_id else "there is nothing to slap yet")
        return rules.slap(state, seat, cry, claimed, rtt, now_ms)

    # -- time, sight and the end -------------------------------------------------
    def next_deadline(self, state):
        return state.deadline_at

    def clock_plays_for(self, state):
        """O2: only a flip the flipper let run out; the gap and the slap window are nobody's turn."""
        return frozenset({state.flipper}) if state.phase is Phase.FLIP else frozenset()

    def view(self, state, seat):
        return build_view(state, seat)

    def progress(self, state):
        """The round (each ends when a slap takes the pile) and the most cards anyone has won."""
        return Progress(round=state.round, leading=max((len(pile) for pile in state.won), default=None))

    def hidden_cards(self, state, seat):
        """Every card still face down in a deck, and the cards removed with 4 players (O1)."""
        return frozenset(card for deck in state.decks for card in deck) | frozenset(state.removed)

    def outcome(self, state):
        if state.phase is not Phase.OVER:
            return None
        scores = tuple(len(pile) for pile in state.won)
        return Outcome(ranks_from_scores(scores), scores)

    def dump(self, state):
        return dump_state(state)

    def load(self, data):
        return load_state(data)


ENGINE = OinkEngine()
