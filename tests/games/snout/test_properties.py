"""Property tests over random legal play, 2–6 seats, every option: cards are conserved,
every game ends, every round's points add up, replay and dump/load give the same state,
and no view shows another seat's hand or the Pigsty's order in any form."""
import dataclasses
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core.playout import play, replay
from games.core.viewcheck import cards_in_view
from games.snout import pigs
from games.snout.bots import BOTS
from games.snout.engine import ENGINE
from games.snout.rules import TARGET
from games.snout.scoring import EARLY_SNOUT_PENALTY, JOWLER_BONUS, OUT_BONUS
from games.snout.state import End, Phase

ALL_CARDS = list(range(len(pigs.DECK)))

tables = st.fixed_dictionaries({
    "seed": st.integers(0, 2**32 - 1),
    "options": st.fixed_dictionaries({
        "toss_odds": st.sampled_from(["kern", "cards"]),
        "early_snout": st.booleans(),
        "turn_seconds": st.sampled_from([0, 15]),
    }),
    "bots": st.lists(st.sampled_from(sorted(BOTS)), min_size=6, max_size=6),
})


def reshuffled_elsewhere(state, seat, rng):
    """The same table as ``seat`` sees it, with every card it cannot see dealt out afresh:
    other hands keep their sizes and the Pigsty its size, but hold different cards."""
    others = [other for other in range(state.seats) if other != seat]
    unseen = [card for other in others for card in state.hands[other]] + list(state.pigsty)
    rng.shuffle(unseen)
    hands = list(state.hands)
    for other in others:
        hands[other], unseen = tuple(sorted(unseen[:len(hands[other])])), unseen[len(hands[other]):]
    return dataclasses.replace(state, hands=tuple(hands), pigsty=tuple(unseen))


def check_step(state, rng):
    on_table = sorted([card for hand in state.hands for card in hand] + list(state.pigsty) + list(state.pig_pile))
    assert on_table == ALL_CARDS
    assert all(list(hand) == sorted(hand) for hand in state.hands)
    for viewer in [*range(state.seats), None]:
        view = ENGINE.view(state, viewer)
        json.dumps(view)
        hidden = ENGINE.hidden_cards(state, viewer)
        assert not cards_in_view(view) & hidden
        assert len(view["log"]) <= 30 and [e["n"] for e in view["log"]] == sorted({e["n"] for e in view["log"]})
        if viewer is not None and state.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER):
            assert ENGINE.view(reshuffled_elsewhere(state, viewer, rng), viewer) == view


def check_round(result, before):
    """One line of the score sheet, recomputed from the hands shown at the round's end."""
    held = tuple(sum(count * pigs.PIGS[pig].points for pig, count in enumerate(hand)) for hand in result.hands)
    assert held == result.hand_points
    total = sum(held)
    winners = result.winners
    if result.end is End.OUT:
        assert all(held[seat] == 0 for seat in winners)
        share, lost = divmod(total, len(winners))
        assert sum(result.points) == total - lost + OUT_BONUS * len(winners)
        assert all(result.points[seat] == share + OUT_BONUS for seat in winners)
    elif result.end is End.JOWLER:
        (winner,) = winners
        assert result.hands[winner][pigs.JOWLER] == 1
        assert sum(result.points) == total - held[winner] + JOWLER_BONUS
    else:
        assert winners == tuple(seat for seat in range(len(held)) if held[seat] == min(held))
        penalty = 0 if result.caller in winners else EARLY_SNOUT_PENALTY
        assert sum(result.points) == sum(total - 2 * held[seat] for seat in winners) - penalty
        assert result.points[result.caller] <= 0 or result.caller in winners
    assert all(result.points[seat] == 0 for seat in range(len(held))
               if seat not in winners and seat != result.caller)
    assert result.totals == tuple(a + b for a, b in zip(before, result.points))


@pytest.mark.parametrize("seats", range(ENGINE.min_seats, ENGINE.max_seats + 1))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables)
def test_random_play_keeps_every_invariant(seats, table):
    seed, options = table["seed"], table["options"]
    rng = random.Random(seed)
    bots = [BOTS[kind] for kind in table["bots"][:seats]]
    result = play(ENGINE, bots, seed, options, keep_log=True,
                  on_step=lambda state, *_: check_step(state, rng))
    assert result.illegal == 0
    final = result.state
    assert final.phase is Phase.GAME_OVER and result.outcome.scores == final.scores
    totals = (0,) * seats
    for number, line in enumerate(final.results, start=1):
        assert line.number == number
        assert max(totals) < TARGET
        check_round(line, totals)
        totals = line.totals
    assert totals == final.scores and max(totals) >= TARGET
    assert replay(ENGINE, seats, seed, options, result.log) == final
    assert ENGINE.load(json.loads(json.dumps(ENGINE.dump(final)))) == final


@settings(max_examples=8, deadline=None)
@given(seats=st.integers(ENGINE.min_seats, ENGINE.max_seats), table=tables)
def test_apply_never_changes_the_state_it_was_given(seats, table):
    state = ENGINE.start(seats, table["seed"], table["options"])
    rng = random.Random(table["seed"])
    now = 0
    while ENGINE.outcome(state) is None:
        before = json.dumps(ENGINE.dump(state), sort_keys=True)
        movers = [seat for seat in range(seats) if ENGINE.legal_actions(state, seat)]
        if movers:
            seat = rng.choice(movers)
            new = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)), now)
        else:
            now = max(now, ENGINE.next_deadline(state))
            new = ENGINE.apply(state, None, {"type": "clock"}, now)
        assert json.dumps(ENGINE.dump(state), sort_keys=True) == before
        assert ENGINE.load(json.loads(json.dumps(ENGINE.dump(new)))) == new
        state = new
