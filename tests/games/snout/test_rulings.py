"""One test (or a few) per Snout! ruling S1–S11, each from a concrete position, move by move."""
from itertools import combinations

import pytest

from games.core import IllegalAction
from games.core.contract import UNTIMED_LIMIT_SECONDS
from games.snout import pigs, rules
from games.snout.engine import ENGINE
from games.snout.pigs import JOWLER_CARD, PIGS
from games.snout.rules import HAND_SIZE, PASS_DEFAULT_MS, ROUND_PAUSE_MS, SNOUT_WINDOW_MS
from games.snout.state import Draw, End, Phase
from tests.games.snout.fixtures import LETTERS, hands_of, letters, position, rng_tossing

TOSS = {"type": "toss"}
CLOCK = {"type": "clock"}


def texts(state):
    return [(seat, text) for _, seat, text in state.log]


# S1 -------------------------------------------------------------------------

def test_s1_toss_draws_from_the_state_random_source_with_kern_or_card_odds():
    state = position(["sr", "dt"], toss="r")
    after = ENGINE.apply(state, 0, TOSS, 0)
    assert after.last_toss.pig == pigs.RAZORBACK
    assert after.rng != state.rng
    assert ENGINE.apply(state, 0, TOSS, 0) == after  # same state, same toss
    assert pigs.TOSS_ODDS["kern"] == (4180, 3607, 2674, 1057, 363, 73)
    assert pigs.TOSS_ODDS["cards"] == (18, 16, 10, 5, 2, 1)
    cards = position(["sr", "dt"], toss="t", toss_odds="cards")
    assert ENGINE.apply(cards, 0, TOSS, 0).last_toss.pig == pigs.TROTTER


# S2 -------------------------------------------------------------------------

def test_s2_highest_toss_deals_and_tied_highest_toss_again():
    # Seats 0 and 1 both toss a Razorback (5), seat 2 a Simple Sider; 0 and 1 toss again:
    # a Spotty Body for seat 0, a Trotter for seat 1, who deals.
    dealer, _, events = rules.toss_off(rng_tossing("rrsdt"), 3, "kern")
    assert dealer == 1
    assert events == [
        (0, "tossed a Razorback (5) for the deal"),
        (1, "tossed a Razorback (5) for the deal"),
        (2, "tossed a Simple Sider (1) for the deal"),
        (0, "tossed a Spotty Body (1) for the deal"),
        (1, "tossed a Trotter (5) for the deal"),
        (1, "deals first"),
    ]


def test_s2_start_runs_the_toss_off_then_deals_eight_each():
    state = ENGINE.start(4, seed=11)
    assert state.phase is Phase.PASS and state.round == 1
    assert state.tosser == state.dealer
    assert [len(hand) for hand in state.hands] == [HAND_SIZE] * 4
    assert len(state.pigsty) == 52 - 4 * HAND_SIZE and state.pig_pile == ()
    assert (state.dealer, "deals first") in texts(state)


def test_s2_the_deal_passes_left_and_the_dealer_tosses_first():
    state = position(["r", "st", "dd"], dealer=2, tosser=0, toss="r")
    state = ENGINE.apply(state, 0, TOSS, 1000)  # seat 0 goes out
    assert state.phase is Phase.ROUND_OVER
    for seat in range(3):
        state = ENGINE.apply(state, seat, {"type": "next_round"}, 2000)
    assert state.phase is Phase.PASS and state.round == 2
    assert state.dealer == 0
    for seat in range(3):
        state = ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0], 3000)
    assert state.phase is Phase.TOSS and state.tosser == 0
    assert ENGINE.legal_actions(state, 0) == [TOSS]
    assert ENGINE.legal_actions(state, 1) == []


# S3 -------------------------------------------------------------------------

def test_s3_passes_are_secret_until_all_have_chosen_then_go_left_together():
    state = position(["jrrsssss", "ddddtttt", "nnrrrrss"], phase=Phase.PASS)
    state = ENGINE.apply(state, 0, {"type": "pass", "pigs": ["razorback", "jowler", "razorback"]}, 10)
    assert hands_of(state) == ["sssssrrj", "ddddtttt", "ssrrrrnn"]  # nothing moves yet
    assert ENGINE.legal_actions(state, 0) == []
    seen_by_1 = ENGINE.view(state, 1)
    assert seen_by_1["passed"] == [True, False, False] and seen_by_1["received"] == []
    assert ENGINE.view(state, 0)["my_pass"] == ["razorback", "razorback", "jowler"]
    state = ENGINE.apply(state, 1, {"type": "pass", "pigs": ["trotter", "trotter", "trotter"]}, 20)
    state = ENGINE.apply(state, 2, {"type": "pass", "pigs": ["snouter", "snouter", "sider"]}, 30)
    assert hands_of(state) == ["ssssssnn", "ddddrrtj", "srrrrttt"]
    assert state.phase is Phase.TOSS
    assert ENGINE.view(state, 1)["received"] == ["razorback", "razorback", "jowler"]


def test_s3_two_players_pass_to_each_other():
    state = position(["ssssssss", "tttttrrr"], phase=Phase.PASS)
    state = ENGINE.apply(state, 0, {"type": "pass", "pigs": ["sider"] * 3}, 0)
    state = ENGINE.apply(state, 1, {"type": "pass", "pigs": ["trotter"] * 3}, 0)
    assert letters(state.hands[0]) == "sssssttt"
    assert letters(state.hands[1]) == "sssrrrtt"


def test_s3_a_timeout_picks_the_three_highest_cards_for_a_slow_player():
    state = position(["ssddrtnj", "ssssdddd", "rrrrsssd"], phase=Phase.PASS, now=0)
    state = ENGINE.apply(state, 1, {"type": "pass", "pigs": ["sider"] * 3}, 100)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, None, CLOCK, PASS_DEFAULT_MS - 1)
    state = ENGINE.apply(state, None, CLOCK, PASS_DEFAULT_MS)
    assert state.phase is Phase.TOSS
    assert letters(state.passes[0]) == "tnj"
    assert letters(state.passes[2]) == "rrr"
    assert letters(state.hands[1]) == "sddddtnj"
    assert (0, "ran out of time; three cards were picked to pass") in texts(state)


def test_s3_legal_passes_are_the_distinct_choices_of_positions():
    state = position(["ssssrrtj", "dddddddd"], phase=Phase.PASS)
    legal = ENGINE.legal_actions(state, 0)
    by_cards = {tuple(sorted(choice, key=LETTERS.index)) for choice in combinations("ssssrrtj", 3)}
    assert sorted(tuple(action["pigs"]) for action in legal) == sorted(
        tuple(PIGS[LETTERS.index(letter)].key for letter in choice) for choice in by_cards)
    assert len(legal) == 11  # of C(8,3) = 56 ways to pick the cards
    assert len(ENGINE.legal_actions(state, 1)) == 1


def test_s3_passing_cards_you_do_not_hold_is_refused():
    state = position(["ssssrrtd", "dddddddd"], phase=Phase.PASS)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, {"type": "pass", "pigs": ["jowler", "sider", "sider"]}, 0)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, {"type": "pass", "pigs": ["trotter", "trotter", "sider"]}, 0)


# S4 -------------------------------------------------------------------------

def test_s4_matches_discard_together_then_draws_go_clockwise_from_the_tosser():
    state = position(["ssr", "dd", "rrt", "st"], pigsty="rd", tosser=2, toss="r")
    state = ENGINE.apply(state, 2, TOSS, 5000)
    assert hands_of(state) == ["ss", "ddd", "t", "st"]
    assert letters(state.pig_pile) == "rrrr"
    assert state.last_toss.discards == (1, 0, 2, 0)
    assert state.last_toss.draws == (Draw.NONE, Draw.HIDDEN, Draw.NONE, Draw.MATCH)
    assert texts(state) == [
        (2, "tossed a Razorback — 5 points"),
        (2, "discarded two Razorbacks"),
        (0, "discarded a Razorback"),
        (3, "drew a Razorback and discarded it"),
        (1, "drew a card"),
    ]
    assert state.phase is Phase.TOSS and state.tosser == 3
    assert ENGINE.view(state, 0)["toss"]["draws"] == ["none", "hidden", "none", "match"]


def test_s4_a_tossed_jowler_nobody_holds_is_drawn_and_discarded_like_any_match():
    state = position(["ss", "dd", "rr"], pigsty="js", toss="j")
    state = ENGINE.apply(state, 0, TOSS, 0)
    assert state.phase is Phase.TOSS and state.results == ()
    assert state.pig_pile == (JOWLER_CARD,)
    assert hands_of(state)[:2] == ["ss", "sdd"]
    assert state.last_toss.draws[0] is Draw.MATCH


def test_s4_only_the_tosser_may_toss():
    state = position(["ss", "dd", "rr"], tosser=1, toss="r")
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, TOSS, 0)
    assert ENGINE.apply(state, 1, TOSS, 0).last_toss.seat == 1


# S5 -------------------------------------------------------------------------

def test_s5_an_empty_pigsty_takes_the_shuffled_pig_pile():
    before = position(["sd", "dt"], pigsty="", pile="r", rest="pile", toss="s")
    assert before.pigsty == () and len(before.pig_pile) == 48
    state = ENGINE.apply(before, 0, TOSS, 0)
    assert state.last_toss.reshuffled
    assert (None, "The Pig Pile was shuffled into a new Pigsty.") in texts(state)
    discarded = set(before.hands[0]) - set(state.hands[0])
    drawn = set(state.hands[1]) - set(before.hands[1])
    assert len(discarded) == 1 and len(state.pigsty) == 48
    assert set(state.pigsty) | set(state.pig_pile) | drawn == set(before.pig_pile) | discarded
    assert list(state.pigsty) != sorted(state.pigsty)  # shuffled, not stacked


# S6 -------------------------------------------------------------------------

def test_s6_the_turn_timer_tosses_for_a_slow_tosser():
    state = position(["ss", "dd"], tosser=1, toss="r", turn_seconds=30, now=1000)
    assert ENGINE.next_deadline(state) == 31_000
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, None, CLOCK, 30_999)
    state = ENGINE.apply(state, None, CLOCK, 31_000)
    assert state.last_toss.seat == 1 and state.last_toss.pig == pigs.RAZORBACK
    assert state.tosser == 0 and ENGINE.next_deadline(state) == 61_000


def test_s6_without_a_turn_timer_the_pig_is_tossed_for_an_idle_tosser_after_the_longest_wait():
    """Issue 10: no live table waits for ever on one person, timer or not."""
    state = ENGINE.start(2, 1, {"turn_seconds": 0})
    for seat in range(2):
        state = ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0], 1000)
    assert state.phase is Phase.TOSS
    assert ENGINE.next_deadline(state) == 1000 + UNTIMED_LIMIT_SECONDS * 1000
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, None, CLOCK, UNTIMED_LIMIT_SECONDS * 1000)
    tosser = state.tosser
    state = ENGINE.apply(state, None, CLOCK, 1000 + UNTIMED_LIMIT_SECONDS * 1000)
    assert state.last_toss.seat == tosser


# S7 -------------------------------------------------------------------------

def test_s7_a_tossed_jowler_wins_the_round_for_its_holder_with_15():
    state = position(["sst", "jrs", "nd"], toss="j")
    state = ENGINE.apply(state, 0, TOSS, 0)
    assert hands_of(state) == ["sst", "srj", "dn"]  # nothing discarded, nothing drawn
    result = state.results[-1]
    assert result.end is End.JOWLER and result.winners == (1,)
    assert result.points == (0, 7 + 11 + 15, 0)
    assert state.scores == (0, 33, 0) and state.phase is Phase.ROUND_OVER
    assert (1, "holds the Leaning Jowler — Snout!") in texts(state)


# S8 -------------------------------------------------------------------------

def test_s8_simultaneous_snouts_split_the_points_rounded_down_plus_10_each():
    state = position(["r", "rr", "sdtt"], pigsty="s", toss="r")
    state = ENGINE.apply(state, 0, TOSS, 0)
    result = state.results[-1]
    assert result.end is End.OUT and result.winners == (0, 1)
    assert result.hand_points == (0, 0, 13)
    assert result.points == (6 + 10, 6 + 10, 0)
    assert (0, "went out — Snout!") in texts(state) and (1, "went out — Snout!") in texts(state)


def test_s8_a_jowler_left_in_a_losing_hand_counts_15():
    state = position(["t", "jr"], pigsty="s", toss="t")
    state = ENGINE.apply(state, 0, TOSS, 0)
    assert state.results[-1].points == (15 + 5 + 1 + 10, 0)


def test_s8_snout_comes_after_the_draws():
    state = position(["r", "ss"], pigsty="r", tosser=1, toss="r")
    state = ENGINE.apply(state, 1, TOSS, 0)
    # Seat 1 drew the Razorback and discarded it, but still holds its Simple Siders.
    assert state.last_toss.draws == (Draw.NONE, Draw.MATCH)
    assert state.results[-1].winners == (0,) and state.results[-1].points == (12, 0)


# S9 -------------------------------------------------------------------------

def test_s9_the_game_ends_after_a_round_that_takes_someone_to_100_and_ties_share():
    state = position(["r", "t", "s"], pigsty="ss", toss="r", scores=(92, 110, 60))
    state = ENGINE.apply(state, 0, TOSS, 0)
    assert state.results[-1].points == (18, 0, 0)
    assert state.phase is Phase.GAME_OVER and ENGINE.next_deadline(state) is None
    outcome = ENGINE.outcome(state)
    assert outcome.scores == (110, 110, 60) and outcome.ranks == (1, 1, 3)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, {"type": "next_round"}, 1)


def test_s9_below_100_the_next_round_is_dealt_after_the_pause():
    state = position(["r", "t", "s"], pigsty="ss", toss="r", scores=(10, 20, 30))
    state = ENGINE.apply(state, 0, TOSS, 500)
    assert state.phase is Phase.ROUND_OVER and ENGINE.outcome(state) is None
    assert state.results[-1].totals == (28, 20, 30)
    assert ENGINE.next_deadline(state) == 500 + ROUND_PAUSE_MS
    state = ENGINE.apply(state, None, CLOCK, 500 + ROUND_PAUSE_MS)
    assert state.phase is Phase.PASS and state.round == 2 and state.scores == (28, 20, 30)


# S10 ------------------------------------------------------------------------

def early(hands=("sr", "dt", "nj"), **kwargs):
    """Seat 0 tosses a Spotty Body; seat 1 sheds its Spotty; seats 0 and 2 draw a Simple Sider each."""
    state = position(list(hands), pigsty="ss", toss="d", early_snout=True, **kwargs)
    return ENGINE.apply(state, 0, TOSS, 1000)


def test_s10_after_a_toss_anyone_may_call_snout_during_a_short_window():
    state = early()
    assert state.phase is Phase.SNOUT_WINDOW and ENGINE.next_deadline(state) == 1000 + SNOUT_WINDOW_MS
    assert all(ENGINE.legal_actions(state, seat) == [{"type": "snout"}, {"type": "play_on"}] for seat in range(3))
    assert ENGINE.view(state, 0)["turn"] is None


def test_s10_a_lowest_caller_scores_opponents_points_minus_own_without_bonus():
    state = ENGINE.apply(early(), 1, {"type": "snout"}, 2000)
    result = state.results[-1]
    assert result.hand_points == (7, 5, 26)
    assert result.end is End.EARLY_SNOUT and result.caller == 1 and result.winners == (1,)
    assert result.points == (0, 7 + 26 - 5, 0)
    assert (1, "called Snout! holding 5 points") in texts(state)


def test_s10_a_caller_who_is_not_lowest_loses_10_and_the_lowest_scores():
    state = ENGINE.apply(early(), 0, {"type": "snout"}, 2000)
    assert state.results[-1].winners == (1,)
    assert state.results[-1].points == (-10, 28, 0)
    assert (0, "loses 10 points") in texts(state)


def test_s10_every_tied_lowest_hand_scores():
    state = early(hands=("sr", "dtss", "nj"))
    state = ENGINE.apply(state, 0, {"type": "snout"}, 2000)
    result = state.results[-1]
    assert result.hand_points == (7, 7, 26)
    assert result.winners == (0, 1) and result.points == (26, 26, 0)


def test_s10_the_window_closes_when_everyone_plays_on_or_at_its_deadline():
    state = early()
    for seat in range(3):
        assert state.phase is Phase.SNOUT_WINDOW
        state = ENGINE.apply(state, seat, {"type": "play_on"}, 1500)
    assert state.phase is Phase.TOSS and state.tosser == 1
    state = ENGINE.apply(early(), 2, {"type": "play_on"}, 1500)
    assert ENGINE.legal_actions(state, 2) == []
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, None, CLOCK, 1000 + SNOUT_WINDOW_MS - 1)
    state = ENGINE.apply(state, None, CLOCK, 1000 + SNOUT_WINDOW_MS)
    assert state.phase is Phase.TOSS and state.tosser == 1


def test_s10_without_the_option_there_is_no_window_and_no_call():
    state = position(["sr", "dt", "nj"], pigsty="ss", toss="d")
    state = ENGINE.apply(state, 0, TOSS, 1000)
    assert state.phase is Phase.TOSS
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 2, {"type": "snout"}, 1000)


def test_s10_snout_cannot_be_called_before_a_toss():
    state = position(["sr", "dt", "nj"], toss="d", early_snout=True)
    assert ENGINE.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, {"type": "snout"}, 0)


# S11 ------------------------------------------------------------------------

def test_s11_a_seat_sees_its_hand_every_size_the_pile_and_the_toss_but_no_other_hand():
    state = position(["ssr", "dd", "rrt", "st"], pigsty="rd", tosser=2, toss="r")
    state = ENGINE.apply(state, 2, TOSS, 0)
    seen = ENGINE.view(state, 1)
    assert [group["pig"] for group in seen["hand"]] == ["spotty"]
    assert sorted(card["card"] for card in seen["hand"][0]["cards"]) == sorted(state.hands[1])
    assert seen["hand_sizes"] == [2, 3, 1, 2] and seen["pigsty"] == len(state.pigsty)
    assert [card["card"] for card in seen["pig_pile"]] == list(state.pig_pile)
    assert seen["toss"]["pig"] == "razorback" and seen["toss"]["points"] == 5
    assert seen["hands"] is None
    hidden = ENGINE.hidden_cards(state, 1)
    assert hidden == frozenset(state.pigsty) | {c for s in (0, 2, 3) for c in state.hands[s]}
    assert ENGINE.view(state, None)["hand"] == []
    assert ENGINE.hidden_cards(state, None) == hidden | set(state.hands[1])


def test_s11_every_hand_is_shown_when_the_round_is_scored():
    state = ENGINE.apply(position(["r", "t", "sj"], pigsty="ss", toss="r"), 0, TOSS, 0)
    assert state.phase is Phase.ROUND_OVER
    shown = ENGINE.view(state, None)["hands"]
    assert [[card["card"] for card in hand] for hand in shown] == [list(hand) for hand in state.hands]
    assert ENGINE.hidden_cards(state, None) == frozenset(state.pigsty)
    sheet = ENGINE.view(state, 2)["rounds"][-1]
    assert sheet["hands"][2] == [{"pig": "sider", "name": "Simple Sider", "count": 2},
                                 {"pig": "jowler", "name": "Leaning Jowler", "count": 1}]
    assert sheet["hand_points"] == [0, 6, 17] and sheet["points"] == [33, 0, 0]
