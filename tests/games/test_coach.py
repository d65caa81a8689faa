"""Every game's coach (games.core.coach): hints a seat can follow, computed from its own view and
legal actions; a "now" sentence for every viewer; and each lesson's fixed deal still dealing the
friendly first game it promises."""
import copy
import json
import re

import pytest

from games.core.coach import Hint, action_value, form_button, picture
from games.core.playout import play
from games.core.registry import all_games
from games.oink.cards import CRIES
from games.oink.cards import OINK as OINK_CRY
from games.oink.coach import COACH as OINK_COACH
from games.oink.engine import ENGINE as OINK
from games.piggypiggy.coach import COACH as PIGGY_COACH
from games.piggypiggy.engine import ENGINE as PIGGY
from games.pigpile.coach import COACH as PIGPILE_COACH
from games.pigpile.engine import ENGINE as PIGPILE
from games.snout.coach import COACH as SNOUT_COACH
from games.snout.engine import ENGINE as SNOUT
from tests.games.lessons import HintFollower, run_lesson
from tests.games.pigpile.position import position

GAMES = [game for game in all_games() if game.coach is not None]
DATA_CARD = re.compile(r'data-card="(\d+)"')


def test_every_game_has_a_coach_and_a_lesson_its_bots_can_play():
    assert {game.slug for game in GAMES} == {"oink", "piggypiggy", "pigpile", "snout"}
    for game in GAMES:
        lesson = game.coach.lesson
        assert lesson.bot in game.bots
        game.engine.check_seats(lesson.seats)
        assert game.engine.clean_options(lesson.options)  # every option the lesson sets is the game's
        assert lesson.aim.endswith(".")


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.slug)
def test_hints_are_legal_name_only_what_the_seat_may_see_and_leave_their_inputs_alone(game):
    """Over whole games of the sensible bots: every seat's hint suggests one of its legal actions
    (or nothing), its targets name only cards that seat may see, and "now" has words for every
    viewer, spectators included."""
    engine, coach = game.engine, game.coach
    seats = coach.lesson.seats
    seen = {"hints": 0, "actions": 0}

    def check(state, seat, action, at):
        for viewer in [*range(seats), None]:
            view = engine.view(state, viewer)
            legal = engine.legal_actions(state, viewer) if viewer is not None else []
            asked = (copy.deepcopy(view), copy.deepcopy(legal))
            assert coach.now(view, legal).strip()
            hint = coach.hint(view, legal)
            assert (view, legal) == asked  # read, never changed
            if viewer is None:
                assert hint is None
                continue
            if hint is None:
                continue
            seen["hints"] += 1
            assert isinstance(hint, Hint) and hint.text.strip()
            if hint.action is not None:
                seen["actions"] += 1
                assert hint.action in legal
                assert hint.targets
            named = {int(card) for target in hint.targets for card in DATA_CARD.findall(target)}
            assert not named & engine.hidden_cards(state, viewer)

    play(engine, [game.bots["sensible"]] * seats, seed=5, options=coach.lesson.options, on_step=check,
         max_actions=3000)
    assert seen["actions"] > 5


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.slug)
def test_a_learner_who_follows_every_hint_reaches_the_lesson_s_aim_whatever_the_bots_dice(game):
    for dice in range(4):
        run = run_lesson(game.engine, game.coach, game.bots, dice=dice, reaction_ms=1500)
        assert run.learned, f"{game.slug}: the lesson's aim was not reached (dice {dice})"
        assert run.learner_moves <= 40


def test_the_pig_pile_lesson_deals_the_learner_a_hog_wash_and_a_hog_wild_and_the_first_turn():
    from games.pigpile.bots import BOTS
    state = PIGPILE.start(3, PIGPILE_COACH.lesson.seed, PIGPILE_COACH.lesson.options)
    view = PIGPILE.view(state, 0)
    assert {card["label"] for card in view["hand"]} >= {"8", "W"}
    assert view["dealer"] == 0  # the dealer plays first
    for dice in range(4):
        run = run_lesson(PIGPILE, PIGPILE_COACH, BOTS, dice=dice)
        assert run.state.last_round.out[0] == 0  # the learner goes out first: 3 pigs


def test_the_oink_lesson_turns_up_two_dogs_on_the_third_flip_and_the_learner_takes_the_pile():
    from games.oink.bots import BOTS
    lesson = OINK_COACH.lesson
    state = OINK.start(2, lesson.seed, lesson.options)
    assert state.flipper == 0
    for flips, seat in enumerate((0, 1, 0)):
        if flips:
            state = OINK.apply(state, None, {"type": "clock"}, state.deadline_at)  # the reveal gap ends
        state = OINK.apply(state, seat, {"type": "flip"}, state.phase_since)
    hint = OINK_COACH.hint(OINK.view(state, 0), OINK.legal_actions(state, 0))
    assert hint.action == {"type": "slap", "cry": 0, "pile": 3}
    assert hint.text.startswith("Two dogs on top: cry Woof-woof!")
    run = run_lesson(OINK, OINK_COACH, BOTS, reaction_ms=1500)
    assert run.learned and OINK.view(run.state, 0)["players"][0]["won"] == 3


def test_the_snout_lesson_s_first_round_goes_to_the_learner():
    from games.snout.bots import BOTS
    run = run_lesson(SNOUT, SNOUT_COACH, BOTS)
    last = SNOUT.view(run.state, 0)["rounds"][-1]
    assert last["winners"] == [0] and last["end"] == "out"
    assert 3 <= run.learner_moves <= 8


def test_the_piggy_piggy_lesson_is_won_by_the_learner_with_food_and_a_goat():
    from games.piggypiggy.bots import BOTS
    lesson = PIGGY_COACH.lesson
    kinds = []
    result = play(PIGGY, [HintFollower(PIGGY_COACH), BOTS[lesson.bot]], lesson.seed, lesson.options,
                  on_step=lambda state, seat, action, at: seat == 0 and kinds.append(action["type"]))
    assert result.outcome.ranks[0] == 1
    assert {"play_food", "goat", "end_play"} <= set(kinds)


# -- the hints' words, from compact positions -------------------------------------------------


def _oink_view(top, under=None, legal_slap=True):
    cards = [{"card": top}] + ([{"card": under}] if under is not None else [])
    return {"phase": "wait", "seat": 0, "your_slap": None, "players": [{"won": 0}, {"won": 0}],
            "pile": {"id": 7, "top": cards}, "verdict": None}


@pytest.mark.parametrize("top, under, cry, words", [
    (2 * 14 + 6, 2 * 14 + 8, 2, "Two cows on top: cry Moo!"),  # cow 3 on cow 4: the animal's cry wins (O3)
    (84, 0 * 14 + 10, OINK_CRY, "A pig on top: cry Oink!"),
    (4 * 14 + 8, 1 * 14 + 6, OINK_CRY, "3 + 4 make 7: cry Oink!"),
    (84, None, OINK_CRY, "A pig on top: cry Oink!"),  # the first card of a round, a pig (O3)
])
def test_o3_the_oink_hint_names_the_cry_the_top_two_cards_call_for(top, under, cry, words):
    legal = [{"type": "slap", "cry": each, "pile": 7} for each in range(len(CRIES))]
    hint = OINK_COACH.hint(_oink_view(top, under), legal)
    assert hint.action == {"type": "slap", "cry": cry, "pile": 7}
    assert hint.text.startswith(words)
    assert hint.targets == (f'#ok-cries .ok-cry[data-cry="{cry}"]',)


def test_o3_with_nothing_to_cry_the_oink_hint_says_wait_and_suggests_no_slap():
    legal = [{"type": "slap", "cry": each, "pile": 7} for each in range(len(CRIES))]
    hint = OINK_COACH.hint(_oink_view(0 * 14 + 10, 4 * 14 + 8), legal)  # a dog 5 on a sheep 4
    assert hint.action is None and hint.targets == ()
    assert "no cry" in hint.text and "4 + 5 is not 7" in hint.text


def test_o6_once_the_slaps_are_judged_the_oink_hint_says_who_took_the_pile_not_wait_for_the_verdict():
    view = {**_oink_view(2 * 14 + 6, 2 * 14 + 8), "your_slap": {"cry": 2, "cry_name": "Moo"}}
    assert OINK_COACH.hint({**view, "phase": "collect"}, []).text == "You cried Moo: wait for the verdict."
    view["verdict"] = {"pile": 7, "taker": 0}
    assert OINK_COACH.hint(view, []).text.startswith("Well cried: the pile is yours!")
    view["verdict"] = {"pile": 7, "taker": 1}
    assert OINK_COACH.hint(view, []).text.startswith("That slap did not win the pile.")


def test_pp10_the_pig_pile_hint_washes_a_big_pile_with_an_8_and_names_the_group_and_the_count():
    state = position(hands=["3 8 11", "5", "5"], pile="2 3 4 5 6 7", draw="2 2 2")
    view, legal = PIGPILE.view(state, 0), PIGPILE.legal_actions(state, 0)
    hint = PIGPILE_COACH.hint(view, legal)
    assert hint.action == {"type": "play", "from": "hand", "rank": 8, "count": 1}
    assert hint.text.startswith("Play an 8 — a Hog Wash")
    assert hint.targets == ('#pp-hand .pp-group[data-key="hand-8"] .pp-pick', form_button(hint.action))


def test_pp9_the_pig_pile_hint_completes_three_in_a_row():
    state = position(hands=["5 12", "5", "5"], pile="3 5 5", draw="2 2 2")
    hint = PIGPILE_COACH.hint(PIGPILE.view(state, 0), PIGPILE.legal_actions(state, 0))
    assert hint.action["rank"] == 5 and "three in a row" in hint.text


def test_pp5_with_nothing_that_fits_the_pig_pile_hint_picks_up_the_pile():
    state = position(hands=["2 3", "5", "5"], pile="9", draw="2 2 2")
    hint = PIGPILE_COACH.hint(PIGPILE.view(state, 0), PIGPILE.legal_actions(state, 0))
    assert hint.action == {"type": "pickup"} and hint.text.startswith("Nothing in your hand reaches 9")


def test_pp1_the_pig_pile_hint_taps_three_strong_cards_then_the_lay_button():
    state = PIGPILE.start(3, PIGPILE_COACH.lesson.seed, PIGPILE_COACH.lesson.options)
    view = PIGPILE.view(state, 0)
    hint = PIGPILE_COACH.hint(view, PIGPILE.legal_actions(state, 0))
    assert hint.action == {"type": "faceup", "ranks": [8, 9, 0]}
    cards = [int(card) for target in hint.targets for card in DATA_CARD.findall(target)]
    assert len(set(cards)) == 3 and set(cards) <= {card["card"] for card in view["hand"]}
    assert hint.targets[-1] == "#pp-prompt .pp-faceup button[type=submit]"


def test_s3_the_snout_hint_passes_the_three_highest_cards_as_the_picker_is_preset():
    state = SNOUT.start(2, SNOUT_COACH.lesson.seed, SNOUT_COACH.lesson.options)
    view = SNOUT.view(state, 0)
    hint = SNOUT_COACH.hint(view, SNOUT.legal_actions(state, 0))
    points = sorted((card["points"] for group in view["hand"] for card in group["cards"]), reverse=True)
    chosen = [int(card) for target in hint.targets for card in DATA_CARD.findall(target)]
    picked = [card["points"] for group in view["hand"] for card in group["cards"] if card["card"] in chosen]
    assert sorted(picked, reverse=True) == points[:3]
    assert hint.action in SNOUT.legal_actions(state, 0)


def test_the_piggy_piggy_hint_plays_the_food_that_wins_a_pig_and_says_so():
    state = PIGGY.start(2, PIGGY_COACH.lesson.seed, PIGGY_COACH.lesson.options)
    hint = PIGGY_COACH.hint(PIGGY.view(state, 0), PIGGY.legal_actions(state, 0))
    assert hint.action == {"type": "play_food", "food": "fries"}
    assert "you take the red pig" in hint.text
    assert hint.targets[0] == '#pg-hand .pg-group[data-food="fries"] .pg-food'


def test_a_form_button_target_matches_the_action_as_the_table_s_forms_write_it():
    action = {"type": "play", "from": "hand", "rank": 5, "count": 2}
    assert action_value(action) == '{"type":"play","from":"hand","rank":5,"count":2}'
    assert form_button(action) == ("#table-socket form:has(> input[name=\"action\"]"
                                   "[value='{\"type\":\"play\",\"from\":\"hand\",\"rank\":5,\"count\":2}']) "
                                   "button[type=submit]")
    assert json.loads(action_value(action)) == action


def test_pictures_carry_no_card_id_so_a_page_s_pictures_never_name_a_real_card():
    assert picture({"card": 17, "rank": 5}) == {"rank": 5}
    for game in GAMES:
        samples = json.dumps(game.coach.samples())
        assert '"card":' not in samples.replace(" ", "")
