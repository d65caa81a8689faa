"""The number players see, the provisional rule, leavers' placings, fixed bots and
the repeat rule (pure functions)."""
from datetime import UTC, datetime, timedelta

import pytest
from openskill.models import PlackettLuce

from pigparlor.ratings.scale import (
    BETA,
    MODEL,
    NEWCOMER,
    PROVISIONAL_GAMES,
    REPEAT_GAMES,
    REPEAT_WINDOW,
    START,
    Skill,
    Standing,
    is_repeat,
    placings,
    rate_players,
)


def test_the_start_is_the_models_default_and_a_newcomer_reads_1500_provisional():
    assert (START.mu, START.sigma) == (25.0, 25 / 3) and BETA == 25 / 3
    assert NEWCOMER.rating == 1500 and NEWCOMER.provisional and NEWCOMER.shown == "1500?"


@pytest.mark.parametrize("mu, rating", [(25, 1500), (26, 1524), (24, 1476), (25 + 19 / 24, 1519), (30.2, 1625)])
def test_rating_is_1500_plus_24_per_point_of_mu(mu, rating):
    assert Skill(mu, 2.0).rating == rating


def test_provisional_for_the_first_twenty_rated_games_and_a_bot_never():
    assert PROVISIONAL_GAMES == 20
    assert Standing(Skill(25, 7), 19).provisional and Standing(Skill(25, 7), 19).shown == "1500?"
    assert not Standing(Skill(25, 7), 20).provisional and Standing(Skill(25, 7), 20).shown == "1500"
    assert not Standing(Skill(25, 1), None).provisional


def test_a_leaver_ranks_last_and_several_leavers_tie_for_last():
    assert placings([1, 2, 3, 4], [True, False, False, False]) == [5, 2, 3, 4]
    assert placings([2, 1, 2, 4], [False, True, False, True]) == [2, 5, 2, 5]
    assert placings([1, 2], [False, False]) == [1, 2]


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_each_seat_moves_exactly_as_openskill_rates_it(seats):
    skills = {seat: Skill(20 + seat, 8 - seat) for seat in range(seats)}
    ranks = [seats - seat for seat in range(seats)]
    after = rate_players(list(range(seats)), skills, ranks)
    model = PlackettLuce(beta=25 / 3, limit_sigma=True)
    expected = model.rate([[model.rating(mu=skills[s].mu, sigma=skills[s].sigma)] for s in range(seats)], ranks=ranks)
    assert [(after[s].mu, after[s].sigma) for s in range(seats)] == [(t[0].mu, t[0].sigma) for t in expected]


def test_tied_players_with_equal_ratings_move_alike_and_sigma_never_grows():
    after = rate_players(["a", "b", "c", "d"], {}, [1, 2, 2, 4])
    assert after["b"] == after["c"]
    assert after["a"].mu > after["b"].mu > after["d"].mu
    assert all(skill.sigma <= START.sigma for skill in after.values())


def test_fixed_seats_take_part_at_their_skill_and_never_move():
    bots = {("bot", 1): Skill(30, 1), ("bot", 2): Skill(30, 1), ("bot", 3): Skill(30, 1)}
    after = rate_players(["ana", ("bot", 1), ("bot", 2), ("bot", 3)], bots, [2, 1, 3, 4],
                         fixed=frozenset({1, 2, 3}))
    teams = [[MODEL.rating()]] + [[MODEL.rating(mu=30, sigma=1)] for _ in range(3)]
    expected = MODEL.rate(teams, ranks=[2, 1, 3, 4])[0][0]
    assert after == {"ana": Skill(expected.mu, expected.sigma)}


def test_a_seat_that_left_early_is_rated_against_everyone_and_feeds_nobody():
    skills = {"bot": Skill(25, 1)}
    after = rate_players(["host", "alt", "bot"], skills, [1, 3, 2], left_early=frozenset({1}), fixed=frozenset({2}))
    alone = MODEL.rate([[MODEL.rating()], [MODEL.rating(mu=25, sigma=1)]], ranks=[1, 2])[0][0]
    everyone = MODEL.rate([[MODEL.rating()], [MODEL.rating()], [MODEL.rating(mu=25, sigma=1)]], ranks=[1, 3, 2])[1][0]
    assert after == {"host": Skill(alone.mu, alone.sigma), "alt": Skill(everyone.mu, everyone.sigma)}
    # Two seats, one of them gone at once: the one who stayed is rated against nobody.
    assert list(rate_players(["host", "alt"], {}, [1, 3], left_early=frozenset({1}))) == ["alt"]


def test_an_unrated_seat_plays_at_the_start_and_is_not_returned():
    after = rate_players(["ana", None], {}, [1, 2])
    assert list(after) == ["ana"] and after["ana"].mu > START.mu


def test_the_same_people_count_three_games_within_any_24_hours_before_or_after():
    now = datetime(2026, 12, 3, 12, tzinfo=UTC)
    pair = frozenset({1, 2})
    three = [now - timedelta(hours=23), now - timedelta(hours=1), now + timedelta(hours=2)]
    assert REPEAT_GAMES == 3 and REPEAT_WINDOW == timedelta(hours=24)
    assert is_repeat(pair, now, three)
    assert not is_repeat(pair, now, three[:2])
    assert not is_repeat(pair, now, [now - timedelta(hours=24), *three[1:]])  # a day ago no longer counts
    assert not is_repeat(frozenset({1}), now, three)  # one person and bots: bots' ratings do not move
