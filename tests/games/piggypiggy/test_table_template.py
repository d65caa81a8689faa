"""The Piggy Piggy table template renders every step and the PG5 prompt from real engine views:
legal actions are offered as forms only to the seat that may act, and no card the viewer may
not see (``ENGINE.hidden_cards``) appears anywhere in the HTML — not as a card, not in an action."""
import html
import json
import re

import pytest

from games.core.playout import play as playout
from games.core.viewcheck import cards_in_html
from games.piggypiggy.bots import BOTS
from games.piggypiggy.engine import ENGINE
from games.piggypiggy.state import DROUGHT_ROUNDS, Phase
from tests.games.piggypiggy.fixtures import end_play, goat, play, table
from tests.games.table_template import render_table

ACTION = re.compile(r'name="action" value="([^"]*)"')
TARGET = re.compile(r'<form ws-send class="action-form pg-target">')
PICK = re.compile(r'class="card pg-pick" data-card="(\d+)"')
ACTIVE_STEP = re.compile(r'<li class="is-active" aria-current="step"><span class="pg-steps__n">(\d)</span>')


def render(state, seat):
    return render_table(ENGINE, state, seat)


def ids_in_actions(actions) -> set[int]:
    found = set()
    for action in actions:
        found.update(card for card in action.get("cards", ()))
        if "card" in action:
            found.add(action["card"])
    return found


def check(state):
    """Render for every seat and a spectator; return the rendered pages by viewer.

    In step 1 every legal action is offered exactly once. At the PG5 prompt the new
    holder is offered "add every matching card" and "add none" (the picker in
    piggypiggy.js narrows the first); every other viewer is offered nothing.
    """
    pages = {}
    for viewer in [*range(state.seats), None]:
        page, legal = render(state, viewer)
        offered = [json.loads(html.unescape(value)) for value in ACTION.findall(page)]
        assert all(action in legal for action in offered)
        assert page.count("ws-send") == len(offered)
        if state.phase is Phase.INHERIT and legal:
            assert sorted(len(action["cards"]) for action in offered) == [0, max(len(a["cards"]) for a in legal)]
        else:
            assert sorted(map(json.dumps, offered)) == sorted(map(json.dumps, legal))
        if not legal:
            assert "ws-send" not in page and "pg-goat-toggle" not in page and "pg-pick" not in page
        hidden = ENGINE.hidden_cards(state, viewer)
        assert not cards_in_html(page) & hidden
        assert not ids_in_actions(offered) & hidden
        pages[viewer] = page
    return pages


def active_step(page) -> int | None:
    found = ACTIVE_STEP.findall(page)
    return int(found[0]) if found else None


def test_pg2_pg4_step_1_offers_each_food_the_goat_targets_and_ending_the_step_to_the_current_player():
    state = table(["G T1 T2 I1", "C1", "D2"], stacks=["T1", "T3 C2", "T2"], pigs={"T": 1})
    pages = check(state)
    mine = pages[0]
    assert "Play 3 tacos</button>" in mine and "Play 1 ice cream</button>" in mine
    assert len(TARGET.findall(mine)) == 3  # the three cards on players 2 and 3's stacks
    assert mine.count('class="pg-goat-toggle button--quiet"') == 1 and "End step 1" in mine
    assert 'class="card pg-goat-toggle"' in mine  # the goat in the hand is a button too
    for viewer in (1, 2, None):
        assert active_step(pages[viewer]) == 1 and "Player 1 is playing step 1." in pages[viewer]
    assert active_step(mine) == 1
    assert 'id="pg-hand"' not in pages[None] and 'id="pg-me"' not in pages[None]


def test_pg3_each_stack_shows_its_food_total_not_its_card_count():
    pages = check(table(["I1", "C1"], stacks=["", "T3 T1 T1"], pigs={"T": 1}))
    assert '<span class="pg-stack__total">5</span> <span class="pg-stack__name">tacos</span>' in pages[0]


def test_pg6_each_pig_shows_the_viewers_food_race_against_the_biggest_other_stack():
    pages = check(table(["I1", "C1", "D1"], stacks=["T2", "T3 T1", "T1 D2"], pigs={"T": 1}))
    assert "your tacos 2, the most of the others 4" in pages[0]
    assert "your tacos 4, the most of the others 2" in pages[1]
    assert "your donuts 0, the most of the others 2" in pages[0]
    assert "your ice cream" not in pages[0]  # nobody has any: no race to show
    assert "pg-pigs__race" not in pages[None]


def test_pg4_without_a_target_a_goat_is_not_offered():
    pages = check(table(["G I1", "C1"], stacks=["T1", ""]))
    assert "pg-goat-toggle" not in pages[0] and "pg-target" not in pages[0]
    assert "Play one food — all your cards of it." in pages[0]


def test_pg2_after_the_food_play_only_goats_and_ending_the_step_remain():
    state = play(table(["G T1 I1", "C1"], stacks=["", "D2"]), "T")
    pages = check(state)
    assert "Food played. Play goats, or end step 1." in pages[0]
    assert 'class="action-form pg-play"' not in pages[0]
    state = play(table(["T1 I1", "C1"]), "T")
    assert "Nothing more to play: end step 1 to steal, draw and score." in check(state)[0]


def test_pg5_the_new_holder_alone_is_asked_to_add_matching_cards():
    state = table(["G T1 I1", "C1", "T1 T2 I2"], stacks=["T1", "T3", "T2"], pigs={"T": 1})
    state = goat(state, 1, "T3")
    assert state.phase is Phase.INHERIT
    pages = check(state)
    asked = pages[2]
    picked = {int(card) for card in PICK.findall(asked)}
    assert picked == {card for card in state.hands[2] if state.the_deck.cards[card].food == 1}
    assert "You took the yellow pig! Add matching tacos cards to that stack?" in asked
    assert "Add 2 (3 tacos)" in asked and "Add none" in asked
    for viewer in (0, 1, None):
        assert "Player 3 took the yellow pig and may add tacos cards." in pages[viewer]
        assert active_step(pages[viewer]) == 1
    assert "pg-target" not in pages[0]  # the goat player waits while the prompt is open


def test_pg6_pg8_the_cards_scored_after_the_draw_are_shown_to_everyone():
    state = table(["T1 D1 D1", "I1"], stacks=["T3", ""], pigs={"T": 0}, draw="T2 D2 G C1 C2")
    state = end_play(play(state, "D"))
    pages = check(state)
    for viewer, who in ((0, "You"), (1, "Player 1"), (None, "Player 1")):
        assert f"<b>{who}</b> drew and scored 2 points, now 2:" in pages[viewer]
        assert set(state.points[0]) <= cards_in_html(pages[viewer])
    assert 'data-holder="0"' in pages[1]  # both pigs with player 1: tacos and the donuts taken in step 2
    assert "with Player 1" in pages[1] and "with you" in pages[0]


def test_pg8_a_draw_that_scores_nothing_says_so():
    state = end_play(table(["I1", "C1"], stacks=["", "T3"], pigs={"T": 1}, draw="T2 T2 T1 T1"))
    assert "<b>Player 1</b> drew and scored nothing." in check(state)[1]


def test_pg10_the_final_standings_name_the_winner_and_offer_nothing():
    state = table(["C1", "I1", "F1", "F2"], stacks=["T3", "", "D1", "I2"], pigs={"T": 0, "D": 2, "I": 3},
                  points=[7, 3, 3, 5], draw="T1 C2 C3 C3 G")
    state = end_play(state)
    assert state.phase is Phase.OVER
    pages = check(state)
    for page in pages.values():
        assert "<h2>Player 1 has 8 points: 8 or more win the game.</h2>" in page
        assert 'class="pg-steps__list"' not in page and "pg-prompt__text" not in page and "ws-send" not in page
    # One results table on the page, the platform's final standings: the game adds only why
    # it ended and what split equal points.
    assert "pg-results__table" not in pages[None] and "<table" not in pages[None]
    assert "<p>Player 3 and Player 2 have 3 points each: pigs held split them (Player 3 1, Player 2 0).</p>" in pages[None]


def test_pg10_a_game_ended_with_no_point_left_says_why():
    state = end_play(table(["T1", "D1"], stacks=["T2", "D2"], pigs={"T": 0, "D": 1}, points=[3, 2], rest="out"))
    assert state.ending == "no_point_left"
    assert "<h2>Nobody can score any more: the game ends on points.</h2>" in check(state)[None]


def test_pg10_a_game_ended_by_the_drought_says_why():
    state = table(["T1 T1 D1 D1 I1", "C1 C1 F1 F1 I2"], points=[1, 2])
    for _ in range(DROUGHT_ROUNDS * 2):
        state = end_play(state)
    assert state.ending == "drought"
    assert f"<h2>{DROUGHT_ROUNDS} rounds in a row without a point: the game ends on points.</h2>" in check(state)[None]


def test_pg10_the_table_shows_a_long_drought_coming():
    state = table(["T1 T1 D1 D1 I1", "C1 C1 F1 F1 I2"], points=[1, 2])
    for _ in range(DROUGHT_ROUNDS - 1):  # four and a half rounds
        state = end_play(state)
    assert "pg-info__drought" not in check(state)[0]
    state = end_play(state)
    assert ENGINE.view(state, 0)["dry_rounds"] == DROUGHT_ROUNDS // 2
    assert f"No point for {DROUGHT_ROUNDS // 2} rounds (the game ends at {DROUGHT_ROUNDS})" in check(state)[1]


def test_point_piles_and_hand_sizes_are_public():
    state = table(["T1 T2", "C1 C2 C3", "I1"], points=[2, 5, 0])
    page = check(state)[None]
    assert page.count('<i data-food="') == 7
    assert '3<span class="visually-hidden"> cards in hand</span>' in page
    assert '1<span class="visually-hidden"> card in hand</span>' in page


@pytest.mark.parametrize("deck,seats,seed", [("stand-in", 2, 38), ("stand-in", 4, 1), ("picnic", 3, 4), ("picnic", 5, 4)])
def test_every_sampled_position_of_a_real_game_renders_without_leaks(deck, seats, seed):
    """Seeds chosen so that each game meets a PG5 prompt too."""
    states, steps = [], []

    def keep(state, seat, action, now_ms):
        steps.append(action["type"])
        if state.phase is not Phase.PLAY or len(steps) % 5 == 0:
            states.append(state)

    bots = [BOTS["sensible"], BOTS["random"]] * (seats // 2) + [BOTS["random"]] * (seats % 2)
    playout(ENGINE, bots, seed=seed, options={"deck": deck}, on_step=keep)
    assert len(states) > 5 and states[-1].phase is Phase.OVER
    assert any(state.phase is Phase.INHERIT for state in states)
    for state in states:
        check(state)
