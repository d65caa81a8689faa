"""The number players see, the provisional rule, and leavers' placings (pure functions)."""
import pytest
from openskill.models import PlackettLuce

from pigparlor.ratings.scale import MODEL, START, Skill, placings, rate_players


def test_the_start_is_the_models_default_and_reads_1500_provisional():
    assert (START.mu, START.sigma) == (25.0, 25 / 3)
    assert START.rating == 1500 and START.provisional and START.shown == "1500?"


@pytest.mark.parametrize("mu, rating", [(25, 1500), (26, 1548), (24, 1452), (25 + 19 / 48, 1519), (30.2, 1750)])
def test_rating_is_1500_plus_48_per_point_of_mu(mu, rating):
    assert Skill(mu, 2.0).rating == rating


def test_provisional_while_sigma_is_above_two_and_a_half():
    assert Skill(25, 2.5000001).provisional and Skill(25, 2.5000001).shown == "1500?"
    assert not Skill(25, 2.5).provisional and Skill(25, 2.5).shown == "1500"


def test_leaderboard_order_is_the_conservative_mu_minus_three_sigma():
    assert Skill(30, 2).conservative == 24
    assert Skill(28, 1).conservative > Skill(30, 2).conservative


def test_a_leaver_ranks_last_and_several_leavers_tie_for_last():
    assert placings([1, 2, 3, 4], [True, False, False, False]) == [5, 2, 3, 4]
    assert placings([2, 1, 2, 4], [False, True, False, True]) == [2, 5, 2, 5]
    assert placings([1, 2], [False, False]) == [1, 2]


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_each_seat_moves_exactly_as_openskill_rates_it(seats):
    skills = {seat: Skill(20 + seat, 8 - seat) for seat in range(seats)}
    ranks = [seats - seat for seat in range(seats)]
    after = rate_players(list(range(seats)), skills, ranks)
    model = PlackettLuce(limit_sigma=True)
    expected = model.rate([[model.rating(mu=skills[s].mu, sigma=skills[s].sigma)] for s in range(seats)], ranks=ranks)
    assert [(after[s].mu, after[s].sigma) for s in range(seats)] == [(t[0].mu, t[0].sigma) for t in expected]


def test_tied_players_with_equal_ratings_move_alike_and_sigma_never_grows():
    after = rate_players(["a", "b", "c", "d"], {}, [1, 2, 2, 4])
    assert after["b"] == after["c"]
    assert after["a"].mu > after["b"].mu > after["d"].mu
    assert all(skill.sigma <= START.sigma for skill in after.values())


def test_one_account_in_several_seats_sums_its_moves_and_takes_the_least_sigma():
    skills = {"bot": Skill(26, 3)}
    after = rate_players(["ana", "bot", "bot", "bot"], skills, [4, 1, 2, 3])
    teams = [[MODEL.rating(mu=25, sigma=25 / 3)]] + [[MODEL.rating(mu=26, sigma=3)] for _ in range(3)]
    single = [team[0] for team in MODEL.rate(teams, ranks=[4, 1, 2, 3])]
    assert after["bot"].mu == pytest.approx(26 + sum(r.mu - 26 for r in single[1:]))
    assert after["bot"].sigma == min(r.sigma for r in single[1:])
    assert after["ana"] == Skill(single[0].mu, single[0].sigma)


def test_an_unrated_seat_plays_at_the_start_and_is_not_returned():
    after = rate_players(["ana", None], {}, [1, 2])
    assert list(after) == ["ana"] and after["ana"].mu > START.mu
