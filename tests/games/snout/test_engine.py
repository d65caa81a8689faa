"""The Snout! engine at its edges: metadata and options, refused input, the log, dump/load."""
import json

import pytest

from games.core import IllegalAction
from games.core.playout import play
from games.snout.bots import BOTS
from games.snout.engine import ENGINE
from games.snout.state import Phase
from tests.games.snout.fixtures import letters, position


def test_metadata_and_option_defaults():
    assert (ENGINE.slug, ENGINE.title, ENGINE.min_seats, ENGINE.max_seats) == ("snout", "Snout!", 2, 6)
    assert ENGINE.clean_options(None) == {"toss_odds": "kern", "early_snout": False, "turn_seconds": 30}
    state = ENGINE.start(3, 1, {"toss_odds": "cards", "early_snout": True, "turn_seconds": 20})
    assert (state.toss_odds, state.early_snout, state.turn_seconds) == ("cards", True, 20)


@pytest.mark.parametrize("options", [{"toss_odds": "dice"}, {"early_snout": "maybe"}, {"turn_seconds": -1},
                                     {"jokers": True}, {"early_snout": "on"}, {"turn_seconds": "20"},
                                     {"turn_seconds": 20.0}])
def test_bad_options_are_refused(options):
    with pytest.raises(IllegalAction):
        ENGINE.start(4, 1, options)


@pytest.mark.parametrize("seats", [1, 7, "4", True])
def test_bad_seat_counts_are_refused(seats):
    with pytest.raises(IllegalAction):
        ENGINE.start(seats, 1)


def test_the_same_seed_deals_the_same_game():
    assert ENGINE.start(4, 99) == ENGINE.start(4, 99)
    assert ENGINE.start(4, 99).hands != ENGINE.start(4, 100).hands


PASSING = position(["ssssrrtj", "dddddddd"], phase=Phase.PASS)


@pytest.mark.parametrize("seat,action", [
    (0, "toss"), (0, None), (0, []), (0, {}), (0, {"type": 5}), (0, {"type": "dance"}),
    (0, {"type": "pass"}), (0, {"type": "pass", "pigs": "sss"}), (0, {"type": "pass", "pigs": [1, 2, 3]}),
    (0, {"type": "pass", "pigs": [["sider"], "sider", "sider"]}), (0, {"type": "pass", "pigs": ["sider"] * 4}),
    (0, {"type": "pass", "pigs": ["sider", "sider", "sider"], "extra": 1}), (0, {"type": "toss"}),
    (0, {"type": "clock"}), (2, {"type": "pass", "pigs": ["sider"] * 3}), (-1, {"type": "toss"}),
    (True, {"type": "pass", "pigs": ["sider"] * 3}), ("0", {"type": "pass", "pigs": ["sider"] * 3}),
    (None, {"type": "toss"}), (None, "clock"),
])
def test_malformed_or_untimely_actions_are_refused(seat, action):
    with pytest.raises(IllegalAction):
        ENGINE.apply(PASSING, seat, action, 0)


def test_a_pass_may_name_its_positions_in_any_order():
    state = ENGINE.apply(PASSING, 0, {"type": "pass", "pigs": ["jowler", "sider", "razorback"]}, 0)
    assert letters(state.passes[0]) == "srj"


def test_the_log_keeps_the_last_30_events_and_counts_them_all():
    result = play(ENGINE, [BOTS["sensible"]] * 4, seed=3)
    log = ENGINE.view(result.state, 0)["log"]
    assert len(log) == 30 and log[-1]["n"] == result.state.log_n > 30
    assert [event["n"] for event in log] == list(range(result.state.log_n - 29, result.state.log_n + 1))
    assert log[-1]["text"].startswith("wins the game with ")


def test_dump_is_plain_json_and_loads_back_exactly():
    state = ENGINE.start(5, 8, {"early_snout": True})
    for _ in range(40):
        data = ENGINE.dump(state)
        assert ENGINE.load(json.loads(json.dumps(data))) == state
        seat = next(seat for seat in range(5) if ENGINE.legal_actions(state, seat))
        state = ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[-1], 0)


def test_every_view_names_its_phase_and_whose_turn():
    state = ENGINE.start(3, 4)
    view = ENGINE.view(state, 0)
    assert view["phase"] == "pass" and view["turn"] is None
    for seat in range(3):
        state = ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0], 10)
    view = ENGINE.view(state, None)
    assert view["phase"] == "toss" and view["turn"] == state.dealer
    assert view["log"][-1] == {"n": state.log_n, "seat": None, "text": "Everyone passed three cards to the left."}
