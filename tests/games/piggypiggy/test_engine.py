"""The Piggy Piggy engine at the contract's edges: refused input, the log, dump/load mid-prompt, views."""
import json

import pytest

from games.core import IllegalAction
from games.piggypiggy.engine import ENGINE
from games.piggypiggy.state import LOG_LENGTH
from tests.games.piggypiggy.fixtures import end_play, goat, play, table


@pytest.mark.parametrize("action", [
    None, "end_play", [], {}, {"type": "dance"}, {"type": "play_food"}, {"type": "play_food", "food": "kale"},
    {"type": "play_food", "food": ["tacos"]}, {"type": "goat"}, {"type": "goat", "seat": "1", "card": 0},
    {"type": "goat", "seat": 1, "card": "x"}, {"type": "goat", "seat": 0, "card": 0}, {"type": "add", "cards": []},
    {"type": "clock"}, {"type": "end_play", "extra": 1},
])
def test_malformed_or_foreign_actions_are_refused(action):
    state = table(["G T1", "I1"], stacks=["T2", "D1"])
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, action, 0)


@pytest.mark.parametrize("seat", [1, 2, -1, "0", None])
def test_only_the_current_player_acts_in_step_one(seat):
    state = table(["T1", "I1"])
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, seat, {"type": "end_play"}, 0)


def test_malformed_add_is_refused():
    state = goat(table(["G I1", "C1", "T1 I2"], stacks=["", "T3", "T2"], pigs={"T": 1}), 1, "T3")
    for cards in (None, "T1", [None], [1.5], [[1]], [state.hands[2][0]] * 2):
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, 2, {"type": "add", "cards": cards}, 0)


def test_dump_and_load_round_trip_through_json_mid_prompt():
    state = goat(table(["G I1", "C1", "T1 I2"], stacks=["", "T3", "T2"], pigs={"T": 1}, turn_seconds=40), 1, "T3",
                 now_ms=2500)
    assert state.prompt is not None
    assert ENGINE.load(json.loads(json.dumps(ENGINE.dump(state)))) == state


def test_the_log_counts_every_event_and_keeps_the_last_thirty():
    state = table(["T1 D1 I1 C1 F1", "T2", "D2", "I2"], draw="G G G G G G G G")
    for _ in range(35):  # fewer turns than the drought allows (PG10)
        state = end_play(state)
    log = ENGINE.view(state, 0)["log"]
    assert len(log) == LOG_LENGTH and log[-1]["n"] == state.event_count > LOG_LENGTH
    assert [event["n"] for event in log] == list(range(state.event_count - LOG_LENGTH + 1, state.event_count + 1))
    assert all(set(event) == {"n", "seat", "text"} for event in log)


def test_log_lines_read_after_a_players_name():
    state = end_play(play(table(["T1 T2", "I1"]), "T"))
    texts = [text for _, seat, text in state.events if seat == 0]
    assert texts[:3] == ["played two tacos cards (3 tacos); the stack has 3 tacos.",
                         "took the yellow pig (tacos) from the middle.", "drew five cards."]


def test_the_view_says_whose_turn_and_which_step():
    state = table(["T1", "I1"], current=1)
    view = ENGINE.view(state, 0)
    assert (view["phase"], view["turn"], view["step"], view["current"]) == ("play", 1, 1, 1)
    assert view["deck"] == {"key": "stand-in", "title": "Stand-in deck (5 foods, 68 cards)", "stand_in": True}
