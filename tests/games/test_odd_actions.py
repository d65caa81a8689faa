"""Actions that only look legal, on every registered game (part of the contract
net, style.md habit 10): a legal action with a number sent as ``1.0``, ``true``
or ``"1"``, a list or object where a number or word goes, a key missing or one
added. Python's ``==`` calls ``1.0`` and ``true`` equal to ``1``, so an engine
comparing with ``in legal`` applied some of these, and one that then used the
sent value crashed (a ``TypeError`` on ``stacks[1.0]``). Each must be refused
with ``IllegalAction`` and nothing else.
"""
import random

import pytest

from games.core import IllegalAction, legal_match
from games.core.bots import RandomBot
from games.core.registry import all_games

GAMES = all_games()
STEPS = 40
ACTIONS_PER_STEP = 4


def odd_values(value) -> list:
    """Values of another JSON type than ``value`` (so never equal to it as JSON)."""
    nested = [[[{"deep": [value]}]]]
    if isinstance(value, bool):
        return [int(value), str(value).lower(), None, nested]
    if isinstance(value, int):
        return [float(value), str(value), value == 1, [value], {"n": value}, None, nested]
    if isinstance(value, str):
        return [[value], {value: value}, None, 0, nested]
    if isinstance(value, list):
        return [{"list": value}, None, value[0] if value else 0,
                [odd for item in value for odd in odd_values(item)[:1]] or [None], nested]
    return [None, nested]


def twists(action: dict) -> list[dict]:
    """Near misses of one legal action: each value of another type, each key left out, a key added."""
    near = [{**action, "extra": 1}, {**action, "type": [action["type"]]}]
    for key, value in action.items():
        near.append({other: item for other, item in action.items() if other != key})
        near.extend({**action, key: odd} for odd in odd_values(value))
    return near


@pytest.mark.parametrize("game", GAMES, ids=[game.slug for game in GAMES])
def test_near_misses_of_legal_actions_are_refused_as_illegal(game):
    engine = game.engine
    seats = max(engine.min_seats, 3) if engine.max_seats >= 3 else engine.min_seats
    state = engine.start(seats, 11)
    rng = random.Random(11)
    bot = RandomBot()
    now, checked = 0, 0
    for _ in range(STEPS):
        if engine.outcome(state) is not None:
            break
        movers = [seat for seat in range(seats) if engine.legal_actions(state, seat)]
        for seat in movers:
            legal = engine.legal_actions(state, seat)
            for action in rng.sample(legal, min(ACTIONS_PER_STEP, len(legal))):
                for odd in twists(action):
                    assert legal_match(odd, legal) is None
                    with pytest.raises(IllegalAction):
                        engine.apply(state, seat, odd, now)
                    checked += 1
        if movers:
            seat = movers[0]
            state = engine.apply(state, seat, bot.choose(engine.view(state, seat), engine.legal_actions(state, seat),
                                                         rng), now)
        else:
            now = max(now, engine.next_deadline(state))
            state = engine.apply(state, None, {"type": "clock"}, now)
    assert checked > 100
