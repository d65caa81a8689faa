"""Pig Pile rulings about the deal, the face-up choice, scoring, rounds, visibility and the
turn timer: PP1, PP2, PP17, PP18, PP20, PP21."""
from dataclasses import replace

import pytest

from games.core import IllegalAction
from games.core.contract import UNTIMED_LIMIT_SECONDS
from games.core.viewcheck import cards_in_view
from games.pigpile.engine import ENGINE
from games.pigpile.rounds import CHOOSE_SECONDS, end_round
from games.pigpile.rules import choose_actions
from games.pigpile.state import Phase, set_seat

from .position import play, position, ranks, texts

PICKUP = {"type": "pickup"}
CLOCK = {"type": "clock"}


def test_pp1_deal_three_slop_and_seven_hand_cards_then_everyone_chooses_at_once():
    state = ENGINE.start(4, seed=3)
    assert state.phase is Phase.CHOOSE
    assert [len(cards) for cards in state.slop] == [3] * 4
    assert [len(hand) for hand in state.hands] == [7] * 4
    assert len(state.draw) == 80 - 40
    assert all(ENGINE.legal_actions(state, seat) for seat in range(4))
    assert ENGINE.view(state, 0)["turn"] is None


def test_pp1_the_choices_are_the_distinct_rank_multisets():
    state = position(["5 5 5 5 7 7 W", "1 2 3 4 5 6 7", "1 1 1 1 1 2 2"], phase=Phase.CHOOSE)
    assert [action["ranks"] for action in ENGINE.legal_actions(state, 0)] == [
        [5, 5, 5], [5, 5, 7], [5, 5, 0], [5, 7, 7], [5, 7, 0], [7, 7, 0]]
    assert len(ENGINE.legal_actions(state, 1)) == 35
    assert len(choose_actions(state.hands[2])) == 3


def test_pp1_choices_stay_secret_until_all_have_chosen():
    state = position(["5 5 5 5 7 7 W", "1 2 3 4 5 6 7", "1 1 1 1 1 2 2"], phase=Phase.CHOOSE, dealer=1)
    state = ENGINE.apply(state, 0, {"type": "faceup", "ranks": [7, 7, 0]}, 5)
    assert ranks(state.face_up[0]) == "7 7 W" and ranks(state.hands[0]) == "5 5 5 5"
    assert ENGINE.legal_actions(state, 0) == []
    assert ENGINE.view(state, 0)["players"][0]["face_up"] != []
    for viewer in (1, 2, None):
        seen = ENGINE.view(state, viewer)["players"][0]
        assert seen["face_up"] == [] and seen["chosen"] is True
        assert set(state.face_up[0]) <= ENGINE.hidden_cards(state, viewer)
    state = ENGINE.apply(state, 1, {"type": "faceup", "ranks": [5, 6, 7]}, 6)
    state = ENGINE.apply(state, 2, {"type": "faceup", "ranks": [1, 1, 2]}, 7)
    assert state.phase is Phase.PLAY and state.turn == 1  # the dealer plays first (PP18)
    assert ENGINE.view(state, 2)["players"][0]["face_up"][0]["rank"] == 7
    assert [len(hand) for hand in state.hands] == [4, 4, 4]
    assert texts(state)[-1] == (None, "Face-up cards revealed.")


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_pp2_greased_pig_start_deals_three_face_up_and_four_in_hand_from_the_usual_deal(seats):
    """Issue 10: the variant only skips the choosing — 3 Slop, 3 face up, 4 in hand, and the
    same draw pile as a normal round (it used to deal 7 hand cards on top of the 3 face up)."""
    greased = ENGINE.start(seats, seed=9, options={"greased_pig_start": True})
    normal = ENGINE.start(seats, seed=9)
    assert greased.phase is Phase.PLAY
    assert [len(cards) for cards in greased.slop] == [3] * seats
    assert [len(cards) for cards in greased.face_up] == [3] * seats
    assert [len(hand) for hand in greased.hands] == [4] * seats
    assert greased.draw == normal.draw and len(greased.draw) == 80 - 10 * seats
    assert [sorted(hand + face_up) for hand, face_up in zip(greased.hands, greased.face_up)] == [
        sorted(hand) for hand in normal.hands]
    assert ENGINE.legal_actions(greased, greased.turn)[0]["type"] == "play"


def test_pp2_greased_pig_start_is_for_the_first_round_only():
    state = ENGINE.start(3, seed=9, options={"greased_pig_start": True})
    state = replace(state, out=(0,), hands=set_seat(state.hands, 1, ()), face_up=set_seat(state.face_up, 1, ()),
                    slop=set_seat(state.slop, 1, ()))
    state = end_round(replace(state, out=(0, 1)), 0)
    assert state.round == 2 and state.phase is Phase.CHOOSE
    assert [len(hand) for hand in state.hands] == [7] * 3 and state.face_up == ((),) * 3


def _finish_round(state, seat, rank):
    return ENGINE.apply(state, seat, play(rank), 0)


def test_pp17_first_three_second_two_others_one_but_most_cards_none():
    state = position(["9", "3 3 3 4 5", "", "6 7 8"], pile="5", out=(2,), dealer=0)
    state = _finish_round(state, 0, 9)
    assert state.last_round.pigs == (2, 0, 3, 1)
    assert state.last_round.cards == (0, 5, 0, 3) and state.last_round.out == (2, 0)
    assert state.pigs == (2, 0, 3, 1) and state.pen == 34


def test_pp17_players_tied_for_most_cards_all_get_none():
    state = position(["9", "3 3 4 5", "", "6 7", "1 1 1 1"], face_up=["", "", "", "2 2", ""], pile="5", out=(2,))
    state = _finish_round(state, 0, 9)
    assert state.last_round.pigs == (2, 0, 3, 0, 0)


@pytest.mark.parametrize("lenient,last", [(False, 0), (True, 1)])
def test_pp17_three_players_the_last_gets_none_unless_the_option_says_one(lenient, last):
    state = position(["9", "3", ""], pile="5", out=(2,), three_player_last_gets_one=lenient)
    state = _finish_round(state, 0, 9)
    assert state.last_round.pigs == (2, last, 3)


def test_pp18_the_deal_passes_left_and_the_dealer_plays_first_clockwise():
    state = position(["9", "3 3 3 4 5", "", "6 7 8"], pile="5", out=(2,), dealer=3, direction=-1)
    state = _finish_round(state, 0, 9)
    assert state.round == 2 and state.dealer == 0 and state.phase is Phase.CHOOSE
    assert state.direction == 1  # PP14: every round starts clockwise
    assert [len(hand) for hand in state.hands] == [7] * 4 and state.pile == () and state.out == ()
    for seat in range(4):
        state = ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0], 0)
    assert state.phase is Phase.PLAY and state.turn == 0


def test_pp18_the_game_ends_after_round_five_most_pigs_wins_ties_share():
    state = position(["9", "3", "", "6 7 8"], pile="5", out=(2,), round=5, pigs=(5, 8, 6, 10), pen=12)
    state = _finish_round(state, 0, 9)
    assert state.phase is Phase.OVER
    assert state.pigs == (7, 9, 9, 10)
    outcome = ENGINE.outcome(state)
    assert outcome.ranks == (4, 2, 2, 1) and outcome.scores == (7, 9, 9, 10)
    assert ENGINE.view(state, None)["standings"][0] == {"seat": 3, "pigs": 10, "rank": 1}
    assert ENGINE.next_deadline(state) is None


def test_pp18_an_empty_pen_ends_the_game_and_never_hands_out_more_than_it_holds():
    state = position(["9", "3", "", "6 7 8"], pile="5", out=(2,), round=2, pigs=(10, 10, 10, 6), pen=4)
    state = _finish_round(state, 0, 9)
    assert state.last_round.pigs == (1, 0, 3, 0)
    assert state.pen == 0 and state.phase is Phase.OVER
    assert sum(state.pigs) == 40
    assert ENGINE.outcome(state).ranks == (2, 3, 1, 4)


def test_pp18_the_first_dealer_is_drawn_from_the_seed():
    dealers = {ENGINE.start(5, seed).dealer for seed in range(40)}
    assert dealers == set(range(5))


def test_pp20_a_seat_sees_its_hand_all_face_up_cards_and_only_counts_of_the_rest():
    state = position(["3 5", "7 7 9", "1"], face_up=["2", "10 10", "12"], slop=["1 1", "2 2", "3 3"],
                     pile="2 2", draw="4 6 8")
    view = ENGINE.view(state, 1)
    assert [card["card"] for card in view["hand"]] == list(state.hands[1])
    assert [player["hand_count"] for player in view["players"]] == [2, 3, 1]
    assert [len(player["face_up"]) for player in view["players"]] == [1, 2, 1]
    assert view["draw_count"] == 3 and view["pile_value"] == 2 and view["run"] == {"rank": 2, "count": 2}
    assert view["washed_count"] == len(state.washed) and view["pen"] == 40
    shown = cards_in_view(view)
    assert not shown & (set(state.hands[0]) | set(state.hands[2]) | set(state.draw))
    assert not shown & {card for cards in state.slop for card in cards}
    spectator = ENGINE.view(state, None)
    assert spectator["hand"] is None
    assert not cards_in_view(spectator) & {card for hand in state.hands for card in hand}


def test_pp21_the_clock_waits_for_the_turn_timer():
    state = position(["5 5 7 8 W", "7", "7"], pile="4", draw="1 2", turn_seconds=30, began_ms=1000)
    assert ENGINE.next_deadline(state) == 31000
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, None, CLOCK, 30999)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, None, PICKUP, 31000)
    state = ENGINE.apply(state, None, CLOCK, 31000)
    assert ranks(state.pile) == "4 5" and ranks(state.hands[0]) == "1 5 7 8 W"
    assert texts(state)[-2:] == [(0, "ran out of time"), (0, "played a 5")]
    assert ENGINE.next_deadline(state) == 61000  # the next turn's timer starts now


@pytest.mark.parametrize("hand,face_up,slop,pile,expected", [
    ("2 W W", "", "", "9", play(0)),
    ("2 3", "", "", "9", PICKUP),
    ("", "3 5 5", "1", "9", {"type": "pickup_faceup", "rank": 3, "count": 1}),
    ("", "", "6 1", "9", {"type": "slop", "index": 0}),
    ("", "8 10 10", "1", "7", play(8, 1, "faceup")),
])
def test_pp21_the_timeout_play_is_the_safest(hand, face_up, slop, pile, expected):
    state = position([hand, "7", "7"], face_up=[face_up, "1", "1"], slop=[slop, "", ""], pile=pile,
                     turn_seconds=10)
    timed_out = ENGINE.apply(state, None, CLOCK, 10_000)
    chosen = ENGINE.apply(state, 0, expected, 10_000)
    assert texts(timed_out)[-2] == (0, "ran out of time")
    assert _without_log(timed_out) == _without_log(chosen)


def _without_log(state):
    return {key: value for key, value in ENGINE.dump(state).items() if key not in ("log", "log_count")}


def test_pp21_the_face_up_choice_times_out_with_the_strongest_three():
    state = ENGINE.start(3, seed=4, options={"turn_seconds": 20})
    state = ENGINE.apply(state, 1, ENGINE.legal_actions(state, 1)[0], 500)
    assert ENGINE.next_deadline(state) == 20_000
    state = ENGINE.apply(state, None, CLOCK, 20_000)
    assert state.phase is Phase.PLAY
    assert [seat for seat, text in texts(state) if text == "ran out of time"] == [0, 2]


def test_pp1_without_a_turn_timer_the_face_up_choice_still_times_out_after_60_s():
    """Issue 10: PP1 asks for a timeout that picks for the slow player, timer or not."""
    state = ENGINE.start(3, seed=4, options={"turn_seconds": 0})
    state = ENGINE.apply(state, 1, ENGINE.legal_actions(state, 1)[0], 500)
    assert ENGINE.next_deadline(state) == CHOOSE_SECONDS * 1000 == 60_000
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, None, CLOCK, 59_999)
    state = ENGINE.apply(state, None, CLOCK, 60_000)
    assert state.phase is Phase.PLAY
    assert [seat for seat, text in texts(state) if text == "ran out of time"] == [0, 2]


def test_pp21_without_a_turn_timer_an_idle_player_is_played_for_after_the_longest_wait():
    state = position(["5 5 7 8 W", "7", "7"], pile="4", draw="1 2", turn_seconds=0, began_ms=1000)
    assert ENGINE.next_deadline(state) == 1000 + UNTIMED_LIMIT_SECONDS * 1000
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, None, CLOCK, UNTIMED_LIMIT_SECONDS * 1000)
    state = ENGINE.apply(state, None, CLOCK, 1000 + UNTIMED_LIMIT_SECONDS * 1000)
    assert ranks(state.pile) == "4 5" and texts(state)[-2] == (0, "ran out of time")
