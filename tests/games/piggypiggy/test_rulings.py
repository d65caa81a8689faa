"""A test per Piggy Piggy ruling (PG1–PG12, PG4/PG5 in test_goat_faq.py), each from a concrete position."""
import pytest

from games.core import IllegalAction
from games.core.contract import UNTIMED_LIMIT_SECONDS
from games.core.viewcheck import cards_in_view
from games.piggypiggy.decks import DECKS
from games.piggypiggy.engine import ENGINE
from games.piggypiggy.state import Phase
from tests.games.piggypiggy.fixtures import end_play, goat, hand, holder, play, stack, table, tokens


@pytest.mark.parametrize("deck", sorted(DECKS))
@pytest.mark.parametrize("seats", [2, 4, 6])
def test_pg1_five_cards_each_the_rest_is_the_draw_pile_and_the_pigs_start_in_the_middle(deck, seats):
    state = ENGINE.start(seats, 3, {"deck": deck})
    assert [len(cards) for cards in state.hands] == [5] * seats
    assert len(state.draw_pile) == len(DECKS[deck].cards) - 5 * seats
    assert state.pigs == (None,) * len(DECKS[deck].foods)
    assert state.discards == () and state.points == ((),) * seats
    assert state.phase is Phase.PLAY and state.turn == 1


def test_pg1_the_first_player_is_random():
    assert {ENGINE.start(4, seed).current for seed in range(40)} == {0, 1, 2, 3}


def test_pg2_playing_a_food_puts_every_card_of_it_on_your_own_stack():
    state = play(table(["T1 T2 D3 G T3", "I1"], stacks=["T1", "T2"]), "T")
    assert hand(state, 0) == "D3 G"
    assert stack(state, 0, "T") == "T1 T1 T2 T3"
    assert stack(state, 1, "T") == "T2"


def test_pg2_the_food_plays_offered_are_the_foods_in_hand():
    legal = ENGINE.legal_actions(table(["T1 T2 D3 G", "I1"]), 0)
    assert [action for action in legal if action["type"] == "play_food"] == [
        {"type": "play_food", "food": "tacos"}, {"type": "play_food", "food": "donuts"}]


def test_pg2_at_most_one_food_type_per_turn():
    state = play(table(["T1 D3", "I1"]), "T")
    assert all(action["type"] != "play_food" for action in ENGINE.legal_actions(state, 0))
    with pytest.raises(IllegalAction):
        play(state, "D")


def test_pg2_playing_food_is_optional():
    state = end_play(table(["T1 D3 I1 C1 C2", "F1"], draw="F2"))
    assert hand(state, 0) == "C1 C2 D3 I1 T1"
    assert state.current == 1 and len(state.draw_pile) > 0


def test_pg3_a_stack_is_as_big_as_the_food_on_it_not_its_card_count():
    two_cards = table(["T1 T1", "I1"], stacks=["", "T3"], pigs={"T": 1})
    state = end_play(play(two_cards, "T"))
    assert holder(state, "T") == 1
    assert ENGINE.view(state, None)["stacks"][0][1]["total"] == 2
    four_food = table(["T1 T1 T2", "I1"], stacks=["", "T3"], pigs={"T": 1})
    state = end_play(play(four_food, "T"))
    assert holder(state, "T") == 0


def test_pg4_a_goat_without_a_target_cannot_be_played():
    state = table(["G T1", "I1"], stacks=["T2", ""])
    assert {action["type"] for action in ENGINE.legal_actions(state, 0)} == {"play_food", "end_play"}


def test_pg4_goats_target_only_other_players_stacks():
    state = table(["G T1", "I1", "C1"], stacks=["T2", "D1", ""])
    targets = [(action["seat"], tokens(state, [action["card"]]))
               for action in ENGINE.legal_actions(state, 0) if action["type"] == "goat"]
    assert targets == [(1, "D1")]


def test_pg4_any_number_of_goats_before_and_after_the_food_play():
    state = table(["G G G T1", "C1"], stacks=["", "D1 D1 I1 I1"])
    state = goat(play(goat(state, 1, "D1"), "T"), 1, "I1")
    state = goat(state, 1, "D1")
    assert hand(state, 0) == "" and stack(state, 1, "D") == "" and stack(state, 1, "I") == "I1"
    assert state.phase is Phase.PLAY and state.current == 0
    assert ENGINE.legal_actions(state, 0) == [{"type": "end_play"}]


def test_pg6_a_lone_stack_takes_the_pig_from_the_middle():
    state = end_play(play(table(["T1 D1", "I1"]), "T"))
    assert holder(state, "T") == 0


def test_pg6_stealing_from_a_holder_makes_them_discard_that_whole_stack():
    state = table(["T2 T2", "I1"], stacks=["T1", "T3 T1"], pigs={"T": 1}, draw="C1 C1 C1 C1 C1")
    state = end_play(play(state, "T"))
    assert holder(state, "T") == 0
    assert stack(state, 1, "T") == "" and tokens(state, state.discards) == "T1 T3"


def test_pg6_a_tie_steals_nothing_and_the_pig_stays_where_it_is():
    held = end_play(play(table(["T1 T2", "I1"], stacks=["", "T3"], pigs={"T": 1}), "T"))
    assert holder(held, "T") == 1 and stack(held, 1, "T") == "T3"
    middle = end_play(play(table(["T2", "I1", "C1"], stacks=["", "T2", "T1 T1"]), "T"))
    assert holder(middle, "T") is None


def test_pg6_several_pigs_in_one_turn():
    state = table(["G T2 I1", "C1"], stacks=["T1 D2", "T2 D1"], pigs={"T": 1, "D": 0})
    state = goat(state, 1, "D1")
    state = end_play(play(state, "T"))
    assert holder(state, "T") == 0 and holder(state, "D") == 0


def test_pg7_draw_until_you_hold_five():
    state = end_play(play(table(["T1 T1 D1", "I1"], draw="C1 C2 F1 F3 F2"), "T"))
    assert hand(state, 0) == "C1 C2 D1 F1 F3"


def test_pg7_an_empty_draw_pile_is_refilled_by_shuffling_the_discards():
    state = table(["T1 T1 T1", "I1"], stacks=["", "T3 T3"], pigs={"T": 1}, draw="C1", rest="discards")
    before = len(state.discards)
    state = end_play(play(state, "T"))
    assert len(state.hands[0]) == 5 and tokens(state, state.hands[0][:1]) == "C1"
    assert state.discards == () and len(state.draw_pile) == before - 4
    assert any("shuffled" in text for _, _, text in state.events)


def test_pg7_with_both_piles_empty_you_draw_what_there_is():
    state = end_play(play(table(["T1 T1 T1", "I1"], draw="C1 C2", rest="out"), "T"))
    assert hand(state, 0) == "C1 C2" and state.draw_pile == ()


def test_pg8_only_cards_just_drawn_that_match_a_pig_held_now_score():
    state = table(["T1 D1 D1", "I1"], stacks=["T3", ""], pigs={"T": 0}, draw="T2 D2 G C1 C2")
    state = end_play(play(state, "D"))  # the donut pig is taken in step 2, before the draw
    assert tokens(state, state.points[0]) == "D2 T2"
    assert hand(state, 0) == "C1 G T1"  # the T1 was not just drawn; goats never score
    scored = ENGINE.view(state, 1)["scored"]
    assert scored["seat"] == 0 and sorted(card["card"] for card in scored["cards"]) == sorted(state.points[0])


def test_pg8_no_pig_no_points():
    state = end_play(table(["I1", "C1"], stacks=["", "T3"], pigs={"T": 1}, draw="T2 T2 T1 T1"))
    assert state.points[0] == () and hand(state, 0) == "I1 T1 T1 T2 T2"


def test_pg9_an_empty_hand_skips_to_drawing_and_scoring():
    state = table(["I1 I1 I2 I2 C1", ""], stacks=["", "T3"], pigs={"T": 1}, draw="T1 C1 C2 C3 F1 F2")
    state = end_play(state)
    assert state.current == 0 and state.turn == 3
    assert tokens(state, state.points[1]) == "T1"
    assert hand(state, 1) == "C1 C2 C3 F1"
    assert any(seat == 1 and "no cards" in text for _, seat, text in state.events)


def test_pg10_eight_points_end_the_game_at_once_and_the_others_rank_by_points_then_pigs():
    state = table(["C1", "I1", "F1", "F2"], stacks=["T3", "", "D1", "I2"], pigs={"T": 0, "D": 2, "I": 3},
                  points=[7, 3, 3, 5], draw="T1 C2 C3 C3 G")
    state = end_play(state)
    assert state.phase is Phase.OVER and state.winner == 0 and state.current == 0
    outcome = ENGINE.outcome(state)
    assert outcome.scores == (8, 3, 3, 5)
    assert outcome.ranks == (1, 4, 3, 2)
    assert all(ENGINE.legal_actions(state, seat) == [] for seat in range(4))
    assert ENGINE.next_deadline(state) is None
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, {"type": "end_play"}, 0)


def test_pg10_equal_points_and_pigs_share_a_place():
    state = end_play(table(["C1", "I1", "F1"], stacks=["T3", "", ""], pigs={"T": 0}, points=[7, 2, 2],
                           draw="T1 C2 C3 C3 G"))
    assert ENGINE.outcome(state).ranks == (1, 2, 2)


def test_pg11_views_show_the_table_and_only_your_own_hand():
    state = table(["T1 G", "D1 D2 I1", "C1"], stacks=["T3", "D3", ""], pigs={"T": 0, "D": 1},
                  points=["", "I2", ""])
    view = ENGINE.view(state, 1)
    assert sorted(card["card"] for card in view["hand"]) == sorted(state.hands[1])
    assert view["hand_sizes"] == [2, 3, 1]
    assert [[stack["total"] for stack in seat] for seat in view["stacks"]] == [[0, 3, 0, 0, 0], [0, 0, 3, 0, 0],
                                                                               [0, 0, 0, 0, 0]]
    assert [pig["holder"] for pig in view["pigs"]] == [None, 0, 1, None, None]
    assert [pile["count"] for pile in view["points"]] == [0, 1, 0]
    assert view["draw_pile"] == len(state.draw_pile)
    hidden = ENGINE.hidden_cards(state, 1)
    assert hidden == frozenset(state.hands[0] + state.hands[2] + state.draw_pile)
    assert not cards_in_view(view) & hidden
    spectator = ENGINE.view(state, None)
    assert spectator["hand"] is None
    assert not cards_in_view(spectator) & frozenset(card for cards in state.hands for card in cards)


def test_pg12_when_the_turn_timer_runs_out_no_more_food_or_goats_but_steps_two_to_four_happen():
    state = table(["T2 D1 G", "I1"], stacks=["", "T1"], pigs={"T": 1}, draw="C1 C1 C1", turn_seconds=30)
    state = play(state, "T", now_ms=1000)
    assert ENGINE.next_deadline(state) == 30000
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, None, {"type": "clock"}, 29999)
    state = ENGINE.apply(state, None, {"type": "clock"}, 30000)
    assert holder(state, "T") == 0 and stack(state, 1, "T") == ""
    assert hand(state, 0) == "C1 C1 C1 D1 G"
    assert state.current == 1 and ENGINE.next_deadline(state) == 60000


def test_pg12_without_a_turn_timer_an_idle_player_is_still_played_for_after_the_longest_wait():
    """Issue 10: no live table waits for ever on one person, timer or not."""
    state = ENGINE.start(2, 5, {"turn_seconds": 0})
    assert ENGINE.next_deadline(state) == UNTIMED_LIMIT_SECONDS * 1000
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, None, {"type": "clock"}, UNTIMED_LIMIT_SECONDS * 1000 - 1)
    first = state.current
    state = ENGINE.apply(state, None, {"type": "clock"}, UNTIMED_LIMIT_SECONDS * 1000)
    assert state.current != first and state.events[-2][1:] == (first, "ran out of time and plays nothing more this turn.")
    assert ENGINE.next_deadline(state) == 2 * UNTIMED_LIMIT_SECONDS * 1000
