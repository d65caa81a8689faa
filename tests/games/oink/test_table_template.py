"""The Oink! table template renders real engine views: the top two cards large, the seven
cries for seated players only, the flip for the flipper only, the verdict in ranked order,
decks and winnings; never a face-down card; and a flip changes only a few small elements."""
import html
import json
import random
import re

import pytest

from games.core.viewcheck import cards_in_html
from games.oink.bots import BOTS
from games.oink.cards import CRIES, OINK
from games.oink.engine import ENGINE
from games.oink.state import Phase
from pigparlor.tables.fragments import split_top_level
from tests.games.table_template import render_table

from .helpers import position, slap

ACTION = re.compile(r'name="action" value=\'([^\']*)\'|name="action" value="([^"]*)"')
TOP_LEVEL = ("ok-css", "ok-js", "ok-pile", "ok-prompt", "ok-cries", "ok-verdict", "ok-players")
"""Always all present: the platform swaps elements by id and never removes one."""


def render(state, seat, version=7):
    return render_table(ENGINE, state, seat, version)[0]


def offered(page):
    return [json.loads(html.unescape(a or b)) for a, b in ACTION.findall(page) if a or b]


def check(state):
    """Render for every seat and a spectator; check the leaks, the flip offer and the cries."""
    pages = {}
    for viewer in [*range(state.seats), None]:
        page = render(state, viewer)
        assert not cards_in_html(page) & ENGINE.hidden_cards(state, viewer)
        for element in TOP_LEVEL:
            assert f'id="{element}"' in page
        may_flip = viewer is not None and {"type": "flip"} in ENGINE.legal_actions(state, viewer)
        assert ({"type": "flip"} in offered(page)) == may_flip
        assert ('class="ok-cry"' in page) == (viewer is not None and state.phase is not Phase.OVER)
        pages[viewer] = page
    return pages


def test_o2_only_the_flipper_is_offered_the_flip_and_everyone_sees_who_flips():
    state = position(["dog1 cat2", "cow3 pig"], flipper=1)
    pages = check(state)
    assert "Flip your card" in pages[1] and "Flip your card" not in pages[0]
    assert "Player 2 flips next" in pages[0] and "Player 2 flips next" in pages[None]
    assert 'data-pile="0"' in pages[0] and "empty" in pages[0]


def test_o3_the_top_two_cards_are_shown_large_top_card_last():
    state = position(["dog1", "cat2"], pile="sheep2 cow3 cow4")
    page = check(state)[0]
    shown = re.findall(r'class="card ok-card card--large" data-card="(\d+)" data-animal="(\w+)" data-rank="(\d)"', page)
    assert [(animal, rank) for _, animal, rank in shown] == [("cow", "3"), ("cow", "4")]
    assert {int(card) for card, _, _ in shown} == set(state.pile[-2:])
    assert "sheep" not in page.split('id="ok-cries"')[0].split('id="ok-pile"')[1].replace("#oink-sheep", "")
    assert "3 cards in the pile" in page and 'data-open="true"' in page


def test_o4_the_seven_cries_are_one_static_form_with_keys_one_to_seven():
    state = position(["dog1", "cat2"], pile="pig")
    page = check(state)[0]
    cries = re.findall(r'data-cry="(\d)" data-animal="(\w+)" aria-keyshortcuts="(\d)"', page)
    assert cries == [(str(i), animal, str(i + 1)) for i, animal in
                     enumerate(["dog", "cat", "cow", "donkey", "sheep", "chick", "pig"])]
    for name in CRIES:
        assert html.escape(name) in page
    form = split_top_level(page)["ok-cries"]
    moved = ENGINE.apply(state, 1, {"type": "slap", "cry": OINK, "pile": state.pile_id}, 400)
    assert split_top_level(render(moved, 0, version=8))["ok-cries"] == form


def test_o6_the_verdict_lists_slaps_in_ranked_order_with_cry_time_taker_and_monkey():
    state = position(["dog1 dog2", "cat2 cat3", "cow1 cow2"], pile="sheep2 pig")
    state = slap(state, 0, 2, 500, reaction_ms=480, rtt_ms=20)   # arrives first, wrong cry
    state = slap(state, 2, OINK, 520, reaction_ms=300, rtt_ms=300)
    during = check(state)
    assert "You cried <b>Moo</b>" in during[0] and "You cried" not in during[1]
    assert during[1].count("slapped!") == 2
    state = slap(state, 1, OINK, 560, reaction_ms=400, rtt_ms=40)
    pages = check(state)
    verdict = split_top_level(pages[1])["ok-verdict"]
    rows = re.findall(r'<li class="(is-right|is-wrong)"><span class="ok-verdict__who">([^<]+)</span> '
                      r'<span class="ok-verdict__cry">([^<]+)</span> <span class="ok-verdict__ms">(\d+) ms', verdict)
    assert rows == [("is-right", "Player 3", "Oink!", "300"), ("is-wrong", "Player 1", "Moo", "480"),
                    ("is-right", "You", "Oink!", "520")]
    assert "Player 3 took the pile <small>(2 cards, Oink!)</small>" in verdict
    assert "Player 1 made the monkey" in verdict
    assert "1 monkey" in split_top_level(pages[1])["ok-players"]


def test_o5_penalty_cards_and_nothing_to_cry_read_right():
    state = position(["dog1 dog2", "cat2 cat3"], pile="sheep2 cow3", won=["cat4", ""], penalty_card=True)
    state = slap(state, 0, OINK, 400)
    state = slap(state, 1, 0, 450)
    verdict = split_top_level(check(state)[0])["ok-verdict"]
    assert "Nothing to cry there!" in verdict
    assert "You put a card under the pile." in verdict and "Player 2 made the monkey" in verdict


def test_o8_game_over_hides_the_cries_and_says_so():
    state = position(["", "cat2"], pile="sheep2 pig", flipper=1)
    state = slap(state, 1, OINK, 300)
    state = slap(state, 0, OINK, 350)
    assert state.phase is Phase.OVER
    pages = check(state)
    assert "Game over" in pages[0] and 'class="ok-cry"' not in pages[0]


def test_o9_a_flip_changes_only_the_pile_prompt_and_players():
    state = position(["dog1 cat2 cow3", "sheep1 pig chick2"], flipper=0)
    before = {seat: split_top_level(render(state, seat, 7)) for seat in (0, 1)}
    after_state = ENGINE.apply(state, 0, {"type": "flip"}, 100)
    for seat in (0, 1):
        after = split_top_level(render(after_state, seat, 8))
        changed = {key for key in after if before[seat].get(key) != after[key]}
        assert changed <= {"ok-pile", "ok-prompt", "ok-players"}
        assert sum(len(after[key].encode()) for key in changed) < 4000


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_sampled_real_games_render_without_leaks(seats):
    """Bot games with 2, 4 and 6 seats, rendered for every viewer at sampled moments."""
    dice = random.Random(seats)
    state = ENGINE.start(seats, dice.randrange(1 << 30))
    now, steps = 0, 0
    bots = [BOTS["sensible"]] * seats
    while state.phase is not Phase.OVER and steps < 400:
        moves = []
        for seat in range(seats):
            legal = ENGINE.legal_actions(state, seat)
            view = ENGINE.view(state, seat)
            action = bots[seat].choose(view, legal, dice) if legal else None
            if action is not None:
                moves.append((now + bots[seat].delay_ms(view, action, now, dice), seat, action))
        deadline = ENGINE.next_deadline(state)
        if moves and (deadline is None or min(moves)[0] < deadline):
            now, seat, action = min(moves, key=lambda move: move[0])
            state = ENGINE.apply(state, seat, action, max(now, 0))
        else:
            now = max(now, deadline)
            state = ENGINE.apply(state, None, {"type": "clock"}, now)
        steps += 1
        if steps % 23 == 0:
            check(state)
    check(state)
