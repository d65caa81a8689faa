"""The Pig Pile bots: they pick from the legal actions only, and the sensible one plays like a
careful player — low first, whole sets, washes when offered, Hog Wilds and 8s kept for need."""
import random

import pytest

from games.core.playout import play as playout
from games.pigpile.bots import BOTS
from games.pigpile.engine import ENGINE

from .position import play, position

SENSIBLE = BOTS["sensible"]


def choose(state, seat=0):
    legal = ENGINE.legal_actions(state, seat)
    action = SENSIBLE.choose(ENGINE.view(state, seat), legal, random.Random(1))
    assert action in legal
    return action


def test_plays_its_lowest_number_all_copies_and_keeps_specials():
    assert choose(position(["3 3 7 8 W", "7", "7"], pile="2", draw="1")) == play(3, 2)


def test_takes_the_wash_a_run_offers():
    assert choose(position(["3 6 9", "7", "7"], pile="2 9 9", draw="1")) == play(9)


def test_washes_a_big_pile_with_an_8_but_not_a_small_one():
    assert choose(position(["8 10", "7", "7"], pile="2 3 4 5 6 7", draw="1")) == play(8)
    assert choose(position(["8 10", "7", "7"], pile="6", draw="1")) == play(10)


def test_spends_one_hog_wild_only_when_nothing_else_fits():
    assert choose(position(["2 W W", "7", "7"], pile="9", draw="1")) == play(0, 1)


def test_lays_its_strongest_cards_face_up():
    state = position(["1 2 3 8 12 W 5", "1 2 3 4 5 6 7", "1 2 3 4 5 6 7"], phase=ENGINE.start(3, 1).phase)
    assert sorted(choose(state)["ranks"]) == [0, 8, 12]


def test_waits_when_it_has_nothing_to_do():
    assert SENSIBLE.choose({}, [], random.Random(1)) is None


def test_sensible_beats_random():
    kinds = ["sensible", "random", "sensible", "random"]
    wins = {"sensible": 0.0, "random": 0.0}
    for seed in range(12):
        result = playout(ENGINE, [BOTS[kind] for kind in kinds], seed)
        assert result.illegal == 0
        firsts = [seat for seat, rank in enumerate(result.outcome.ranks) if rank == 1]
        for seat in firsts:
            wins[kinds[seat]] += 1 / len(firsts)
    assert wins["sensible"] > 3 * wins["random"]


@pytest.mark.parametrize("kinds,seed,options", [
    ("sensible sensible random", 1827, {}),
    ("sensible sensible random", 723, {"greased_pig_start": True}),
    ("random sensible random sensible", 18, {"greased_pig_start": True}),
])
def test_pp18_games_where_sensible_bots_went_round_for_ever_now_end(kinds, seed, options):
    """Found by ``simulate --all-seats --all-options`` (issue 10): with the draw pile gone, each
    sensible bot played its usual set, the next one had to pick it up, and nobody ever washed
    or went out. Now and then making another play once the draw pile is gone breaks that."""
    result = playout(ENGINE, [BOTS[kind] for kind in kinds.split()], seed, options, max_actions=20_000)
    assert result.outcome is not None and result.illegal == 0
