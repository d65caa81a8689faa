"""The pairing and advancement rules as pure functions (docs/tournaments.md):
every player count from the game's minimum to 64 for tables of 3 to 6."""
import random
from collections import Counter
from itertools import combinations

import pytest

from pigparlor.tournaments.pairing import (
    FINAL,
    NEXT_STAGE,
    ROUND,
    WINNER,
    Player,
    bots_needed,
    bye_points,
    choose_byes,
    competition_places,
    elimination_rounds,
    elimination_step,
    goes_on,
    human_places,
    meetings,
    place_points,
    repeats,
    seat_by_rating,
    split_sizes,
    swiss_round,
    table_points,
)

SIZES = [3, 4, 5, 6]
# The seat ranges of the parlor's games: Pig Pile 3-6, Snout!/Oink!/Piggy Piggy 2-6.
RANGES = [(3, 6), (2, 6)]


def cases():
    for low, high in RANGES:
        for size in SIZES:
            for players in range(low, 65):
                yield low, high, size, players


@pytest.mark.parametrize("low,high", RANGES)
@pytest.mark.parametrize("size", SIZES)
def test_tables_are_as_even_as_the_seat_range_allows(low, high, size):
    for players in range(low, 65):
        sizes = split_sizes(players, size, low, high)
        assert sum(sizes) == players
        assert max(sizes) - min(sizes) <= 1
        if players <= size:
            assert sizes == [players]
        else:
            assert all(low <= each <= high for each in sizes), (players, sizes)
            best = min(max(abs(players // t - size), abs(-(-players // t) - size))
                       for t in range(1, players + 1) if players // t >= low and -(-players // t) <= high)
            assert max(abs(each - size) for each in sizes) == best, (players, sizes)


def test_sixteen_players_of_pig_pile_in_fours_then_a_final_of_four():
    """The issue's example: 16 → four tables → 8 → two tables → 4 → one final table."""
    assert elimination_rounds(16, 4, 2, 3, 6) == [[4, 4, 4, 4], [4, 4], [4]]
    assert elimination_rounds(8, 4, 2, 3, 6, last_stage=False) == [[4, 4]]
    assert elimination_rounds(4, 4, 2, 2, 6) == [[4]]


@pytest.mark.parametrize("low,high", RANGES)
@pytest.mark.parametrize("size", SIZES)
def test_elimination_always_reaches_one_final_table(low, high, size):
    for advance in range(1, size):
        for players in range(low, 65):
            rounds = elimination_rounds(players, size, advance, low, high)
            assert rounds, (players, size, advance)
            assert len(rounds[-1]) == 1 and rounds[-1][0] <= high
            assert all(len(sizes) > 1 for sizes in rounds[:-1]), rounds
            counts = [sum(sizes) for sizes in rounds]
            assert counts[0] == players
            assert all(later < earlier for earlier, later in zip(counts, counts[1:])), counts
            for sizes in rounds[:-1]:
                assert all(low <= each <= high for each in sizes)


def test_elimination_steps():
    assert elimination_step(8, 2, True, 0) == ROUND
    assert elimination_step(4, 1, True, 1) == FINAL
    assert elimination_step(5, 1, True, 0) == FINAL  # five fit one table of Pig Pile
    assert elimination_step(4, 1, False, 1) == NEXT_STAGE
    assert elimination_step(4, 1, False, 0) == ROUND  # a stage plays at least one round
    assert elimination_step(1, 1, True, 2) == WINNER
    assert goes_on(4, 2) == 2 and goes_on(3, 3) == 2 and goes_on(2, 1) == 1


@pytest.mark.parametrize("low,high", RANGES)
@pytest.mark.parametrize("size", SIZES)
def test_seeding_seats_everyone_once_and_spreads_the_strong(low, high, size):
    for players in range(low, 65):
        field = [Player(key, rating=2000 - key) for key in range(players)]
        sizes = split_sizes(players, size, low, high)
        tables = seat_by_rating(field, sizes)
        seated = [key for table in tables for key in table]
        assert sorted(seated) == list(range(players))
        assert [len(table) for table in tables] == sizes
        # The top seeds sit at different tables.
        assert len({next(i for i, t in enumerate(tables) if key in t) for key in range(len(sizes))}) == len(sizes)


def play_swiss(players: int, size: int, rounds: int, seed: int):
    """A Swiss of random results; yields each round's (field, met, tables, byes)."""
    rng = random.Random(seed)
    field = {key: Player(key, rating=1500 + rng.randrange(-300, 300)) for key in range(players)}
    history = []
    for _ in range(rounds):
        met = meetings(history)
        tables, byes = swiss_round(list(field.values()), met, size)
        yield dict(field), met, tables, byes
        history.append(tables)
        for table in tables:
            order = table[:]
            rng.shuffle(order)
            for place, key in enumerate(order, start=1):
                old = field[key]
                field[key] = Player(key, old.rating, old.points + place_points(place, len(table), size), old.byes)
        for key in byes:
            old = field[key]
            field[key] = Player(key, old.rating, old.points + bye_points(size), old.byes + 1)


def naive(field: dict, size: int, byes: list[int]) -> list[list[int]]:
    order = [p.key for p in sorted(field.values(), key=lambda p: (-p.points, -p.rating, p.key)) if p.key not in byes]
    return [order[i:i + size] for i in range(0, len(order) - len(order) % size, size)]


@pytest.mark.parametrize("size", SIZES)
def test_swiss_seats_everyone_once_with_fair_byes_and_fewest_repeats(size):
    for players in range(2, 65):
        for field, met, tables, byes in play_swiss(players, size, rounds=4, seed=players * 10 + size):
            seated = [key for table in tables for key in table]
            assert len(seated) == len(set(seated)), "no one seated twice in a round"
            assert sorted(seated + byes) == list(range(players))
            if players > size:
                assert all(len(table) == size for table in tables)
                assert len(byes) == players % size
            else:
                assert len(tables) == (1 if players > 1 else 0)
            # Byes are fair: no second bye while someone still has none.
            others = [player.byes for player in field.values() if player.key not in byes]
            if byes:
                assert max(field[key].byes for key in byes) <= min(others)
            # Repeats: never more than seating straight down the standings.
            if players > size:
                assert repeats(tables, met) <= repeats(naive(field, size, byes), met)
            if not met:
                assert repeats(tables, met) == 0


@pytest.mark.parametrize("size", SIZES)
def test_the_second_swiss_round_repeats_no_one_once_there_are_enough_tables(size):
    for players in range(size * size, 65):
        rounds = list(play_swiss(players, size, rounds=2, seed=players))
        _, met, tables, _ = rounds[1]
        assert repeats(tables, met) == 0, (players, tables)


def test_byes_go_to_the_lowest_without_one():
    field = [Player(1, 1500, 3.0), Player(2, 1500, 0.0, byes=1), Player(3, 1400, 0.0), Player(4, 1600, 0.0)]
    assert choose_byes(field, 1) == [3]
    assert choose_byes(field, 2) == [3, 4]
    assert choose_byes(field, 0) == []


def test_points_per_place_scaled_for_other_sizes_and_shared_on_ties():
    assert [place_points(p, 4, 4) for p in (1, 2, 3, 4)] == [3, 2, 1, 0]
    assert [place_points(p, 3, 4) for p in (1, 2, 3)] == [3, 1.5, 0]
    assert [place_points(p, 5, 4) for p in (1, 2, 3, 4, 5)] == [3, 2.25, 1.5, 0.75, 0]
    assert [place_points(p, 6, 6) for p in range(1, 7)] == [5, 4, 3, 2, 1, 0]
    assert table_points([1, 1, 3, 4], 4) == [2.5, 2.5, 1, 0]
    assert table_points([1, 2, 3], 3, [10, 4, 0]) == [10, 4, 0]
    assert bye_points(4) == 1.5 and bye_points(3) == 1.0


def test_places_count_humans_only_and_leavers_last():
    # seats: human, bot, human, human; the bot won; seat 0 left (a bot finished for them).
    assert human_places([2, 1, 3, 4], [True, False, False, False], [True, False, True, True]) == [3, None, 1, 2]
    assert human_places([1, 1, 3], [False, False, False], [True, True, True]) == [1, 1, 3]
    assert bots_needed(2, 3) == 1 and bots_needed(4, 3) == 0


def test_competition_places_share_ties():
    assert competition_places([(0,), (0,), (1,), (2,), (2,)]) == [1, 1, 3, 4, 4]


def test_meetings_count_every_pair_once_per_table():
    met = meetings([[[1, 2, 3]], [[1, 2, 4]]])
    assert met == Counter({(1, 2): 2, (1, 3): 1, (2, 3): 1, (1, 4): 1, (2, 4): 1})
    assert repeats([[2, 1, 5]], met) == 2
    assert all(pair in met for pair in combinations([1, 2, 3], 2))
