"""The Snout! table template renders every phase from real engine views: legal actions are
offered only to the seats that may act (each exactly once), the pass picker only to a seat
still choosing, and no card the viewer may not see (``ENGINE.hidden_cards``) appears anywhere
in the HTML."""
import html
import json
import re

import pytest

from games.core.playout import play
from games.core.viewcheck import cards_in_html
from games.snout.bots import BOTS
from games.snout.engine import ENGINE, NEXT_ROUND, PLAY_ON, SNOUT, TOSS
from games.snout.rules import timeout_pass
from games.snout.state import Phase
from games.snout.templatetags.chart import geometry
from tests.games.table_template import render_table

from .fixtures import position

ACTION = re.compile(r'name="action" value="([^"]*)"')
PICKS = re.compile(r'<button type="button" class="card sn-pick" data-card="(\d+)"[^>]*aria-pressed="(true|false)"')
TOP_LEVEL = ("sn-css", "sn-js", "sn-info", "sn-others", "sn-table", "sn-toss", "sn-prompt", "sn-hand",
             "sn-round", "sn-sheet")


def render(state, seat):
    return render_table(ENGINE, state, seat)


def check(state):
    """Render for every seat and a spectator, check the offers and the leaks; the pages by viewer."""
    pages = {}
    for viewer in [*range(state.seats), None]:
        page, legal = render(state, viewer)
        offered = [json.loads(html.unescape(value)) for value in ACTION.findall(page)]
        passes = [action for action in legal if action["type"] == "pass"]
        others = [action for action in legal if action["type"] != "pass"]
        assert sorted(map(json.dumps, [a for a in offered if a["type"] != "pass"])) == sorted(map(json.dumps, others))
        assert page.count("ws-send") == len(others) + (1 if passes else 0)
        for action in offered:
            assert action in legal
        if not passes:
            assert "sn-pick" not in page
        assert not cards_in_html(page) & ENGINE.hidden_cards(state, viewer)
        for element in TOP_LEVEL:
            assert f'id="{element}"' in page
        pages[viewer] = page
    return pages


def test_s3_the_pass_picker_is_offered_preset_to_the_three_highest_cards():
    state = position(["ssdrtnjr", "ssssdddd", "ddddssss"], phase=Phase.PASS)
    pages = check(state)
    picks = PICKS.findall(pages[0])
    assert len(picks) == 8
    chosen = {int(card) for card, pressed in picks if pressed == "true"}
    assert chosen == set(timeout_pass(state.hands[0]))
    offered = [json.loads(html.unescape(value)) for value in ACTION.findall(pages[0])]
    assert offered == [{"type": "pass", "pigs": ["trotter", "snouter", "jowler"]}]
    assert "Choose three cards to pass to Player 2." in pages[0]
    assert "Pass these 3 to Player 2" in pages[0]
    assert "sn-pick" not in pages[None] and 'id="sn-hand"' in pages[None]


def test_s3_after_choosing_a_seat_sees_its_pass_and_who_is_still_choosing():
    state = position(["ssdrtnjr", "ssssdddd", "ddddssss"], phase=Phase.PASS)
    state = ENGINE.apply(state, 0, {"type": "pass", "pigs": ["sider", "sider", "spotty"]}, 0)
    pages = check(state)
    assert "You pass two Simple Siders and a Spotty Body to Player 2 once everyone has chosen." in pages[0]
    assert "Waiting for Player 2 and Player 3 to choose." in pages[0]
    assert pages[1].count("chosen ✓") == 1 and pages[1].count("choosing…") == 1
    assert "You pass" not in pages[1]


def test_s3_received_cards_are_named_until_the_first_toss():
    state = position(["ssdrtnjr", "ssssdddd", "ddddssss"], phase=Phase.PASS)
    for seat, pigs in enumerate((["snouter", "jowler", "trotter"], ["sider", "sider", "sider"],
                                 ["spotty", "spotty", "spotty"])):
        state = ENGINE.apply(state, seat, {"type": "pass", "pigs": pigs}, 0)
    assert state.phase is Phase.TOSS
    pages = check(state)
    assert "From Player 3: three Spotty Bodies." in pages[0]
    assert "From Player 1: a Trotter, a Snouter and the Leaning Jowler." in pages[1]


def test_s4_the_toss_names_the_position_its_points_and_what_every_hand_did():
    state = position(["ssr", "dt", "rrn"], pigsty="ds", toss="r", tosser=0)
    before = check(state)
    assert "You have the pig: toss it!" in before[0] and "Player 1 has the pig." in before[1]
    assert "No toss yet this round." in before[None]
    state = ENGINE.apply(state, 0, TOSS, 0)
    pages = check(state)
    page = pages[None]
    assert 'class="sn-toss__name">Razorback</strong>' in page and "5 pts" in page
    assert "<b>Player 1</b> discarded a Razorback" in page
    assert "<b>Player 2</b> drew a card" in page
    assert "<b>Player 3</b> discarded two Razorbacks" in page
    assert "<b>You</b> discarded a Razorback" in pages[0]
    assert "3 cards</span>" in page  # Player 2 holds three cards now
    assert "Player 2 has the pig." in page


def test_s4_s5_a_drawn_match_and_a_reshuffle_are_told():
    state = position(["ssr", "dt"], pigsty="r", toss="r", rest="pile")
    page = check(ENGINE.apply(state, 0, TOSS, 0))[None]
    assert "<b>Player 2</b> drew a Razorback and discarded it" in page
    assert "Pig Pile was shuffled" not in page
    state = position(["ssr", "dt"], toss="r", rest="pile")
    page = check(ENGINE.apply(state, 0, TOSS, 0))[None]
    assert "The Pig Pile was shuffled into a new Pigsty." in page


def test_s10_the_snout_window_offers_snout_and_play_on_to_those_who_have_not_played_on():
    state = position(["ssr", "dt", "rrn"], pigsty="ds", toss="r", early_snout=True)
    state = ENGINE.apply(state, 0, TOSS, 0)
    assert state.phase is Phase.SNOUT_WINDOW
    state = ENGINE.apply(state, 2, PLAY_ON, 0)
    pages = check(state)
    assert "Call Snout! with 2 points in hand, or play on." in pages[0]
    assert "Snout! (2 points in hand)" in pages[0] and "Play on" in pages[0]  # issue 15: points, not cards
    assert "ws-send" not in pages[2] and "plays on ✓" in pages[0]
    assert "ws-send" not in pages[None]


def test_s11_a_scored_round_shows_every_hand_and_the_score_sheet():
    state = position(["ssr", "dt", "rrn"], pigsty="ds", toss="r", early_snout=True)
    state = ENGINE.apply(ENGINE.apply(state, 0, TOSS, 0), 1, SNOUT, 0)
    assert state.phase is Phase.ROUND_OVER
    pages = check(state)
    page = pages[None]
    assert "Player 1 held the fewest points when Snout! was called by Player 2." in page
    for hand in state.hands:
        for card in hand:
            assert f'data-card="{card}"' in page
    assert "called Snout!</span>" in page
    assert "Round 1 is scored." in pages[0] and "Next round" in pages[0]
    assert '<polyline points="' in page and "Running totals by round: Player 1 " in page
    assert 'id="sn-hand" class="sn-hand" aria-label="Your hand"></section>' in pages[0]
    state = ENGINE.apply(state, 0, NEXT_ROUND, 0)
    pages = check(state)
    assert "Waiting for Player 2 and Player 3 to deal on." in pages[0] and "ready ✓" in pages[1]


def test_s9_game_over_names_the_winner_and_keeps_the_sheet():
    state = position(["s", "rr", "tn"], pigsty="d", toss="s", scores=(95, 40, 12))
    state = ENGINE.apply(state, 0, TOSS, 0)
    assert state.phase is Phase.GAME_OVER
    pages = check(state)
    assert "Game over: You win with 131 points." in pages[0]
    assert "Game over: Player 1 wins with 131 points." in pages[None]
    assert "Round 1 — the last" in pages[None]
    assert '<td class="is-winner">+36</td>' in pages[None]
    assert '<td class="sn-sheet__total is-leader">131</td>' in pages[None]
    assert '<td class="sn-sheet__total">40</td>' in pages[None]


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_every_state_of_a_bot_game_renders_without_leaks(seats):
    """Every state a whole bot game passes through (with early Snout, so every phase appears)."""
    seen = set()

    def on_step(state, seat, action, at):
        if state.phase.value not in seen or state.tosses % 7 == 0:
            seen.add(state.phase.value)
            check(state)

    result = play(ENGINE, [BOTS["sensible"]] * seats, seed=seats, options={"early_snout": True}, on_step=on_step)
    assert result.outcome is not None
    assert seen == {phase.value for phase in Phase}


def test_the_chart_reaches_the_target_and_goes_below_zero_after_a_penalty():
    chart = geometry([[20, -40], [35, 160]], ["Ana", "Bea"], 100)
    labels = [tick["label"] for tick in chart["ticks"]]
    assert labels == [-40, 0, 50, 100, 160]
    assert [tick["target"] for tick in chart["ticks"]] == [False, False, False, True, False]
    ana, bea = chart["lines"]
    assert ana["points"].split()[0] == bea["points"].split()[0]  # both start at 0 before round 1
    assert [dot["value"] for dot in bea["dots"]] == [-40, 160]
    assert bea["dots"][-1]["y"] == min(tick["y"] for tick in chart["ticks"])
    assert chart["summary"] == "Ana 35, Bea 160"


def test_the_chart_drops_axis_labels_that_would_overlap_keeping_the_target_and_zero():
    chart = geometry([[20, -10], [35, 105]], ["Ana", "Bea"], 100)
    assert [tick["label"] for tick in chart["ticks"]] == [0, 50, 100]
