"""The deck is data: the stand-in deck of the rulings, a second deck, and the table option that picks one."""
import pytest

from games.core import IllegalAction
from games.core.playout import play
from games.piggypiggy.bots import BOTS
from games.piggypiggy.decks import DECK_OPTION, DECKS, PICNIC, STAND_IN
from games.piggypiggy.engine import ENGINE


def test_the_stand_in_deck_is_the_one_the_rulings_describe():
    assert STAND_IN.stand_in and len(STAND_IN.cards) == 68
    assert [(food.name, food.colour) for food in STAND_IN.foods] == [
        ("ice cream", "pink"), ("tacos", "yellow"), ("donuts", "blue"), ("fries", "red"), ("cookies", "black")]
    for food in range(5):
        amounts = sorted(card.amount for card in STAND_IN.cards if card.food == food)
        assert amounts == [1] * 6 + [2] * 4 + [3] * 2
    assert sum(card.is_goat for card in STAND_IN.cards) == 8


def test_the_second_deck_differs_in_foods_amounts_and_goats():
    assert len(PICNIC.foods) == 3 and not PICNIC.stand_in
    assert max(card.amount for card in PICNIC.cards) == 4
    assert sum(card.is_goat for card in PICNIC.cards) == 6


@pytest.mark.parametrize("deck", sorted(DECKS))
def test_every_deck_names_each_food_and_pig_once(deck):
    foods = DECKS[deck].foods
    assert len({food.key for food in foods}) == len({food.colour for food in foods}) == len(foods)
    assert DECKS[deck].amounts == tuple(card.amount for card in DECKS[deck].cards)


def test_the_table_option_is_a_choice_of_the_decks_with_the_stand_in_by_default():
    assert DECK_OPTION in ENGINE.options
    assert DECK_OPTION.kind == "choice" and set(DECK_OPTION.choices) == set(DECKS)
    assert ENGINE.clean_options({})["deck"] == "stand-in"
    with pytest.raises(IllegalAction):
        ENGINE.start(4, 1, {"deck": "printed"})


@pytest.mark.parametrize("deck", sorted(DECKS))
def test_a_whole_game_plays_on_each_deck(deck):
    state = ENGINE.start(3, 5, {"deck": deck})
    assert len(state.pigs) == len(DECKS[deck].foods)
    assert {card for hand in state.hands for card in hand} <= set(range(len(DECKS[deck].cards)))
    result = play(ENGINE, [BOTS["sensible"]] * 3, 5, {"deck": deck})
    assert result.outcome is not None and result.state.deck == deck
