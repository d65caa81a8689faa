"""The Piggy Piggy bots: the sensible one wins or keeps pigs, aims its goats, and beats random play."""
import random

from games.core.playout import play
from games.piggypiggy.bots import BOTS
from games.piggypiggy.engine import ENGINE
from tests.games.piggypiggy.fixtures import goat, table, tokens

SENSIBLE = BOTS["sensible"]


def choice(state, seat=None):
    seat = state.current if seat is None else seat
    return SENSIBLE.choose(ENGINE.view(state, seat), ENGINE.legal_actions(state, seat), random.Random(0))


def test_sensible_plays_the_food_that_wins_a_pig_from_an_opponent():
    state = table(["T1 D2 D1", "C1"], stacks=["", "D2"], pigs={"D": 1})
    assert choice(state) == {"type": "play_food", "food": "donuts"}


def test_sensible_shores_up_a_threatened_pig_when_nothing_can_be_won():
    state = table(["T1 C1", "I1"], stacks=["T2", "T2 C3"], pigs={"T": 0, "C": 1})
    assert choice(state) == {"type": "play_food", "food": "tacos"}


def test_sensible_aims_a_goat_where_it_wins_a_pig():
    state = table(["G", "I1", "I2"], stacks=["T2", "T3 D1", "D3"], pigs={"T": 1, "D": 2})
    action = choice(state)
    assert action["type"] == "goat" and action["seat"] == 1 and tokens(state, [action["card"]]) == "T3"


def test_sensible_aims_a_goat_where_it_takes_a_pig_away_from_an_opponent():
    state = table(["G", "I1", "I2"], stacks=["", "T3 D1", "T1 T2"], pigs={"T": 1})
    action = choice(state)
    assert action["type"] == "goat" and tokens(state, [action["card"]]) == "T3"


def test_sensible_never_aims_a_goat_that_hands_a_pig_to_the_points_leader():
    state = table(["G", "I1", "I2"], stacks=["", "T3", "T2"], pigs={"T": 1}, points=[0, 0, 6])
    action = choice(state)
    assert action["type"] == "goat" and (action["seat"], tokens(state, [action["card"]])) == (2, "T2")


def test_sensible_ends_step_one_when_its_food_is_down_and_it_has_no_goat():
    state = table(["T1 C1", "I1"], stacks=["", "T3"], pigs={"T": 1}, food_played=True)
    assert choice(state) == {"type": "end_play"}


def test_sensible_adds_every_matching_card_when_it_inherits_a_pig():
    state = goat(table(["G I1", "C1", "T1 T2 I2"], stacks=["", "T3", "T2"], pigs={"T": 1}), 1, "T3")
    action = choice(state, seat=2)
    assert action["type"] == "add" and tokens(state, action["cards"]) == "T1 T2"


def test_sensible_beats_random():
    wins = 0
    for seed in range(30):
        seats = [SENSIBLE, BOTS["random"]] if seed % 2 else [BOTS["random"], SENSIBLE]
        result = play(ENGINE, seats, seed)
        wins += result.outcome.ranks[seats.index(SENSIBLE)] == 1
    assert wins >= 22
