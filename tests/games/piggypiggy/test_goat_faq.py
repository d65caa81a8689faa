"""PG4/PG5 and every branch of the rulebook's goat FAQ, each from a concrete position."""
import pytest

from games.core import IllegalAction
from games.core.contract import UNTIMED_LIMIT_SECONDS
from games.piggypiggy.engine import ENGINE
from games.piggypiggy.state import PROMPT_SECONDS, Phase
from tests.games.piggypiggy.fixtures import add, end_play, goat, hand, holder, play, stack, table, tokens


def test_pg5_faq_holder_still_has_the_most_keeps_the_pig():
    state = table(["G I1", "C1", "C2"], stacks=["", "T3 T3 T1", "T2 T2"], pigs={"T": 1})
    state = goat(state, 1, "T1")
    assert holder(state, "T") == 1
    assert stack(state, 1, "T") == "T3 T3"
    assert state.phase is Phase.PLAY and state.prompt is None


def test_pg5_faq_holder_now_tied_sends_the_pig_to_the_middle():
    state = table(["G I1", "C1", "C2"], stacks=["", "T3 T1", "T2 T1"], pigs={"T": 1})
    state = goat(state, 1, "T1")
    assert holder(state, "T") is None
    # Nobody stole it, so nobody discards: both tied stacks stay on the table.
    assert stack(state, 1, "T") == "T3" and stack(state, 2, "T") == "T1 T2"


def test_pg5_faq_holder_left_with_less_loses_the_pig_and_discards_the_rest():
    state = table(["G I1", "C1", "T1 C2"], stacks=["", "T3 T2", "T2 T2"], pigs={"T": 1})
    state = goat(state, 1, "T3")
    assert holder(state, "T") == 2
    assert stack(state, 1, "T") == ""
    assert tokens(state, state.discards) == "G T2 T3"
    assert state.phase is Phase.INHERIT and state.prompt.seat == 2


def test_pg5_faq_emptied_stack_with_another_biggest_they_steal_and_may_add_matching_cards():
    state = table(["G T1 I1", "C1", "T1 T2 I2"], stacks=["T1", "T3", "T2"], pigs={"T": 1}, current=0)
    state = goat(state, 1, "T3", now_ms=4000)
    assert holder(state, "T") == 2
    assert state.phase is Phase.INHERIT
    view = ENGINE.view(state, 0)
    assert view["phase"] == "inherit" and view["turn"] == 2 and view["prompt"]["seat"] == 2
    assert ENGINE.legal_actions(state, 0) == [] and ENGINE.legal_actions(state, 1) == []
    offered = [tokens(state, action["cards"]) for action in ENGINE.legal_actions(state, 2)]
    assert sorted(offered) == sorted(["", "T1", "T2", "T1 T2"])
    state = add(state, "T1")
    assert stack(state, 2, "T") == "T1 T2" and hand(state, 2) == "I2 T2"
    assert state.phase is Phase.PLAY and state.current == 0
    # The addition is not seat 2's food play and step 1 of seat 0 goes on.
    assert {"type": "play_food", "food": "tacos"} in ENGINE.legal_actions(state, 0)


def test_pg5_faq_emptied_stack_with_a_tie_among_others_sends_the_pig_to_the_middle():
    state = table(["G I1", "C1", "T1"], stacks=["T2", "T3", "T2"], pigs={"T": 1})
    state = goat(state, 1, "T3")
    assert holder(state, "T") is None
    assert state.phase is Phase.PLAY


def test_pg5_faq_emptied_stack_with_no_stacks_left_sends_the_pig_to_the_middle():
    state = table(["G T1", "C1"], stacks=["", "T3"], pigs={"T": 1})
    state = goat(state, 1, "T3")
    assert holder(state, "T") is None
    assert stack(state, 1, "T") == ""


def test_pg5_goat_on_a_stack_that_does_not_hold_the_pig_leaves_the_pig():
    state = table(["G I1", "C1", "C2"], stacks=["", "T3 T2", "T1 T1"], pigs={"T": 1})
    state = goat(state, 2, "T1")
    assert holder(state, "T") == 1 and stack(state, 2, "T") == "T1"


def test_pg5_prompt_times_out_as_add_none_even_without_a_turn_timer():
    state = table(["G I1", "C1", "T1 I2"], stacks=["", "T3", "T2"], pigs={"T": 1})
    state = goat(state, 1, "T3", now_ms=4000)
    assert ENGINE.next_deadline(state) == 4000 + PROMPT_SECONDS * 1000
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, None, {"type": "clock"}, 4000 + PROMPT_SECONDS * 1000 - 1)
    state = ENGINE.apply(state, None, {"type": "clock"}, 4000 + PROMPT_SECONDS * 1000)
    assert stack(state, 2, "T") == "T2" and hand(state, 2) == "I2 T1"
    # Seat 0's own turn goes on, its clock (the longest wait, no timer) paused during the prompt.
    assert state.phase is Phase.PLAY and ENGINE.next_deadline(state) == (UNTIMED_LIMIT_SECONDS + PROMPT_SECONDS) * 1000


def test_pg5_prompt_pauses_the_turn_timer_and_uses_its_length():
    state = table(["G I1", "C1", "T1 I2"], stacks=["", "T3", "T2"], pigs={"T": 1}, turn_seconds=30)
    state = goat(state, 1, "T3", now_ms=5000)
    assert ENGINE.next_deadline(state) == 35000
    state = add(state, "T1", now_ms=12000)
    assert ENGINE.next_deadline(state) == 30000 + 7000


def test_pg5_current_player_who_takes_a_pig_by_goat_may_add_and_still_play_food():
    state = table(["G T1 T2 D1", "C1"], stacks=["T2", "T3"], pigs={"T": 1})
    state = goat(state, 1, "T3")
    assert holder(state, "T") == 0 and state.prompt.seat == 0
    state = add(state, "T2 T1")
    assert stack(state, 0, "T") == "T1 T2 T2" and not state.food_played
    state = play(state, "D")
    assert stack(state, 0, "D") == "D1"


def test_pg6_a_goat_that_breaks_a_tie_leaves_a_middle_pig_in_the_middle():
    """Issue 10: the FAQ settles the pig of the stack a goat hits; a pig already in the middle
    stays there until the current player's step 2, so it cannot be handed to a third player
    who would then lose their whole stack to the current player's steal."""
    state = table(["G T3", "C1", "C2"], stacks=["", "T2", "T2"])
    state = goat(state, 1, "T2")
    assert holder(state, "T") is None and state.phase is Phase.PLAY and state.prompt is None
    state = end_play(play(state, "T"))
    assert holder(state, "T") == 0
    assert stack(state, 2, "T") == "T2"  # seat 2 never held the pig, so it keeps its stack


def test_pg6_a_middle_pig_waits_for_the_step_2_of_the_player_who_leads():
    state = table(["G I1", "C1", "C2"], stacks=["", "T2", "T2"])
    state = end_play(goat(state, 1, "T2"))
    assert holder(state, "T") is None  # seat 0's step 2: seat 0 has no tacos
    state = end_play(state)
    assert holder(state, "T") is None  # seat 1's step 2: seat 1 has no tacos left
    state = end_play(state)
    assert holder(state, "T") == 2  # seat 2's own step 2 (PG6)


def test_pg6_a_goat_on_another_stack_leaves_a_held_pig_for_step_2():
    """The current player who already outgrew the holder steals in step 2, not by a goat
    on a third player's stack (which would also wrongly offer them PG5's prompt)."""
    state = table(["G T2 T2 I1", "C1", "C2"], stacks=["", "T3", "T1"], pigs={"T": 1})
    state = goat(play(state, "T"), 2, "T1")
    assert holder(state, "T") == 1 and state.phase is Phase.PLAY and state.prompt is None
    state = end_play(state)
    assert holder(state, "T") == 0 and stack(state, 1, "T") == ""


def test_pg5_only_matching_cards_may_be_added():
    state = table(["G I1", "C1", "T1 I2"], stacks=["", "T3", "T2"], pigs={"T": 1})
    state = goat(state, 1, "T3")
    i2 = next(card for card in state.hands[2] if tokens(state, [card]) == "I2")
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 2, {"type": "add", "cards": [i2]}, 0)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, {"type": "add", "cards": []}, 0)


def test_pg5_added_cards_may_come_in_any_order():
    state = table(["G I1", "C1", "T1 T2 I2"], stacks=["", "T3", "T2"], pigs={"T": 1})
    state = goat(state, 1, "T3")
    cards = sorted(card for card in state.hands[2] if tokens(state, [card]) in ("T1", "T2"))
    state = ENGINE.apply(state, 2, {"type": "add", "cards": cards[::-1]}, 0)
    assert stack(state, 2, "T") == "T1 T2 T2"


def test_pg4_faq_several_goats_on_different_players_and_foods_take_several_pigs():
    state = table(["G G I1", "C1", "C2"], stacks=["T2 D2", "T3", "D3"], pigs={"T": 1, "D": 2})
    state = goat(goat(state, 1, "T3"), 2, "D3")
    assert holder(state, "T") == 0 and holder(state, "D") == 0
    assert hand(state, 0) == "I1"


def test_pg4_faq_the_goated_card_is_discarded_not_kept():
    state = table(["G I1", "C1"], stacks=["", "D1 D3"])
    state = goat(state, 1, "D3")
    assert hand(state, 0) == "I1"
    assert tokens(state, state.discards) == "D3 G"
    assert stack(state, 1, "D") == "D1"


def test_pg4_faq_you_choose_which_card_of_the_stack_goes():
    state = table(["G I1", "C1"], stacks=["", "D1 D3 D2"])
    assert stack(goat(state, 1, "D2"), 1, "D") == "D1 D3"
    assert stack(goat(state, 1, "D1"), 1, "D") == "D2 D3"


def test_pg4_faq_goats_cannot_discard_point_cards():
    state = table(["G I1", "C1"], stacks=["", ""], points=["", "D1 D2"])
    legal = ENGINE.legal_actions(state, 0)
    assert all(action["type"] != "goat" for action in legal)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, {"type": "goat", "seat": 1, "card": state.points[1][0]}, 0)


def test_pg4_faq_goats_only_in_step_one_of_your_own_turn():
    state = table(["I1", "G C1"], stacks=["D1", ""])
    assert ENGINE.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, {"type": "goat", "seat": 0, "card": state.stacks[0][2][0]}, 0)
    state = end_play(state)
    assert state.current == 1
    assert {"type": "goat", "seat": 0, "card": state.stacks[0][2][0]} in ENGINE.legal_actions(state, 1)


def test_pg5_a_holder_whose_last_card_a_goat_took_is_said_to_have_none_left():
    """The state keeps the line as the rules wrote it (old replays' digests depend on it);
    the view, which every page and the JSON API show, words it for people."""
    state = table(["G I1", "C1", "C2"], stacks=["", "T1", "T2"], pigs={"T": 1})
    state = goat(state, 1, "T1")
    assert holder(state, "T") == 2 and stack(state, 1, "T") == ""
    written = [text for _, _, text in state.events]
    assert "took the yellow pig (tacos) from {seat:1}, who discards 0 cards." in written
    shown = [event["text"] for event in ENGINE.view(state, None)["log"]]
    assert "took the yellow pig (tacos) from {seat:1}, who had no tacos cards left." in shown
    assert not any("0 cards" in text for text in shown)


def test_pg10_the_winners_line_never_names_fewer_points_than_they_have():
    state = end_play(table(["C1", "I1"], stacks=["T3", ""], pigs={"T": 0}, points=[7, 0], draw="T1 T2 C2 C3"))
    assert state.winner == 0 and len(state.points[0]) == 9
    shown = [event["text"] for event in ENGINE.view(state, None)["log"]]
    assert shown[-2:] == ["scored two points and has 9 points.", "has 8 points or more and wins!"]
