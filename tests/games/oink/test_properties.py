"""Property tests: random play with random slaps at random times, for 2–6 seats.

Each example plays one whole game: at every step either a random seat tries a
random action (legal or not: stale, doubled, a flip out of turn) at a random
time, with random reported reaction and round-trip times, or the clock fires
at its deadline. After every step: all 90 cards are accounted for (88 in play
with 4 players), no view shows a card that has not been revealed, dump/load
round-trips through JSON, and refused actions change nothing. At the end the
log replays to the same state.
"""
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import IllegalAction
from games.core.playout import replay
from games.core.viewcheck import cards_in_view
from games.oink.engine import ENGINE
from games.oink.state import Phase

OPTIONS = st.fixed_dictionaries({
    "penalty_card": st.booleans(),
    "turn_seconds": st.sampled_from([1, 2, 6]),
    "reveal_gap_ms": st.sampled_from([500, 900, 1200]),
})


def reported(dice: random.Random) -> dict:
    fields = {}
    if dice.random() < 0.7:
        fields["reaction_ms"] = dice.randint(0, 1500)
    if dice.random() < 0.7:
        fields["rtt_ms"] = dice.randint(0, 700)
    return fields


def attempt(state, seats: int, dice: random.Random):
    """A random seat and something it tries: mostly legal moves, sometimes not."""
    seat = dice.randrange(seats)
    legal = ENGINE.legal_actions(state, seat)
    roll = dice.random()
    if legal and roll < 0.75:
        action = dict(dice.choice(legal))
        if action["type"] == "slap":
            action.update(reported(dice))
        return seat, action
    if roll < 0.9:
        return seat, {"type": "slap", "cry": dice.randrange(7), "pile": max(0, state.pile_id - dice.randint(0, 2))}
    return seat, {"type": "flip"}


def check_position(state, seats: int, seen: set[int]):
    in_play = [c for deck in state.decks for c in deck] + [c for pile in state.won for c in pile] + list(state.pile)
    assert sorted(in_play + list(state.removed)) == list(range(90))
    assert len(in_play) == (88 if seats == 4 else 90)
    assert state.pile_open <= bool(state.pile)
    data = ENGINE.dump(state)
    assert ENGINE.load(json.loads(json.dumps(data))) == state
    hidden = ENGINE.hidden_cards(state, None)
    assert hidden == frozenset(c for deck in state.decks for c in deck) | frozenset(state.removed)
    for viewer in [*range(seats), None]:
        shown = cards_in_view(ENGINE.view(state, viewer))
        assert shown <= seen, "a view shows a card that was never revealed"
        assert not shown & ENGINE.hidden_cards(state, viewer)


@settings(max_examples=15, deadline=None)
@given(seats=st.integers(2, 6), seed=st.integers(0, 2**32), moves=st.integers(0, 2**32), options=OPTIONS)
def test_random_play_with_random_slaps_at_random_times(seats, seed, moves, options):
    dice = random.Random(moves)
    state = ENGINE.start(seats, seed, options)
    now, log, seen = 0, [], set()
    for _ in range(5000):
        if ENGINE.outcome(state) is not None:
            break
        deadline = ENGINE.next_deadline(state)
        assert deadline is not None, "a game in play always has a deadline"
        if dice.random() < 0.6:
            seat, action = attempt(state, seats, dice)
            at = dice.randint(now, max(now, deadline + 100))
        else:
            seat, action, at = None, {"type": "clock"}, max(now, deadline)
        before = json.dumps(ENGINE.dump(state), sort_keys=True)
        try:
            new = ENGINE.apply(state, seat, action, at)
        except IllegalAction:
            bare = {key: value for key, value in action.items() if key not in ("reaction_ms", "rtt_ms")}
            assert seat is not None and bare not in ENGINE.legal_actions(state, seat)
            assert json.dumps(ENGINE.dump(state), sort_keys=True) == before
            continue
        assert json.dumps(ENGINE.dump(state), sort_keys=True) == before
        if new.pile_id > state.pile_id:
            seen.add(new.pile[-1])
        state, now = new, at
        log.append((seat, action, at))
        check_position(state, seats, seen)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and state.phase is Phase.OVER
    assert list(outcome.scores) == [len(pile) for pile in state.won]
    assert replay(ENGINE, seats, seed, options, log) == state
