"""PG10: how a Piggy Piggy game ends, also when nobody reaches 8 points (our decisions).

Two end rules, both on points: "no point left" ends the game at once when no
card can ever be drawn again (so nobody can score, whatever anyone plays), and
"the drought" ends it after DROUGHT_ROUNDS whole rounds in a row without a
point. docs/rules/piggypiggy.md argues why every game ends; the property test
checks it against the bound that argument gives.
"""
import random
from dataclasses import replace
from itertools import combinations_with_replacement

import pytest

from games.core.bots import Bot
from games.core.cards import next_seat
from games.core.playout import play as playout
from games.piggypiggy import rules
from games.piggypiggy.bots import BOTS
from games.piggypiggy.decks import DECKS
from games.piggypiggy.engine import ENGINE
from games.piggypiggy.state import DROUGHT_ROUNDS, HAND_SIZE, WIN_POINTS, Phase
from tests.games.piggypiggy.fixtures import end_play, goat, holder, play, table, tokens


def action_bound(seats: int) -> int:
    """The most actions a game can take, from the argument in docs/rules/piggypiggy.md.

    At most 7 points per player before someone reaches 8, so at most 7 x seats + 1
    turns score; fewer than DROUGHT_ROUNDS x seats turns in a row score nothing;
    a turn is at most one food play, a goat and a PG5 answer per hand card, and
    the end of step 1.
    """
    scoring_turns = (WIN_POINTS - 1) * seats + 1
    turns = (scoring_turns + 1) * DROUGHT_ROUNDS * seats
    return turns * (1 + 2 * HAND_SIZE + 1)


class Passer(Bot):
    """Ends step 1 at once and adds nothing: it never plays a card."""

    kind = "passer"

    def choose(self, view, legal, rng):
        return {"type": "end_play"} if {"type": "end_play"} in legal else {"type": "add", "cards": []}


class Sleeper(Bot):
    """Never acts: the clock plays every turn for it."""

    kind = "sleeper"

    def choose(self, view, legal, rng):
        return None


# -- the loops from issue 10 ----------------------------------------------------------------
@pytest.mark.parametrize("seats,seed", [(6, 6), (6, 12), (6, 24), (6, 43), (6, 46), (6, 48), (5, 10), (5, 53)])
def test_pg10_the_picnic_loops_of_sensible_bots_end(seats, seed):
    """Issue 10: once the draw pile was gone, the PG7 reshuffle handed each player back their
    goat and the card it removed, which could not score (PG5, PG8): the table went round for
    ever. Most of these seeds still go round until the drought ends them (the others no longer
    loop now that a goat leaves a pig in the middle alone, PG6)."""
    result = playout(ENGINE, [BOTS["sensible"]] * seats, seed, {"deck": "picnic"}, max_actions=action_bound(seats))
    assert result.state.phase is Phase.OVER and result.illegal == 0
    if seed in (12, 43, 46, 48, 10, 53):
        assert result.state.ending == "drought" and max(result.outcome.scores) < WIN_POINTS


# -- no point left: at once, and never while a point can still be scored -------------------
def test_pg10_a_passive_round_does_not_end_a_game_where_a_point_can_still_be_scored():
    """Issue 10: two players, no points, nothing to draw, each holding food and a goat with a
    target, both end step 1 without playing: the game goes on, and a point is still there."""
    state = table(["G T1", "G D1"], stacks=["D2", "T2"], pigs={"T": 1, "D": 0}, rest="out")
    state = end_play(end_play(state))
    assert state.phase is Phase.PLAY and state.current == 0
    state = play(goat(state, 1, "T2"), "T")  # the goat discards the T2; the T1 takes the tacos pig
    state = end_play(state)  # the discards are the new draw pile: the T2 comes back and scores
    assert holder(state, "T") == 0 and tokens(state, state.points[0]) == "T2"
    assert state.phase is Phase.PLAY


def test_pg10_no_point_left_ends_the_game_at_once():
    """Nothing to draw, no goat anywhere and no food two players share: no card can reach the
    discards again, so nobody can ever draw or score — the game ends after this turn."""
    state = table(["T1", "D1"], stacks=["T2", "D2"], pigs={"T": 0, "D": 1}, points=[3, 2], rest="out")
    state = end_play(state)
    assert state.phase is Phase.OVER and state.ending == "no_point_left"
    assert ENGINE.outcome(state).ranks == (1, 2) and ENGINE.next_deadline(state) is None


@pytest.mark.parametrize("hands,stacks,refill", [
    (["T1", "T1"], ["T2", ""], True),   # both hold tacos: the bigger stack may steal, the other is discarded
    (["G", "D1"], ["T2", ""], True),    # a goat, and another player with food to put on a stack
    (["G", ""], ["", "D2"], True),      # a goat with a target now
    (["T1", "D1"], ["T2", "D2"], False),  # no goat, no food two players share
    (["G", ""], ["T2", ""], False),     # the goat's holder has the only food: never a target
    (["G", "G"], ["", ""], False),      # goats and no food anywhere
])
def test_pg10_no_point_left_only_when_no_card_can_reach_the_discards(hands, stacks, refill):
    state = table(hands, stacks=stacks, rest="out")
    assert rules.can_refill_discards(state) is refill
    assert (end_play(state).phase is Phase.PLAY) is refill


def test_pg10_empty_hands_with_nothing_to_draw_end_without_looping():
    state = end_play(play(table(["T1", ""], rest="out"), "T"))
    assert state.phase is Phase.OVER and state.ending == "no_point_left"
    assert ENGINE.outcome(state).ranks == (1, 2)  # no points either way: the tacos pig decides


def test_pg10_a_goat_keeps_the_table_alive():
    state = table(["G", "G"], stacks=["T1", "D1"], pigs={"T": 0, "D": 1}, points=[3, 2], rest="out")
    state = end_play(goat(end_play(state), 0, "T1"))
    assert state.phase is Phase.PLAY


def test_pg10_a_game_ended_for_no_point_left_says_why():
    state = end_play(table(["T1", "D1"], stacks=["T2", "D2"], pigs={"T": 0, "D": 1}, rest="out"))
    assert state.events[-1][2] == "Nobody can score any more: the game ends on points."


# -- the drought ------------------------------------------------------------------------------
def test_pg10_ten_rounds_without_a_point_end_the_game_on_points():
    state = table(["T1 T1 D1 D1 I1", "C1 C1 F1 F1 I2"], points=[1, 2])
    for _ in range(DROUGHT_ROUNDS * 2 - 1):
        state = end_play(state)
    assert state.phase is Phase.PLAY and state.dry_turns == DROUGHT_ROUNDS * 2 - 1
    state = end_play(state)
    assert state.phase is Phase.OVER and state.ending == "drought"
    assert ENGINE.outcome(state).ranks == (2, 1)
    assert f"{DROUGHT_ROUNDS} rounds" in state.events[-1][2]


def test_pg10_a_point_starts_the_drought_count_again():
    state = table(["I1", "C1 C1 F1 F1 I2"], stacks=["T3", ""], pigs={"T": 0}, draw="T1 D1 D1 D1")
    state = end_play(state)
    assert tokens(state, state.points[0]) == "T1" and state.dry_turns == 0
    state = end_play(state)
    assert state.dry_turns == 1


def test_pg10_a_table_of_idle_players_ends_without_a_turn_timer():
    """Item 7: the clock plays for players who never act, and the drought ends the game."""
    for seats in (2, 6):
        result = playout(ENGINE, [Sleeper()] * seats, seats, {"turn_seconds": 0}, max_actions=action_bound(seats))
        assert result.state.ending == "drought" and result.actions == DROUGHT_ROUNDS * seats


def test_pg10_players_who_only_pass_end_by_the_drought():
    result = playout(ENGINE, [Passer(), Passer()], 3, max_actions=action_bound(2))
    assert result.state.ending == "drought" and result.outcome.scores == (0, 0)


# -- every game ends ---------------------------------------------------------------------------
def bot_mixes(seats: int):
    """Every mix of the game's bot kinds for ``seats`` players (which kind sits where varies by seed)."""
    return list(combinations_with_replacement(sorted(BOTS), seats))


GAMES_PER_MIX = 16  # 2,560 seeded games over both decks and 2-6 seats


@pytest.mark.parametrize("deck", sorted(DECKS))
@pytest.mark.parametrize("seats", range(ENGINE.min_seats, ENGINE.max_seats + 1))
def test_pg10_every_game_ends_within_the_argued_bound(deck, seats):
    """Thousands of seeded games over every bot mix, both decks and 2-6 players, each held to
    the bound of the argument in the rules page: no game gets near it, every game ends."""
    bound = action_bound(seats)
    endings = set()
    for mix in bot_mixes(seats):
        for seed in range(GAMES_PER_MIX):
            kinds = list(mix)
            random.Random(seed).shuffle(kinds)
            result = playout(ENGINE, [BOTS[kind] for kind in kinds], seed, {"deck": deck}, max_actions=bound)
            assert result.illegal == 0 and result.outcome is not None
            state = result.state
            endings.add(state.ending)
            if state.ending == "points":
                assert len(state.points[state.winner]) >= WIN_POINTS
            else:
                assert state.winner is None and max(len(pile) for pile in state.points) < WIN_POINTS
    assert "points" in endings


@pytest.mark.parametrize("seed", [133, 149, 180, 338, 361, 384, 437, 778])
def test_pg10_no_point_left_is_never_wrong(seed, monkeypatch):
    """Sound, not guessed: from a position where "no point left" ended a game (six random
    players on the picnic deck; seeds chosen for that ending), play goes on regardless — that
    rule switched off — until the drought ends it, and nobody scores."""
    ended = playout(ENGINE, [BOTS["random"]] * 6, seed, {"deck": "picnic"}).state
    assert ended.ending == "no_point_left"
    points = [len(pile) for pile in ended.points]
    monkeypatch.setattr(rules, "no_point_left", lambda state: False)
    state = rules.begin_turn(replace(ended, phase=Phase.PLAY, dry_turns=0, ending=""),
                             next_seat(ended.current, ended.seats), 0)
    rng = random.Random(seed)
    while state.phase is not Phase.OVER:
        seat = state.prompt.seat if state.phase is Phase.INHERIT else state.current
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)), 0)
    assert state.ending == "drought" and [len(pile) for pile in state.points] == points
