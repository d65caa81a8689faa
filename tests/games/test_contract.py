"""The one contract suite, run on every registered game (style.md habit 10).

A new game gets the whole net for free: seeded random playouts end with an
outcome, every bot move is legal, ``apply`` never mutates its input,
``load(dump(s)) == s`` through JSON, a replay of the log gives the same state,
no view shows a card ``hidden_cards`` says its viewer may not see, ``progress`` tells
whole numbers or nothing, the clock plays
only for seats that had a move to make (``clock_plays_for``), and no table waits
for ever on a player who does nothing, even without a turn timer.
"""
import json
import random

import pytest

from games.core import IllegalAction, Outcome, Progress
from games.core.bots import Bot, RandomBot
from games.core.playout import play, replay
from games.core.registry import all_games
from games.core.viewcheck import cards_in_view

GAMES = all_games()
SEAT_COUNTS = [(game, seats) for game in GAMES for seats in range(game.engine.min_seats, game.engine.max_seats + 1)]


def ids(param):
    game, seats = param
    return f"{game.slug}-{seats}"


@pytest.mark.parametrize("game,seats", SEAT_COUNTS, ids=[ids(p) for p in SEAT_COUNTS])
def test_random_playouts_keep_the_contract(game, seats):
    engine = game.engine
    for seed in range(3):
        checked = {"steps": 0}

        def check(state, seat, action, now_ms, checked=checked):
            checked["steps"] += 1
            data = engine.dump(state)
            assert engine.load(json.loads(json.dumps(data))) == state
            for viewer in [*range(seats), None]:
                view = engine.view(state, viewer)
                json.dumps(view)
                assert not cards_in_view(view) & engine.hidden_cards(state, viewer)
            for legal_seat in range(seats):
                json.dumps(engine.legal_actions(state, legal_seat))
            # A missed turn is a move its seat could have made: the platform counts it against them.
            missed = engine.clock_plays_for(state)
            assert missed <= set(range(seats)) and all(engine.legal_actions(state, index) for index in missed)
            assert not (missed and engine.outcome(state) is not None)
            # How far the game has got: whole numbers (from 1) or None, never a view's guess.
            found = engine.progress(state)
            assert isinstance(found, Progress)
            assert all(value is None or (type(value) is int and value >= 1)
                       for value in (found.round, found.rounds, found.target, found.turn_number))

        bots = [RandomBot() for _ in range(seats)]
        result = play(engine, bots, seed, keep_log=True, on_step=check if seed == 0 else None)
        assert result.illegal == 0
        assert isinstance(result.outcome, Outcome)
        assert sorted(result.outcome.ranks)[0] == 1 and len(result.outcome.ranks) == seats
        assert len(result.outcome.scores) == seats
        assert replay(engine, seats, seed, None, result.log) == result.state


class Idle(Bot):
    """A player who never does anything: only the clock moves the game on."""

    kind = "idle"

    def choose(self, view, legal, rng):
        return None


def least_timer(engine) -> dict:
    """The table option with the least turn timer the game allows: none (0) where it may be off."""
    option = next(option for option in engine.options if option.name == "turn_seconds")
    return {"turn_seconds": option.min}


@pytest.mark.parametrize("game,seats", SEAT_COUNTS, ids=[ids(p) for p in SEAT_COUNTS])
def test_no_phase_waits_for_ever_on_idle_players_even_without_a_turn_timer(game, seats):
    """Issue 10 (PG5, PG12, PP1, PP21, S3, S6, O2): every phase of every game has a deadline,
    so a table of players who never act is played to its end by the clock alone."""
    engine = game.engine

    def check(state, seat, action, now_ms):
        assert seat is None
        assert engine.outcome(state) is not None or engine.next_deadline(state) is not None

    state = engine.start(seats, 1, least_timer(engine))
    assert engine.next_deadline(state) is not None
    result = play(engine, [Idle() for _ in range(seats)], 1, least_timer(engine), on_step=check)
    assert isinstance(result.outcome, Outcome)


@pytest.mark.parametrize("game", GAMES, ids=[g.slug for g in GAMES])
def test_apply_never_mutates_its_input(game):
    engine = game.engine
    seats = engine.min_seats + 1 if engine.max_seats > engine.min_seats else engine.min_seats

    state = engine.start(seats, 7)
    bots = [RandomBot() for _ in range(seats)]
    rng = random.Random(7)
    now = 0
    for _ in range(200):
        if engine.outcome(state) is not None:
            break
        before = json.dumps(engine.dump(state), sort_keys=True)
        movers = [s for s in range(seats) if engine.legal_actions(state, s)]
        if movers:
            seat = movers[0]
            action = bots[seat].choose(engine.view(state, seat), engine.legal_actions(state, seat), rng)
            new = engine.apply(state, seat, action, now)
        else:
            now = max(now, engine.next_deadline(state))
            new = engine.apply(state, None, {"type": "clock"}, now)
        assert json.dumps(engine.dump(state), sort_keys=True) == before
        state = new


@pytest.mark.parametrize("game", GAMES, ids=[g.slug for g in GAMES])
def test_bad_options_and_seat_counts_are_refused(game):
    engine = game.engine
    with pytest.raises(IllegalAction):
        engine.clean_options({"no_such_option": 1})
    with pytest.raises(IllegalAction):
        engine.check_seats(engine.max_seats + 1)
    assert engine.clean_options(None) == engine.clean_options({})


@pytest.mark.parametrize("game", GAMES, ids=[g.slug for g in GAMES])
def test_game_apps_have_random_and_sensible_bots(game):
    assert {"random", "sensible"} <= set(game.bots)


def test_every_game_is_registered():
    assert {game.slug for game in GAMES} >= {"pigpile"}
