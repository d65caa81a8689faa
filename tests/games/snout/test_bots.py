"""The sensible bot's choices, from its own view only."""
import random

from games.core.playout import play
from games.snout.bots import BOTS, SensibleBot
from games.snout.engine import ENGINE
from games.snout.state import Phase
from tests.games.snout.fixtures import position

SENSIBLE = SensibleBot()


def choice_for(state, seat):
    return SENSIBLE.choose(ENGINE.view(state, seat), ENGINE.legal_actions(state, seat), random.Random(0))


def test_sensible_passes_the_leaning_jowler_and_the_snouters():
    state = position(["sssdrrnj", "dddddddd", "nrrrssss"], phase=Phase.PASS)
    assert choice_for(state, 0) == {"type": "pass", "pigs": ["razorback", "snouter", "jowler"]}
    assert choice_for(state, 2) == {"type": "pass", "pigs": ["razorback", "razorback", "snouter"]}


def test_sensible_passes_a_lone_trotter_before_one_of_many_razorbacks():
    state = position(["ssssrrrt", "dddddddd"], phase=Phase.PASS)
    assert "trotter" in choice_for(state, 0)["pigs"]


def early_window(hands):
    state = position(hands, pigsty="ssss", toss="d", early_snout=True)
    state = ENGINE.apply(state, 0, {"type": "toss"}, 0)
    assert state.phase is Phase.SNOUT_WINDOW
    return state


def test_sensible_calls_snout_holding_little_against_full_hands():
    state = early_window(["sd", "ssssrrtn", "srrttnjd"])
    assert choice_for(state, 0) == {"type": "snout"}


def test_sensible_plays_on_holding_a_lot():
    state = early_window(["rrttnd", "ssss", "sssd"])
    assert choice_for(state, 0) == {"type": "play_on"}


def test_bots_wait_when_they_have_nothing_to_do():
    assert SENSIBLE.choose({}, [], random.Random(0)) is None
    assert BOTS["random"].choose({}, [], random.Random(0)) is None


def test_sensible_beats_random():
    wins = {"sensible": 0, "random": 0}
    for seed in range(60):
        kinds = ["sensible", "random"] * 2 if seed % 2 else ["random", "sensible"] * 2
        result = play(ENGINE, [BOTS[kind] for kind in kinds], seed, {"early_snout": seed % 3 == 0})
        assert result.illegal == 0
        for seat, kind in enumerate(kinds):
            wins[kind] += result.outcome.ranks[seat] == 1
    assert wins["sensible"] > 3 * wins["random"]
