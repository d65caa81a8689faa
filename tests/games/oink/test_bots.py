"""Oink! bots: legal, human-paced, mistaken now and then, and blind to face-down cards."""
import random
import statistics
from dataclasses import replace

import pytest

from games.core.playout import play, replay
from games.oink.bots import BOTS, REACTION_FLOOR_MS
from games.oink.cards import OINK
from games.oink.engine import ENGINE

from .helpers import position

KINDS = ["easy", "sensible", "hard"]


def pig_views(count: int):
    """Seat 1's view and legal actions just after a pig was revealed at 1000 ms, one per pile state id."""
    base = position(["dog3", "cow2"], "pig", now=1000)
    for pile_id in range(1, count + 1):
        state = replace(base, pile_id=pile_id)
        yield ENGINE.view(state, 1), ENGINE.legal_actions(state, 1)


@pytest.mark.parametrize("kind", KINDS)
def test_a_bots_plan_for_a_pile_state_does_not_change_when_asked_again(kind):
    bot = BOTS[kind]
    view, legal = next((view, legal) for view, legal in pig_views(50) if bot.choose(view, legal, random.Random(0)))
    choices = {str(bot.choose(view, legal, random.Random(n))) for n in range(5)}
    assert len(choices) == 1
    action = bot.choose(view, legal, random.Random(0))
    landing = {now + bot.delay_ms(view, action, now, random.Random(now)) for now in (1000, 1050, 1100)}
    assert len(landing) == 1 and landing.pop() >= 1000 + REACTION_FLOOR_MS


def test_reaction_times_are_human_and_ordered_by_difficulty():
    medians = {}
    for kind in KINDS:
        bot, times, wrong = BOTS[kind], [], 0
        for view, legal in pig_views(600):
            action = bot.choose(view, legal, None)
            if action is None:
                continue
            times.append(bot.delay_ms(view, action, 1000, None))
            wrong += action["cry"] != OINK
        assert min(times) >= REACTION_FLOOR_MS and max(times) < 3000
        assert 0 < wrong < len(times) * 0.25, "occasional wrong cries, not constant ones"
        medians[kind] = statistics.median(times)
    assert medians["easy"] > medians["sensible"] > medians["hard"] > 250


@pytest.mark.parametrize("kind", KINDS)
def test_bots_never_see_a_card_before_it_is_revealed(kind):
    """Two games that differ only in face-down cards look the same to a bot and get the same moves."""
    bot = BOTS[kind]
    state = ENGINE.start(3, 9)
    state = ENGINE.apply(state, state.flipper, {"type": "flip"}, 100)
    hidden = [card for deck in state.decks for card in deck]
    shuffled = random.Random(1).sample(hidden, len(hidden))
    sizes = [len(deck) for deck in state.decks]
    decks = tuple(tuple(shuffled[sum(sizes[:i]):sum(sizes[:i + 1])]) for i in range(3))
    twin = replace(state, decks=decks)
    assert twin.decks != state.decks
    for seat in range(3):
        view, twin_view = ENGINE.view(state, seat), ENGINE.view(twin, seat)
        assert view == twin_view
        legal = ENGINE.legal_actions(state, seat)
        action = bot.choose(view, legal, random.Random(0))
        assert action == bot.choose(twin_view, legal, random.Random(0))
        if action is not None:
            assert bot.delay_ms(view, action, 300, None) == bot.delay_ms(twin_view, action, 300, None)


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_bot_games_end_legally_and_replay(seats):
    kinds = [["random", "easy", "sensible", "hard"][i % 4] for i in range(seats)]
    for seed in range(3):
        result = play(ENGINE, [BOTS[kind] for kind in kinds], seed, {"penalty_card": seed == 1}, keep_log=True)
        assert result.illegal == 0 and result.outcome is not None
        assert replay(ENGINE, seats, seed, {"penalty_card": seed == 1}, result.log) == result.state


def test_hard_bots_usually_beat_easy_ones():
    wins = {"easy": 0, "hard": 0}
    for seed in range(20):
        kinds = ["easy", "hard"] if seed % 2 else ["hard", "easy"]
        outcome = play(ENGINE, [BOTS[kind] for kind in kinds], seed).outcome
        for seat, rank in enumerate(outcome.ranks):
            wins[kinds[seat]] += rank == 1 and outcome.ranks.count(1) == 1
    assert wins["hard"] >= 15 > wins["easy"]
