"""The Pig Pile table template renders every phase from real engine views: legal actions are
offered as forms only to the seat that may act, each exactly once, and no card the viewer may
not see (``ENGINE.hidden_cards``) appears anywhere in the HTML."""
import dataclasses
import html
import json
import re
from itertools import combinations

import pytest

from games.core.playout import play as playout
from games.core.viewcheck import cards_in_html
from games.pigpile.bots import BOTS
from games.pigpile.engine import ENGINE
from games.pigpile.rules import strongest
from games.pigpile.state import Phase
from tests.games.table_template import render_table

from .position import play, position

ACTION = re.compile(r'name="action" value="([^"]*)"')
TOGGLE = re.compile(r'<button type="button" class="pp-toggle" data-card="(\d+)" data-value="(\d+)" data-order="(\d+)"'
                    r' data-title="([^"]*)" aria-pressed="false"><span class="visually-hidden">([^<]*)</span>')


def render(state, seat):
    return render_table(ENGINE, state, seat)


def check(state):
    """Render for every seat and a spectator; return the rendered pages by viewer."""
    pages = {}
    for viewer in [*range(state.seats), None]:
        page, legal = render(state, viewer)
        offered = [json.loads(html.unescape(value)) for value in ACTION.findall(page) if value]
        chosen = [action for action in legal if action["type"] == "faceup"]
        played = [action for action in legal if action["type"] != "faceup"]
        assert sorted(json.dumps(action) for action in offered if action["type"] != "faceup") \
            == sorted(map(json.dumps, played))
        # The one-tap face-up choice: the strongest three, the clock's own pick.
        assert [action for action in offered if action["type"] == "faceup"] == ([strongest(chosen)] if chosen else [])
        assert page.count("ws-send") == len(played) + 2 * bool(chosen)
        assert choosable(page) == sorted(map(json.dumps, chosen))
        assert not cards_in_html(page) & ENGINE.hidden_cards(state, viewer)
        pages[viewer] = page
    return pages


def choosable(page) -> list[str]:
    """PP1: the face-up choices three taps on the page's card toggles can make, as the JS
    builds them (ranks in hand order: numbers up, Hog Wild last)."""
    toggles = [(int(order), int(value)) for _, value, order, _, _ in TOGGLE.findall(page)]
    made = {json.dumps({"type": "faceup", "ranks": [value for _, value in sorted(three)]})
            for three in combinations(toggles, 3)}
    return sorted(made)


def test_the_face_up_choice_offers_every_choice_to_those_still_choosing():
    state = ENGINE.start(4, seed=5)
    state = ENGINE.apply(state, 2, ENGINE.legal_actions(state, 2)[0], 0)
    pages = check(state)
    assert "Choose three cards to lay face up." in pages[0]
    assert pages[0].count('class="pp-toggle"') == 7 and 'class="action-form pp-faceup"' in pages[0]
    assert "Tap three cards in your hand" in pages[0] and '<span class="visually-hidden">Lay ' in pages[0]
    assert "Lay my strongest three: " in pages[0] and "Lay my strongest three" not in pages[2]
    assert "Waiting for the others to choose" in pages[2] and "ws-send" not in pages[2]
    assert "chosen ✓" in pages[0]


def test_playing_from_the_hand_groups_cards_with_their_counts():
    state = position(["5 5 7 W", "7", "7"], face_up=["9 9 12", "1", "1"], slop=["1 2 3", "", ""],
                     pile="4", draw="2")
    pages = check(state)
    assert pages[0].count('class="action-form pp-count"') == 4
    # issue 15: one control per playable number, named by its cards; each count names them too
    assert pages[0].count('class="pp-pick"') == 3
    assert '<span class="visually-hidden">Play 5s: you have 2 — choose how many</span>' in pages[0]
    assert '<span class="visually-hidden">Play a Hog Wild — choose how many</span>' in pages[0]
    for label in ("Play a 5", "Play two 5s", "Play a 7", "Play a Hog Wild"):
        assert f'<button type="submit">{label}</button>' in pages[0]
    assert "Play 1<" not in pages[0]
    assert "Play 4 or higher, or a Hog Wild." in pages[0]
    assert "Player 1 is playing." in pages[1] and "Player 1 is playing." in pages[None]
    assert 'id="pp-hand"' not in pages[None]


def test_pick_up_face_up_play_slop_and_the_pickup_with_a_face_up_card():
    check(position(["2 3", "7", "7"], pile="9", draw="1"))
    pages = check(position(["", "7", "7"], face_up=["9 9 W", "1", "1"], pile="5"))
    assert "<button type=\"submit\">Play two 9s from your face-up cards</button>" in pages[0]
    pages = check(position(["", "7", "7"], face_up=["3 3 5", "1", "1"], slop=["2 2 2", "", ""], pile="6 7"))
    assert '<span class="visually-hidden">Pick up the pile with 3s: you have 2 — choose how many</span>' in pages[0]
    assert "<button type=\"submit\">Pick up the pile and two 3s</button>" in pages[0]
    pages = check(position(["", "7", "7"], slop=["9 2 5", "1", "1"], pile="6"))
    assert [f"Flip Slop card {n} of 3 (face down)" in pages[0] for n in (1, 2, 3)] == [True] * 3


def test_round_results_and_final_standings():
    state = position(["9", "3 3 3 4 5", "", "6 7 8"], pile="5", out=(2,), dealer=0)
    pages = check(ENGINE.apply(state, 0, play(9), 0))
    assert "Round 1</h2>" in pages[None] and "out first" in pages[None]
    # Once the next round is being played, its board replaces the last round's results.
    playing = dataclasses.replace(position(["9 4", "3 3 3 4 5", "6", "6 7 8"], pile="5", round=2),
                                  last_round=ENGINE.apply(state, 0, play(9), 0).last_round)
    assert playing.phase is Phase.PLAY and playing.last_round is not None
    assert all('id="pp-results"' in page and "pp-round" not in page for page in check(playing).values())
    state = position(["9", "3", "", "6 7 8"], pile="5", out=(2,), round=5, pigs=(5, 8, 6, 10))
    state = ENGINE.apply(state, 0, play(9), 0)
    assert state.phase is Phase.OVER
    pages = check(state)
    assert "Game over." in pages[1]  # the final standings are the shell's (tables/_shell.html)


@pytest.mark.parametrize("seats", [3, 6])
def test_every_position_of_a_real_game_renders_without_leaks(seats):
    states = []

    def keep(state, seat, action, now_ms):
        if ENGINE.view(state, None)["log"][-1]["n"] % 97 == 0:
            states.append(state)

    playout(ENGINE, [BOTS["sensible"], BOTS["random"]] * (seats // 2) + [BOTS["random"]] * (seats % 2),
            seed=seats, on_step=keep)
    assert len(states) > 3
    for state in states:
        check(state)
