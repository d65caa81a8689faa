"""Property tests over random legal play, 3–6 seats, random and sensible bots, with and without
a turn timer (the clock then fires at random moments instead of a bot)."""
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core.playout import replay
from games.core.viewcheck import cards_in_view
from games.pigpile.bots import BOTS
from games.pigpile.cards import CARD_COUNT
from games.pigpile.engine import ENGINE
from games.pigpile.state import PEN, Phase

MAX_ACTIONS = 20_000


def where_cards_are(state):
    return [*(card for seat in range(state.seats)
              for card in (*state.hands[seat], *state.face_up[seat], *state.slop[seat])),
            *state.draw, *state.pile, *state.washed]


def check_invariants(state):
    assert sorted(where_cards_are(state)) == list(range(CARD_COUNT))  # all 80 accounted for
    assert sum(state.pigs) + state.pen == PEN and state.pen >= 0
    assert ENGINE.load(json.loads(json.dumps(ENGINE.dump(state)))) == state
    for viewer in [*range(state.seats), None]:
        view = ENGINE.view(state, viewer)
        shown = cards_in_view(view)
        assert not shown & ENGINE.hidden_cards(state, viewer)
        others = {card for seat in range(state.seats) if seat != viewer for card in state.hands[seat]}
        slop = {card for cards in state.slop for card in cards}
        assert not shown & (others | slop | set(state.draw))
        text = json.dumps(view)
        assert "\"draw\"" not in text  # the draw pile only as a count
        if viewer is None:
            assert view["hand"] is None
        if state.phase is Phase.CHOOSE:
            assert all(not player["face_up"] for player in view["players"] if player["seat"] != viewer)


def run_game(seats, seed, kinds, options, check_every):
    state = ENGINE.start(seats, seed, options)
    rng = random.Random(seed)
    now = 0
    log = []
    while ENGINE.outcome(state) is None:
        assert len(log) < MAX_ACTIONS, "the game did not end"
        if len(log) % check_every == 0:
            check_invariants(state)
        movers = [seat for seat in range(seats) if ENGINE.legal_actions(state, seat)]
        deadline = ENGINE.next_deadline(state)
        if deadline is not None and (not movers or rng.random() < 0.05):
            seat, action, now = None, {"type": "clock"}, max(now, deadline)
        else:
            assert movers, "nobody can act and there is no deadline"
            seat = rng.choice(movers)
            legal = ENGINE.legal_actions(state, seat)
            action = BOTS[kinds[seat]].choose(ENGINE.view(state, seat), legal, rng)
            assert action in legal
            now += rng.randrange(0, 3000)
        before = json.dumps(ENGINE.dump(state), sort_keys=True)
        after = ENGINE.apply(state, seat, action, now)
        assert json.dumps(ENGINE.dump(state), sort_keys=True) == before  # apply never mutates
        log.append((seat, action, now))
        state = after
    check_invariants(state)
    assert state.phase is Phase.OVER and state.round == 5
    assert replay(ENGINE, seats, seed, options, log) == state
    return state


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(3, 6), seed=st.integers(0, 2 ** 32), data=st.data(),
       options=st.fixed_dictionaries({"turn_seconds": st.sampled_from([0, 0, 5]), "greased_pig_start": st.booleans(),
                                      "three_player_last_gets_one": st.booleans()}))
def test_random_legal_play_keeps_every_invariant(seats, seed, data, options):
    kinds = data.draw(st.lists(st.sampled_from(["random", "sensible"]), min_size=seats, max_size=seats))
    run_game(seats, seed, kinds, options, check_every=3)


@settings(max_examples=20, deadline=None)
@given(seats=st.integers(3, 6), seed=st.integers(0, 2 ** 32))
def test_sensible_games_end_and_replay(seats, seed):
    state = run_game(seats, seed, ["sensible"] * seats, {}, check_every=50)
    assert max(state.pigs) > 0
