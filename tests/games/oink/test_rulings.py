"""A test per ruling (O1–O10), each from a concrete position, move by move."""
import pytest

from games.core import IllegalAction
from games.core.viewcheck import cards_in_view
from games.oink.cards import OINK
from games.oink.engine import ENGINE
from games.oink.fairness import COLLECT_MS, LAG_CAP_MS
from games.oink.state import Phase

from .helpers import Cards, clock, flip, position, ready_to_flip, slap

DOG, CAT, COW, DONKEY, SHEEP, CHICK = range(6)


# -- O1: players and deal ----------------------------------------------------------
@pytest.mark.parametrize("seats,each", [(2, 45), (3, 30), (4, 22), (5, 18), (6, 15)])
def test_o1_deal_all_cards_evenly(seats, each):
    state = ENGINE.start(seats, 11)
    assert [len(deck) for deck in state.decks] == [each] * seats
    dealt = [card for deck in state.decks for card in deck]
    assert len(set(dealt)) == len(dealt) == 90 - len(state.removed)


def test_o1_four_players_remove_two_cards_nobody_ever_sees():
    state = ENGINE.start(4, 3)
    assert len(state.removed) == 2 and not set(state.removed) & {c for deck in state.decks for c in deck}
    for viewer in [0, 1, 2, 3, None]:
        assert set(state.removed) <= ENGINE.hidden_cards(state, viewer)


def test_o1_nobody_sees_any_deck_not_even_their_own():
    state = ENGINE.start(3, 5)
    for viewer in [0, 1, 2, None]:
        view = ENGINE.view(state, viewer)
        assert cards_in_view(view) == set()
        assert [player["deck"] for player in view["players"]] == [30, 30, 30]


# -- O2: reveal --------------------------------------------------------------------
def test_o2_flip_shows_the_top_card_to_everyone_and_makes_a_new_pile_state():
    state = position(["dog3 cat1", "cow2"], flipper=0)
    state = flip(state, 100)
    assert state.pile_id == 1 and state.revealed_at == 100 and state.decks[0] == Cards()("cat1")
    tops = {tuple(ENGINE.view(state, viewer)["pile"]["top"][0].items()) for viewer in [0, 1, None]}
    assert tops == {(("card", Cards().one("dog3")), ("animal", "dog"), ("value", 3))}
    assert state.flipper == 1 and ENGINE.view(state, 0)["log"][-1]["text"] == "flipped a dog 3"


def test_o2_no_flip_before_the_reveal_gap_ends():
    state = flip(position(["dog3", "cow2 cow5"], flipper=0, gap=1000), 0)
    assert state.phase is Phase.WAIT and ENGINE.next_deadline(state) == 1000
    assert {"type": "flip"} not in ENGINE.legal_actions(state, 1)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, {"type": "flip"}, 500)
    with pytest.raises(IllegalAction):
        clock(state, 999)
    state = clock(state, 1000)
    assert state.phase is Phase.FLIP and {"type": "flip"} in ENGINE.legal_actions(state, 1)
    assert ENGINE.view(state, 1)["turn"] == 1


def test_o2_turn_timer_flips_for_a_slow_player():
    state = position(["dog3", "cow2 cow5"], flipper=1, turn_ms=4000, now=200)
    assert ENGINE.next_deadline(state) == 4200
    state = clock(state)
    assert state.pile == Cards()("cow2") and state.revealed_at == 4200
    assert "out of time" in state.log[-1].text


def test_o2_only_a_flip_let_run_out_is_a_missed_turn_never_the_gap_or_the_slap_window():
    """The platform counts a player's missed turns from ``clock_plays_for`` (docs/rules/timeouts.md):
    the clock ending the reveal gap or closing a collection window played nobody's turn."""
    state = position(["dog3 cat1", "cow2 cow5"], flipper=1)
    assert ENGINE.clock_plays_for(state) == {1}
    state = flip(state, 100)
    assert state.phase is Phase.WAIT and ENGINE.clock_plays_for(state) == frozenset()
    state = slap(state, 0, COW, 400)
    assert state.phase is Phase.COLLECT and ENGINE.clock_plays_for(state) == frozenset()
    state = ready_to_flip(clock(state))
    assert state.phase is Phase.FLIP and ENGINE.clock_plays_for(state) == {0}


def test_o2_the_flip_timer_is_5_s_unless_the_table_sets_another_and_never_off():
    assert ENGINE.next_deadline(ENGINE.start(2, 1)) == 5000
    assert ENGINE.next_deadline(ENGINE.start(2, 1, {"turn_seconds": 9})) == 9000
    with pytest.raises(IllegalAction, match="between 1 and 60"):
        ENGINE.start(2, 1, {"turn_seconds": 0})


def test_o2_reveal_gap_is_a_table_option():
    state = ENGINE.start(2, 1, {"reveal_gap_ms": 800})
    state = ENGINE.apply(state, state.flipper, {"type": "flip"}, 50)
    assert ENGINE.next_deadline(state) == 850
    with pytest.raises(IllegalAction):
        ENGINE.start(2, 1, {"reveal_gap_ms": 100})


# -- O4: slap -------------------------------------------------------------------------
def test_o4_one_slap_per_player_per_pile_state():
    state = slap(position(["dog3", "cow2", "cat1"], "sheep4 sheep2"), 1, SHEEP, 400)
    assert ENGINE.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction, match="already"):
        slap(state, 1, SHEEP, 450)
    assert len(ENGINE.legal_actions(state, 2)) == 7


def test_o4_every_cry_is_legal_and_names_the_pile_state():
    state = position(["dog3", "cow2"], "sheep4", phase=Phase.WAIT)
    assert ENGINE.legal_actions(state, 1) == [{"type": "slap", "cry": cry, "pile": 1} for cry in range(7)]


def test_o4_a_slap_for_a_covered_card_is_late_and_costs_nothing():
    state = flip(ready_to_flip(flip(position(["dog3 pig", "cow2"], flipper=0), 0)), 1000)
    with pytest.raises(IllegalAction, match="late"):
        ENGINE.apply(state, 0, {"type": "slap", "cry": OINK, "pile": 1}, 1100)
    assert state.monkeys == (0, 0)


def test_o4_a_slap_after_the_verdict_is_late():
    state = clock(slap(position(["dog3", "cow2", "cat1"], "pig"), 0, OINK, 300))
    assert state.verdict.taker == 0
    with pytest.raises(IllegalAction, match="late"):
        ENGINE.apply(state, 1, {"type": "slap", "cry": OINK, "pile": 1}, 700)


def test_o4_no_slap_on_an_empty_pile():
    state = position(["dog3", "cow2"])
    assert ENGINE.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, {"type": "slap", "cry": OINK, "pile": 0}, 10)


# -- O5: false slap ----------------------------------------------------------------------
def test_o5_slap_on_nothing_makes_the_monkey():
    state = clock(slap(position(["dog3", "cow2"], "sheep4 cat1"), 1, OINK, 300))
    assert state.monkeys == (0, 1) and state.verdict.monkeys == (1,) and state.verdict.taker is None
    assert state.pile == Cards()("sheep4 cat1")


def test_o5_wrong_cry_makes_the_monkey():
    state = clock(slap(position(["dog3", "cow2"], "cow4 cow1"), 0, OINK, 300))
    assert state.monkeys == (1, 0) and state.verdict.cry == COW
    assert "monkey" in state.log[-1].text


def test_o5_penalty_card_goes_from_the_winning_pile_under_the_discard_pile():
    state = position(["dog3", "cow2"], "sheep4 cat1", ["", "chick1 chick2"], penalty_card=True)
    state = clock(slap(state, 1, SHEEP, 300))
    cards = Cards()
    sheep, cat, chick1, chick2 = cards("sheep4 cat1 chick1 chick2")
    assert state.pile == (chick2, sheep, cat) and state.won[1] == (chick1,)
    assert state.monkeys == (0, 0) and state.verdict.penalties == (1,)


def test_o5_penalty_card_with_no_winning_pile_makes_the_monkey():
    state = clock(slap(position(["dog3", "cow2"], "sheep4 cat1", penalty_card=True), 1, SHEEP, 300))
    assert state.monkeys == (0, 1) and state.verdict.penalties == ()


@pytest.mark.parametrize("first,penalty,cry", [("cow3", "cow4", COW), ("cat2", "dog5", OINK)])
def test_o5_a_penalty_card_under_the_rounds_lone_first_card_makes_no_pair(first, penalty, cry):
    """Issue 10 (O3): the first card alone is only ever a pig, so a penalty card put under it
    must not become the second card of a pair nobody saw flipped."""
    state = position(["dog3", "sheep1", "chick1"], first, ["", penalty, ""], penalty_card=True)
    state = clock(slap(state, 1, DONKEY, 300))  # a false slap: seat 1 pays with its penalty card
    assert state.pile == Cards()(f"{penalty} {first}") and state.verdict.penalties == (1,)
    assert [card["card"] for card in ENGINE.view(state, 0)["pile"]["top"]] == [Cards().one(first)]
    state = clock(slap(state, 2, cry, 900))
    assert state.verdict.cry is None and state.verdict.taker is None and state.monkeys == (0, 0, 1)


def test_o3_after_a_penalty_under_the_first_card_the_next_flip_pairs_with_the_first_card():
    state = position(["cow4", "sheep1", "chick1"], "cow3", ["", "dog5", ""], penalty_card=True, flipper=0)
    state = clock(slap(state, 1, DONKEY, 300))
    state = flip(ready_to_flip(state), state.deadline_at)
    state = clock(slap(state, 2, COW, state.revealed_at + 400))
    assert state.verdict.cry == COW and state.verdict.taker == 2 and len(state.won[2]) == 3


# -- O6: who wins the pile -------------------------------------------------------------
def test_o6_the_window_waits_for_a_later_but_faster_slap():
    state = position(["dog3", "cow2", "cat1"], "pig", now=0)
    state = slap(state, 0, OINK, 420, reaction_ms=400, rtt_ms=20)
    assert state.phase is Phase.COLLECT and ENGINE.next_deadline(state) == 420 + COLLECT_MS
    assert ENGINE.legal_actions(state, 0) == []          # the flipper may not flip in the window
    state = slap(state, 1, OINK, 650, reaction_ms=360, rtt_ms=290)
    state = clock(state)
    assert state.verdict.taker == 1 and [s.seat for s in state.verdict.slaps] == [1, 0]


def test_o6_pile_goes_to_the_earliest_right_slapper_and_every_wrong_one_is_punished():
    state = position(["dog3", "cow2", "cat1", "sheep5"], "donkey2 donkey5")
    state = slap(state, 2, OINK, 300)     # fastest, wrong: the same animal wins over the sum
    state = slap(state, 1, DONKEY, 350)
    state = slap(state, 3, DOG, 380)
    state = clock(state)
    assert state.verdict.taker == 1 and state.verdict.monkeys == (2, 3)
    assert len(state.won[1]) == 2 and state.pile == () and state.monkeys == (0, 0, 1, 1)


def test_o6_nobody_right_leaves_the_pile_and_play_goes_on():
    state = clock(slap(position(["dog3", "cow2", "cat1"], "donkey2 sheep1", flipper=2), 0, OINK, 300))
    assert state.verdict.taker is None and len(state.pile) == 2 and state.phase is Phase.WAIT
    assert state.flipper == 2 and state.round == 1


def test_o6_after_a_wrong_first_slap_a_later_right_one_still_takes_the_pile():
    state = position(["dog3", "cow2", "cat1"], "pig")
    state = clock(slap(state, 2, COW, 150))                  # wrong, alone in its window
    assert state.verdict.taker is None and state.pile_open
    state = slap(state, 1, OINK, 700)                        # a new window on the same card
    assert state.phase is Phase.COLLECT
    state = clock(state)
    assert state.verdict.taker == 1 and state.verdict.slaps == state.slaps[1:]
    assert state.monkeys == (0, 0, 1)


def test_o6_exact_ties_go_by_arrival():
    state = position(["dog3", "cow2", "cat1"], "pig")
    state = slap(state, 2, OINK, 500, reaction_ms=300, rtt_ms=200)   # ranked 300, arrives first
    state = slap(state, 1, OINK, 600, reaction_ms=300, rtt_ms=300)   # ranked 300 too
    assert clock(state).verdict.taker == 2


def test_o6_window_closes_at_once_when_everyone_has_slapped():
    state = slap(slap(position(["dog3", "cow2"], "pig"), 1, OINK, 300), 0, DOG, 310)
    assert state.verdict.taker == 1 and state.phase is Phase.WAIT


def test_o6_others_cannot_see_a_cry_before_the_verdict():
    state = slap(position(["dog3", "cow2", "cat1"], "pig"), 0, OINK, 300)
    assert ENGINE.view(state, 0)["your_slap"]["cry"] == OINK
    assert ENGINE.view(state, 1)["your_slap"] is None
    assert [p["slapped"] for p in ENGINE.view(state, 1)["players"]] == [True, False, False]
    assert ENGINE.view(state, None)["verdict"] is None


def test_o6_the_verdict_is_in_every_view():
    state = position(["dog3", "cow2", "cat1"], "pig")
    state = clock(slap(slap(state, 2, DOG, 280, rtt_ms=0), 1, OINK, 330, rtt_ms=0))
    verdict = ENGINE.view(state, None)["verdict"]
    assert verdict == {
        "pile": 1, "cry": OINK, "cry_name": "Oink!", "taker": 1, "cards": 1, "monkeys": [2], "penalties": [],
        "slaps": [
            {"seat": 2, "cry": DOG, "cry_name": "Woof-woof", "reaction_ms": 280, "right": False, "early": False},
            {"seat": 1, "cry": OINK, "cry_name": "Oink!", "reaction_ms": 330, "right": True, "early": False},
        ],
    }


def test_o6_o9_after_a_wrong_first_slap_the_fastest_right_slap_still_wins():
    """The rulebook gives the pile to the next slapper when the first was wrong; O9 says
    "next" by reaction, so the window waits for a right slap that could still beat one in it."""
    state = position(["dog3", "cow2", "cat1", "sheep5"], "pig")
    state = slap(state, 0, COW, 500, rtt_ms=0)                         # wrong: opens the window
    assert ENGINE.next_deadline(state) == 500 + COLLECT_MS
    state = slap(state, 1, OINK, 700, rtt_ms=0)                        # right, reacted in 700 ms
    assert ENGINE.next_deadline(state) == 700 + LAG_CAP_MS             # open for anyone faster
    state = slap(state, 2, OINK, 850, reaction_ms=550, rtt_ms=300)     # right, reacted in 550 ms
    assert state.verdict.taker == 2 and state.phase is Phase.WAIT      # nobody later can beat 550
    assert [(s.seat, s.ranked_ms) for s in state.verdict.slaps] == [(0, 500), (2, 550), (1, 700)]
    assert state.monkeys == (1, 0, 0, 0)


def test_o6_o9_after_two_wrong_slaps_the_fastest_right_slap_still_wins():
    state = position(["dog3", "cow2", "cat1", "sheep5", "chick2"], "pig")
    state = slap(state, 0, COW, 400, rtt_ms=0)
    state = slap(state, 1, DOG, 450, rtt_ms=0)
    state = slap(state, 2, OINK, 600, rtt_ms=0)
    assert ENGINE.next_deadline(state) == 600 + LAG_CAP_MS
    state = clock(slap(state, 3, OINK, 880, reaction_ms=580, rtt_ms=300))
    assert state.verdict.taker == 3 and state.monkeys == (1, 1, 0, 0, 0)


def test_o6_o9_a_right_slap_just_inside_the_extended_window_is_ranked():
    state = position(["dog3", "cow2", "cat1", "sheep5"], "pig")
    state = slap(slap(state, 0, COW, 500, rtt_ms=0), 1, OINK, 700, rtt_ms=0)
    state = slap(state, 2, OINK, 999, reaction_ms=699, rtt_ms=300)      # the last moment it could win
    assert state.verdict.taker == 2


def test_o6_o9_a_right_slap_just_outside_the_extended_window_could_not_have_won():
    state = position(["dog3", "cow2", "cat1", "sheep5"], "pig")
    state = slap(slap(state, 0, COW, 500, rtt_ms=0), 1, OINK, 700, rtt_ms=0)
    with pytest.raises(IllegalAction):
        clock(state, 999)                                                # still open at 999 ms
    state = clock(state, 1000)
    assert state.verdict.taker == 1
    with pytest.raises(IllegalAction, match="late: the pile has been taken"):
        slap(state, 2, OINK, 1001, reaction_ms=500, rtt_ms=300)          # ranked at least 701 anyway


def test_o6_a_right_first_slap_keeps_the_plain_window():
    state = slap(position(["dog3", "cow2", "cat1"], "pig"), 0, OINK, 200, rtt_ms=0)
    assert ENGINE.next_deadline(state) == 200 + COLLECT_MS


# -- O7: round end ------------------------------------------------------------------------
def test_o7_taker_wins_the_pile_and_flips_first_next_round():
    state = position(["dog3 dog4", "cow2 cow6", "cat1 cat4"], "sheep1 pig", flipper=1)
    state = clock(slap(state, 2, OINK, 300))
    assert state.won[2] == Cards()("sheep1 pig") and state.round == 2 and state.flipper == 2
    state = ready_to_flip(state)
    assert ENGINE.legal_actions(state, 2) == [{"type": "flip"}]


def test_o7_empty_decks_are_skipped_but_may_still_slap():
    state = flip(position(["dog3", "", "cat1 cat2"], "sheep1", flipper=0), 0)
    assert state.flipper == 2
    assert len(ENGINE.legal_actions(state, 1)) == 7


# -- O8: game end ----------------------------------------------------------------------------
def test_o8_game_ends_when_a_round_ends_with_an_empty_deck():
    state = position(["", "cow2", "cat1"], "pig", flipper=1)
    state = clock(slap(state, 0, OINK, 300))
    assert state.phase is Phase.OVER and ENGINE.next_deadline(state) is None
    outcome = ENGINE.outcome(state)
    assert outcome.scores == (1, 0, 0) and outcome.ranks == (1, 2, 2)


def test_o8_the_last_card_gets_its_window_then_nobody_gets_the_pile():
    state = flip(position(["", "cow2"], "dog1", flipper=1), 0)
    assert state.flipper is None and state.phase is Phase.WAIT
    assert len(ENGINE.legal_actions(state, 0)) == 7
    state = clock(state)
    assert state.phase is Phase.OVER and len(state.pile) == 2
    assert ENGINE.outcome(state).ranks == (1, 1)


def test_o8_the_last_card_can_still_be_taken():
    state = flip(position(["", "cow5"], "dog2", flipper=1), 0)
    state = clock(slap(state, 0, OINK, 400))
    assert state.phase is Phase.OVER and ENGINE.outcome(state).scores == (2, 0)


def test_o8_after_a_wrong_slap_the_last_card_waits_for_the_others_then_the_game_ends():
    state = flip(position(["", "cow5", ""], "dog1", flipper=1), 0)
    state = clock(slap(state, 0, OINK, 400))
    assert state.phase is Phase.WAIT and state.monkeys == (1, 0, 0)
    assert ENGINE.legal_actions(state, 0) == [] and len(ENGINE.legal_actions(state, 2)) == 7
    state = clock(state)
    assert state.phase is Phase.OVER and ENGINE.outcome(state).scores == (0, 0, 0)


def test_o8_the_game_ends_at_once_when_everyone_slapped_the_last_card_wrong():
    state = flip(position(["", "cow5"], "dog1", flipper=1), 0)
    state = slap(slap(state, 0, OINK, 400), 1, COW, 420)
    assert state.phase is Phase.OVER and state.monkeys == (1, 1)


def test_o8_most_cards_wins_and_equal_counts_share():
    state = position(["", "cow2", "cat1"], "pig", ["dog1 dog2", "cow3", "sheep3 sheep4"], flipper=1)
    state = clock(slap(state, 1, OINK, 300))
    assert ENGINE.outcome(state).scores == (2, 2, 2) and ENGINE.outcome(state).ranks == (1, 1, 1)


# -- O9: fair reflexes -------------------------------------------------------------------------
def test_o9_faster_reaction_wins_over_a_slower_network():
    state = position(["dog3", "cow2", "cat1"], "pig")
    state = slap(state, 0, OINK, 340, reaction_ms=320, rtt_ms=20)    # fibre: reacted in 320 ms
    state = slap(state, 1, OINK, 560, reaction_ms=260, rtt_ms=300)   # phone: reacted in 260 ms
    state = clock(state)
    assert state.verdict.taker == 1
    assert [(s.seat, s.ranked_ms) for s in state.verdict.slaps] == [(1, 260), (0, 320)]


def test_o9_a_claim_faster_than_the_server_can_confirm_gains_nothing():
    honest = slap(position(["dog3", "cow2"], "pig"), 0, OINK, 340, reaction_ms=320, rtt_ms=20)
    boast = slap(position(["dog3", "cow2"], "pig"), 0, OINK, 340, reaction_ms=5, rtt_ms=20)
    silent = slap(position(["dog3", "cow2"], "pig"), 0, OINK, 340, rtt_ms=20)
    assert honest.slaps[0].ranked_ms == boast.slaps[0].ranked_ms == silent.slaps[0].ranked_ms == 320


def test_o9_lag_credit_is_capped():
    state = slap(position(["dog3", "cow2"], "pig"), 0, OINK, 1500, reaction_ms=200, rtt_ms=1200)
    assert state.slaps[0].ranked_ms == 1500 - LAG_CAP_MS and not state.slaps[0].early


def test_o9_a_claim_slower_than_the_arrival_is_ranked_at_the_arrival():
    state = slap(position(["dog3", "cow2"], "pig"), 0, OINK, 400, reaction_ms=9000, rtt_ms=50)
    assert state.slaps[0].ranked_ms == 400


def test_o9_without_a_measured_round_trip_a_slap_ranks_by_its_arrival():
    state = slap(position(["dog3", "cow2"], "pig"), 0, OINK, 400, reaction_ms=100)
    assert state.slaps[0].ranked_ms == 400


def test_o9_a_slap_before_the_card_could_be_seen_is_a_false_slap():
    state = position(["dog3", "cow2", "cat1"], "pig")
    state = slap(state, 0, OINK, 150, reaction_ms=0, rtt_ms=200)     # sent before the card arrived
    state = slap(state, 1, OINK, 450, reaction_ms=250, rtt_ms=200)
    state = clock(state)
    assert state.verdict.taker == 1 and state.monkeys == (1, 0, 0)
    assert state.verdict.slaps[0].early and "too early" in state.log[-2].text


@pytest.mark.parametrize("field,value", [
    ("reaction_ms", -1), ("reaction_ms", 60_001), ("reaction_ms", 1.5), ("reaction_ms", "300"),
    ("reaction_ms", True), ("rtt_ms", -5), ("rtt_ms", [20]), ("rtt_ms", 10**9),
])
def test_o9_reported_times_are_checked(field, value):
    state = position(["dog3", "cow2"], "pig")
    with pytest.raises(IllegalAction):
        slap(state, 0, OINK, 300, **{field: value})


@pytest.mark.parametrize("action", [
    {"type": "slap", "cry": 7, "pile": 1}, {"type": "slap", "cry": "6", "pile": 1},
    {"type": "slap", "cry": 6}, {"type": "slap", "cry": 6, "pile": 1, "extra": 1},
    {"type": "flip", "card": 3}, {"type": "dance"}, {}, [], None, "slap",
])
def test_malformed_actions_are_refused(action):
    state = position(["dog3", "cow2"], "pig")
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, action, 300)


# -- O10: stale input ------------------------------------------------------------------------
def test_o10_a_slap_queued_while_disconnected_is_refused_later():
    state = position(["dog3 cat2", "cow2 pig"], "sheep1", flipper=0)
    queued = {"type": "slap", "cry": SHEEP, "pile": state.pile_id}
    state = flip(state, 100)                                     # the pile moved on meanwhile
    state = flip(ready_to_flip(state), 1200)
    with pytest.raises(IllegalAction, match="late"):
        ENGINE.apply(state, 1, queued, 5000)


def test_a_flip_may_carry_the_round_trip_the_platform_adds():
    state = position(["dog3", "cow2"])
    assert flip(state, 10) == ENGINE.apply(state, 0, {"type": "flip", "rtt_ms": 40}, 10)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, {"type": "flip", "rtt_ms": -1}, 10)
