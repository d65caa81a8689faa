"""O9 as engine logic: the clamp's bounds, and simulated races over slow and fast links.

The socket-level race test comes with the platform; here the network is
arithmetic (one-way delays plus random jitter) and the engine judges the race.
"""
import random
import statistics

from hypothesis import given
from hypothesis import strategies as st

from games.oink.cards import OINK
from games.oink.fairness import LAG_CAP_MS, ranked_reaction, too_early

from .helpers import clock, position, slap

TIMES = st.integers(0, 5000)


@given(elapsed=TIMES, claimed=st.none() | TIMES, rtt=st.none() | TIMES)
def test_o9_ranked_reaction_stays_inside_what_the_server_can_confirm(elapsed, claimed, rtt):
    ranked = ranked_reaction(elapsed, claimed, rtt)
    assert max(0, elapsed - min(rtt or 0, LAG_CAP_MS)) <= ranked <= elapsed
    assert ranked_reaction(elapsed, 0, rtt) == ranked_reaction(elapsed, None, rtt) <= ranked


@given(elapsed=TIMES, claimed=TIMES, rtt=TIMES)
def test_o9_claiming_faster_never_ranks_slower(elapsed, claimed, rtt):
    assert ranked_reaction(elapsed, max(0, claimed - 50), rtt) <= ranked_reaction(elapsed, claimed, rtt)


def test_o9_too_early_means_before_one_round_trip():
    assert too_early(199, 200) and not too_early(200, 200) and not too_early(0, None)


def trip(dice: random.Random, one_way: int) -> int:
    """One network trip: the path's delay plus a little jitter (never faster than the path)."""
    return one_way + round(dice.expovariate(1 / 4))


def rtt_estimate(dice: random.Random, one_way: int) -> int:
    """What the socket would report: the 10th percentile of 20 recent pings."""
    pings = sorted(trip(dice, one_way) + trip(dice, one_way) for _ in range(20))
    return pings[1]


def race(dice: random.Random, delays: tuple[int, int], reactions: tuple[int, int]) -> tuple[int, int]:
    """One pig revealed at 1000 ms; both seats slap Oink! honestly. Returns (our winner, arrival winner)."""
    state = position(["dog3", "cow2"], "pig", now=1000)
    arrivals = []
    for seat in (0, 1):
        rtt = rtt_estimate(dice, delays[seat])
        at = 1000 + trip(dice, delays[seat]) + reactions[seat] + trip(dice, delays[seat])
        arrivals.append((at, seat, {"reaction_ms": reactions[seat], "rtt_ms": rtt}))
    for at, seat, reported in sorted(arrivals):
        state = slap(state, seat, OINK, at, **reported)
    if state.verdict is None:
        state = clock(state)
    return state.verdict.taker, min(arrivals)[1]


def test_o9_the_faster_reaction_wins_races_between_fibre_and_a_phone():
    """10 ms and 150 ms one way, reactions 60 ms apart, each side faster half the time, 200 races."""
    dice = random.Random(6)
    ours = arrival = 0
    for n in range(200):
        fast_seat = n % 2
        base = round(dice.uniform(220, 450))
        reactions = (base, base + 60) if fast_seat == 0 else (base + 60, base)
        winner, first = race(dice, (10, 150), reactions)
        ours += winner == fast_seat
        arrival += first == fast_seat
    assert ours >= 190
    assert arrival == 100        # plain arrival order: the fibre player wins every race


def test_o9_a_claim_faster_than_confirmed_gains_nothing_in_a_race():
    """Seat 1 claims 0 ms every time; it wins only when its confirmed reaction really was faster."""
    dice = random.Random(8)
    outcomes = []
    for _ in range(100):
        honest, boaster = round(dice.uniform(220, 450)), round(dice.uniform(220, 450))
        state = position(["dog3", "cow2"], "pig", now=0)
        rtts = (rtt_estimate(dice, 40), rtt_estimate(dice, 40))
        arrive = (trip(dice, 40) + honest + trip(dice, 40), trip(dice, 40) + boaster + trip(dice, 40))
        for seat in sorted((0, 1), key=lambda s: arrive[s]):
            claim = honest if seat == 0 else 0
            state = slap(state, seat, OINK, arrive[seat], reaction_ms=claim, rtt_ms=rtts[seat])
        ranked = {s.seat: s.ranked_ms for s in state.verdict.slaps}
        assert boaster - ranked[1] <= 12, "credit beyond this trip's jitter under the estimate"
        outcomes.append(state.verdict.taker == 1)
    assert 0.3 < statistics.mean(outcomes) < 0.7
