"""Pig Pile rulings PP3–PP16 and PP19, and the rulebook's Hog Wash examples, each from a
concrete position checked move by move (cards written as ranks, see ``position``)."""
import pytest

from games.core import IllegalAction
from games.pigpile.engine import ENGINE
from games.pigpile.state import Phase

from .position import play, position, ranks, texts

PICKUP = {"type": "pickup"}


def test_pp3_draw_exactly_one_card_after_playing():
    state = position(["3 3 5 9", "7", "7"], pile="2", draw="6 10 12")
    state = ENGINE.apply(state, 0, play(3, 2), 0)
    assert ranks(state.hands[0]) == "5 6 9"  # one card drawn, never "up to" a hand size
    assert ranks(state.draw) == "10 12"
    assert state.turn == 1


def test_pp3_no_draw_after_picking_up():
    state = position(["3", "7", "7"], pile="5 9", draw="6")
    assert ENGINE.legal_actions(state, 0) == [PICKUP]
    state = ENGINE.apply(state, 0, PICKUP, 0)
    assert ranks(state.hands[0]) == "3 5 9"
    assert ranks(state.draw) == "6" and state.pile == ()
    assert state.turn == 1


def test_pp4_empty_draw_pile_is_never_reshuffled():
    state = position(["3 5", "7 7", "9"], pile="2", draw="6")
    washed = state.washed
    state = ENGINE.apply(state, 0, play(3), 0)
    assert state.draw == () and ranks(state.hands[0]) == "5 6"
    assert (None, "The draw pile is empty: table cards come into play.") in texts(state)
    state = ENGINE.apply(state, 1, play(7), 0)
    assert ranks(state.hands[1]) == "7"  # nothing to draw
    assert state.draw == () and state.washed == washed


def test_pp5_must_play_when_any_play_is_legal():
    state = position(["2 W", "7", "7"], pile="9", draw="5")
    assert ENGINE.legal_actions(state, 0) == [play(0)]
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, PICKUP, 0)


def test_pp5_pick_up_only_without_a_legal_play():
    state = position(["2 3", "7", "7"], pile="9", draw="5")
    assert ENGINE.legal_actions(state, 0) == [PICKUP]


def test_pp6_one_number_or_hog_wilds_any_count_never_mixed():
    state = position(["5 5 5 7 W W", "7", "7"], pile="4", draw="1")
    assert ENGINE.legal_actions(state, 0) == [
        play(5, 1), play(5, 2), play(5, 3), play(7, 1), play(0, 1), play(0, 2)]
    for bad in (play(5, 4), {"type": "play", "from": "hand", "rank": [5, 0], "count": 2}, play(6)):
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, 0, bad, 0)


def test_pp7_an_8_is_not_playable_on_a_9_but_a_hog_wild_always_is():
    state = position(["3 8 9 W", "7", "7"], pile="9", draw="1")
    assert ENGINE.legal_actions(state, 0) == [play(9), play(0)]


def test_pp7_anything_goes_on_an_empty_pile():
    state = position(["3 8 9 W", "7", "7"], draw="1")
    assert [action["rank"] for action in ENGINE.legal_actions(state, 0)] == [3, 8, 9, 0]


def test_pp8_a_hog_wild_left_on_top_sets_the_pile_to_zero():
    state = position(["W 5", "1", "2"], pile="9", draw="6 6")
    state = ENGINE.apply(state, 0, play(0), 0)
    assert ranks(state.pile) == "9 W" and state.turn == 1
    assert ENGINE.view(state, 1)["pile_value"] == 0
    assert ENGINE.legal_actions(state, 1) == [play(1)]


def test_pp9_three_in_a_row_counts_cards_from_different_players():
    state = position(["5 9", "5 3", "5 2"], pile="4", draw="1 1 1")
    state = ENGINE.apply(state, 0, play(5), 0)
    state = ENGINE.apply(state, 1, play(5), 0)
    assert ranks(state.pile) == "4 5 5"
    washed = len(state.washed)
    state = ENGINE.apply(state, 2, play(5), 0)
    assert state.pile == () and len(state.washed) == washed + 4
    assert state.turn == 2  # PP11: the washer plays again
    assert texts(state)[-1] == (2, "played a 5 — Hog Wash!")


def test_pp9_a_hog_wild_between_breaks_the_run():
    state = position(["5 9", "7", "7"], pile="5 W", draw="1")
    state = ENGINE.apply(state, 0, play(5), 0)
    assert ranks(state.pile) == "5 W 5" and state.turn == 1


def test_pp9_three_hog_wilds_in_a_row_wash():
    state = position(["W 9", "7", "7"], pile="3 W W", draw="1")
    state = ENGINE.apply(state, 0, play(0), 0)
    assert state.pile == () and state.turn == 0


def test_pp10_an_8_washes_the_whole_pile_itself_included():
    state = position(["8 3", "7", "7"], pile="2 5 6", draw="1")
    pile = set(state.pile)
    state = ENGINE.apply(state, 0, play(8), 0)
    assert state.pile == ()
    assert pile | {state.washed[-1]} <= set(state.washed) and ranks(state.washed[-1:]) == "8"
    assert texts(state)[-1] == (0, "played an 8 — Hog Wash!")


def test_pp11_several_washes_in_one_turn_then_the_turn_ends_on_a_plain_play():
    state = position(["3 8 8", "7", "7"], pile="5", draw="1 2")
    state = ENGINE.apply(state, 0, play(8), 0)
    assert state.turn == 0 and ENGINE.legal_actions(state, 0)[0] == play(3)
    state = ENGINE.apply(state, 0, play(8), 0)
    assert state.turn == 0
    state = ENGINE.apply(state, 0, play(3), 0)
    assert ranks(state.pile) == "3" and ranks(state.hands[0]) == "1" and state.turn == 1


def test_pp11_a_wash_that_empties_the_hand_draws_one_and_ends_the_turn():
    state = position(["8", "7", "7"], pile="5", draw="3 4")
    state = ENGINE.apply(state, 0, play(8), 0)
    assert ranks(state.hands[0]) == "3" and ranks(state.draw) == "4"
    assert state.pile == () and state.turn == 1


def test_pp11_with_the_draw_pile_gone_the_washer_goes_on_with_face_up_cards():
    state = position(["8", "7", "7"], face_up=["9 10 10", "1 1 1", "1 1 1"], pile="5")
    state = ENGINE.apply(state, 0, play(8), 0)
    assert state.turn == 0
    assert ENGINE.legal_actions(state, 0) == [play(9, 1, "faceup"), play(10, 1, "faceup"), play(10, 2, "faceup")]


def test_pp11_a_wash_with_nothing_left_goes_out():
    state = position(["8", "7", "7"], pile="5")
    state = ENGINE.apply(state, 0, play(8), 0)
    assert state.out == (0,) and state.turn == 1
    assert texts(state)[-1] == (0, "went out first")


def test_pp12_no_special_after_a_pickup():
    state = position(["3", "7", "7"], pile="4 4", draw="1")
    state = ENGINE.apply(state, 0, PICKUP, 0)
    assert state.turn == 1 and state.direction == 1


def test_pp12_a_skipped_player_triggers_nothing():
    state = position(["4 9", "5", "6", "7"], pile="2", draw="1 1")
    state = ENGINE.apply(state, 0, play(4), 0)
    assert state.turn == 2  # seat 1 lost the turn; seat 2 plays on the same 4, unskipped
    state = ENGINE.apply(state, 2, play(6), 0)
    assert state.turn == 3


def test_pp13_one_hog_tied_skips_the_next_player():
    state = position(["4 9", "5", "6", "7"], pile="2", draw="1 1")
    state = ENGINE.apply(state, 0, play(4), 0)
    assert state.turn == 2
    assert texts(state)[-2:] == [(0, "played a 4"), (1, "was Hog Tied — turn lost")]


def test_pp13_two_hog_tieds_skip_two_whoever_played_them():
    state = position(["4 9", "5", "4 6", "7"], pile="2", draw="1 1 1")
    state = ENGINE.apply(state, 0, play(4), 0)
    assert state.turn == 2
    state = ENGINE.apply(state, 2, play(4), 0)
    assert state.turn == 1
    assert texts(state)[-2:] == [(3, "was Hog Tied — turn lost"), (0, "was Hog Tied — turn lost")]


def test_pp13_skips_count_round_the_players_still_in_the_round():
    """Our decision: with seat 2 out, two 4s from seat 0 tie up seat 1, then seat 0 itself."""
    state = position(["4 4 9", "5", ""], pile="2", out=(2,))
    state = ENGINE.apply(state, 0, play(4, 2), 0)
    assert state.turn == 1
    assert texts(state)[-2:] == [(1, "was Hog Tied — turn lost"), (0, "was Hog Tied — turn lost")]


def test_pp14_a_ewe_turn_reverses_the_direction():
    state = position(["11 3", "5", "6", "7"], pile="2", draw="1")
    state = ENGINE.apply(state, 0, play(11), 0)
    assert state.direction == -1 and state.turn == 3
    assert texts(state)[-1] == (0, "reversed the direction with a Ewe-Turn")


def test_pp14_two_ewe_turns_on_top_reverse_once():
    state = position(["11 11 3", "5", "6", "7"], pile="2", draw="1")
    state = ENGINE.apply(state, 0, play(11, 2), 0)
    assert state.direction == -1 and state.turn == 3


def test_pp15_face_up_cards_wait_until_the_hand_is_empty():
    state = position(["3", "7", "7"], face_up=["9 9 10", "1", "1"], pile="5")
    assert ENGINE.legal_actions(state, 0) == [PICKUP]


def test_pp15_play_one_to_three_face_up_cards_of_one_number():
    state = position(["", "7", "7"], face_up=["9 9 W", "1", "1"], pile="5")
    assert ENGINE.legal_actions(state, 0) == [
        play(9, 1, "faceup"), play(9, 2, "faceup"), play(0, 1, "faceup")]
    state = ENGINE.apply(state, 0, play(9, 2, "faceup"), 0)
    assert ranks(state.face_up[0]) == "W" and ranks(state.pile) == "5 9 9" and state.turn == 1


def test_pp15_no_legal_face_up_card_picks_up_the_pile_with_one_or_all_of_a_number():
    state = position(["", "10", "10"], face_up=["3 3 5", "1", "1"], slop=["2 2 2", "", ""], pile="6 7")
    assert ENGINE.legal_actions(state, 0) == [
        {"type": "pickup_faceup", "rank": 3, "count": 1}, {"type": "pickup_faceup", "rank": 3, "count": 2},
        {"type": "pickup_faceup", "rank": 5, "count": 1}]
    state = ENGINE.apply(state, 0, {"type": "pickup_faceup", "rank": 3, "count": 2}, 0)
    assert ranks(state.hands[0]) == "3 3 6 7" and ranks(state.face_up[0]) == "5"
    assert state.pile == () and state.turn == 1
    assert texts(state)[-1] == (0, "picked up the pig pile (2 cards) and two 3s from the face-up cards")
    state = ENGINE.apply(state, 1, play(10), 0)
    state = ENGINE.apply(state, 2, play(10), 0)
    # The hand must be emptied again before table cards return.
    assert ENGINE.legal_actions(state, 0) == [PICKUP]


def test_pp16_flip_a_slop_card_blind_by_position():
    state = position(["", "7", "7"], slop=["9 2 5", "1", "1"], pile="6")
    assert ENGINE.legal_actions(state, 0) == [{"type": "slop", "index": i} for i in range(3)]
    state = ENGINE.apply(state, 0, {"type": "slop", "index": 0}, 0)
    assert ranks(state.pile) == "6 9" and ranks(state.slop[0]) == "2 5" and state.turn == 1
    assert texts(state)[-1] == (0, "flipped a 9 from the Slop")


def test_pp16_an_illegal_slop_card_is_picked_up_with_the_pile():
    state = position(["", "7", "7"], slop=["9 2 5", "1", "1"], pile="6")
    state = ENGINE.apply(state, 0, {"type": "slop", "index": 1}, 0)
    assert ranks(state.hands[0]) == "2 6" and state.pile == () and ranks(state.slop[0]) == "9 5"
    assert state.turn == 1
    assert texts(state)[-1] == (0, "flipped a 2 from the Slop — too low, picked up the pig pile (2 cards)")


def test_pp16_a_slop_card_that_washes_gives_an_extra_play():
    state = position(["", "7", "7"], slop=["5 3", "1", "1"], pile="5 5")
    state = ENGINE.apply(state, 0, {"type": "slop", "index": 0}, 0)
    assert state.pile == () and state.turn == 0
    assert ENGINE.legal_actions(state, 0) == [{"type": "slop", "index": 0}]


def test_pp16_slop_cards_are_hidden_even_from_their_owner():
    state = position(["3", "7", "7"], slop=["9 2 5", "1 1 1", "2 2 2"], pile="6", draw="1")
    slop = {card for cards in state.slop for card in cards}
    for viewer in (0, 1, 2, None):
        assert slop <= ENGINE.hidden_cards(state, viewer)
        assert ENGINE.view(state, viewer)["players"][0]["slop_count"] == 3


def test_pp19_going_out_on_a_hog_tied_still_ties_up_the_next_player():
    state = position(["4", "5", "6", "7"], pile="2")
    state = ENGINE.apply(state, 0, play(4), 0)
    assert state.out == (0,) and state.turn == 2


def test_pp19_going_out_on_a_ewe_turn_still_reverses():
    state = position(["11", "5", "6", "7"], pile="2")
    state = ENGINE.apply(state, 0, play(11), 0)
    assert state.out == (0,) and state.direction == -1 and state.turn == 3


# The rulebook's Hog Wash examples, in its order.

def test_hog_wash_example_1_an_8_on_a_5():
    state = position(["8 3", "7", "7"], pile="5", draw="1")
    state = ENGINE.apply(state, 0, play(8), 0)
    assert state.pile == () and state.turn == 0


def test_hog_wash_example_2_two_5s_on_a_5():
    state = position(["5 5 3", "7", "7"], pile="5", draw="1")
    state = ENGINE.apply(state, 0, play(5, 2), 0)
    assert state.pile == () and state.turn == 0


@pytest.mark.parametrize("count", [1, 2])
def test_hog_wash_example_3_one_or_more_5s_on_two_5s(count):
    state = position(["5 5 3", "7", "7"], pile="5 5", draw="1")
    state = ENGINE.apply(state, 0, play(5, count), 0)
    assert state.pile == () and state.turn == 0


def test_hog_wash_example_4_three_5s_at_once():
    state = position(["5 5 5 3", "7", "7"], pile="2", draw="1")
    state = ENGINE.apply(state, 0, play(5, 3), 0)
    assert state.pile == () and state.turn == 0


def test_hog_wash_example_5_two_face_up_5s_on_a_5():
    state = position(["", "7", "7"], face_up=["5 5 9", "1", "1"], pile="5")
    state = ENGINE.apply(state, 0, play(5, 2, "faceup"), 0)
    assert state.pile == () and state.turn == 0
    assert ENGINE.legal_actions(state, 0) == [play(9, 1, "faceup")]


def test_hog_wash_example_6_two_ewe_turns_on_a_ewe_turn_keep_the_direction():
    state = position(["11 11 3", "7", "7", "7"], pile="11", draw="1")
    state = ENGINE.apply(state, 0, play(11, 2), 0)
    assert state.pile == () and state.turn == 0
    state = ENGINE.apply(state, 0, play(3), 0)
    assert state.direction == 1 and state.turn == 1


def test_hog_wash_example_7_a_hog_tied_on_two_hog_tieds_ties_nobody():
    state = position(["4 3", "7", "7", "7"], pile="4 4", draw="1")
    state = ENGINE.apply(state, 0, play(4), 0)
    assert state.pile == () and state.turn == 0
    state = ENGINE.apply(state, 0, play(3), 0)
    assert state.turn == 1
    assert all("Hog Tied" not in text for _, text in texts(state))


@pytest.mark.parametrize("seat,action", [
    (1, play(7)), (0, "play"), (0, {"type": "play"}), (0, {"type": "nonsense"}), (0, {}), (7, PICKUP),
    ("0", play(3)), (None, PICKUP), (0, {"type": "play", "from": "hand", "rank": None, "count": 1}),
])
def test_wrong_seat_and_malformed_actions_are_refused(seat, action):
    state = position(["3", "7", "7"], pile="2", draw="1")
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, seat, action, 0)


def test_a_finished_game_refuses_every_action():
    state = position(["3", "7", "7"], pile="2", phase=Phase.OVER)
    assert ENGINE.legal_actions(state, 0) == []
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, play(3), 0)
