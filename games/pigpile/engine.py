"""Pig Pile (R&R Games, 2001) as a pure rules engine: ``ENGINE`` is the entry point.

The rules live in small helpers — ``cards`` (the deck table), ``state`` (the
frozen state and its JSON), ``rules`` (legal actions), ``rounds`` (deal, face-up
choice, scoring), ``turns`` (plays, washes, specials) and ``views``. Ruling ids
(PP1…PP21) refer to ``shared/rules/pigpile.md``.
"""
from __future__ import annotations

from games.core import Engine, IllegalAction, Option, Outcome, Progress, Rng, legal_match, ranks_from_scores
from games.core.contract import TURN_SECONDS, turn_limit_ms
from games.pigpile import turns, views
from games.pigpile.rounds import CHOOSE_SECONDS, choose_face_up, choose_for_the_slow, new_game
from games.pigpile.rules import legal_actions, safe_action
from games.pigpile.state import ROUNDS, Phase, PigPileState, dump_state, load_state, with_event

CLOCK = {"type": "clock"}


class PigPileEngine(Engine[PigPileState]):
    slug = "pigpile"
    title = "Pig Pile"
    min_seats = 3
    max_seats = 6
    phase_names = {"choose": "Everyone chooses three cards to lay face up"}
    options = (
        Option("greased_pig_start", "bool", False, "Greased Pig Start",
               help="In the first round everyone's three face-up cards are dealt at random instead of chosen."),
        Option("three_player_last_gets_one", "bool", False, "3 players: the last player gets a pig",
               help="In a three-player game, the player still holding cards when a round ends gets "
                    "1 pig instead of none."),
        TURN_SECONDS,
    )

    def start(self, seats: int, seed: int, options: dict | None = None) -> PigPileState:
        self.check_seats(seats)
        return new_game(seats, seed, self.clean_options(options), Rng.from_seed(seed))

    def legal_actions(self, state: PigPileState, seat: int) -> list[dict]:
        return legal_actions(state, seat)

    def apply(self, state: PigPileState, seat: int | None, action: dict, now_ms: int) -> PigPileState:
        if not isinstance(action, dict):
            raise IllegalAction("an action is a JSON object")
        if state.phase is Phase.OVER:
            raise IllegalAction("the game is over")
        if seat is None:
            return self._clock(state, action, now_ms)
        legal = legal_actions(state, seat)
        if not legal:
            raise IllegalAction("it is not your turn")
        chosen = legal_match(action, legal)
        if chosen is None:
            raise IllegalAction("that play is not allowed now")
        return _perform(state, seat, chosen, now_ms)

    def _clock(self, state: PigPileState, action: dict, now_ms: int) -> PigPileState:
        deadline = self.next_deadline(state)
        if action != CLOCK:
            raise IllegalAction("only the clock acts without a seat")
        if deadline is None or now_ms < deadline:
            raise IllegalAction("no timer has run out")
        if state.phase is Phase.CHOOSE:
            return choose_for_the_slow(state, now_ms)
        seat = state.turn
        state = with_event(state, seat, "ran out of time")  # PP21
        return _perform(state, seat, safe_action(state, seat), now_ms)

    def view(self, state: PigPileState, seat: int | None) -> dict:
        return views.view(state, seat)

    def progress(self, state: PigPileState) -> Progress:
        """The round of the five the game plays."""
        return Progress(round=state.round, rounds=ROUNDS)

    def hidden_cards(self, state: PigPileState, seat: int | None) -> frozenset[int]:
        return views.hidden_cards(state, seat)

    def next_deadline(self, state: PigPileState) -> int | None:
        """The turn timer (or the CHOOSE phase's), counted from when the turn or phase began.

        Without a turn timer the face-up choice still ends after CHOOSE_SECONDS (PP1) and a
        turn after the longest wait (PP21): no table waits for ever on one player.
        """
        if state.phase is Phase.OVER:
            return None
        if state.phase is Phase.CHOOSE and not state.turn_seconds:
            return state.began_ms + CHOOSE_SECONDS * 1000
        return state.began_ms + turn_limit_ms(state.turn_seconds)

    def clock_plays_for(self, state: PigPileState) -> frozenset[int]:
        """PP1: everyone still choosing face-up cards; PP21: the player whose turn it is."""
        if state.phase is Phase.CHOOSE:
            return frozenset(seat for seat in range(state.seats) if not state.face_up[seat])
        return frozenset({state.turn}) if state.phase is Phase.PLAY else frozenset()

    def outcome(self, state: PigPileState) -> Outcome | None:
        if state.phase is not Phase.OVER:
            return None
        return Outcome(ranks=ranks_from_scores(state.pigs), scores=state.pigs)

    def dump(self, state: PigPileState) -> dict:
        return dump_state(state)

    def load(self, data: dict) -> PigPileState:
        return load_state(data)


def _perform(state: PigPileState, seat: int, action: dict, now_ms: int) -> PigPileState:
    """Carry out an action already checked against the legal list."""
    kind = action["type"]
    if kind == "faceup":
        return choose_face_up(state, seat, action["ranks"], now_ms)
    if kind == "play":
        return turns.play(state, seat, action["from"], action["rank"], action["count"], now_ms)
    if kind == "pickup":
        return turns.pick_up(state, seat, now_ms)
    if kind == "pickup_faceup":
        return turns.pick_up_with_face_up(state, seat, action["rank"], action["count"], now_ms)
    return turns.flip_slop(state, seat, action["index"], now_ms)


ENGINE = PigPileEngine()
