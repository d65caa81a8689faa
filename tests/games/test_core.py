"""games.core: the seeded random source, options, and the rule that rules import no Django."""
import subprocess
import sys
from pathlib import Path

import pytest

from games.core import IllegalAction, Option, Rng, ranks_from_scores

ROOT = Path(__file__).resolve().parents[2]


def test_rng_is_deterministic_and_immutable():
    a = Rng.from_seed(42)
    first, after = a.below(1000)
    assert a.below(1000) == (first, after)
    assert after != a


def test_rng_below_is_roughly_uniform():
    rng = Rng.from_seed(1)
    counts = [0] * 6
    for _ in range(6000):
        value, rng = rng.below(6)
        counts[value] += 1
    assert all(900 < count < 1100 for count in counts)


def test_shuffle_is_a_permutation():
    cards, _ = Rng.from_seed(3).shuffled(range(80))
    assert sorted(cards) == list(range(80)) and list(cards) != list(range(80))


def test_weighted_respects_zero_weights():
    rng = Rng.from_seed(5)
    for _ in range(200):
        index, rng = rng.weighted([0, 3, 0, 1])
        assert index in (1, 3)


def test_competition_ranks_share_places():
    assert ranks_from_scores([10, 7, 10, 3]) == (1, 3, 1, 4)
    assert ranks_from_scores([2, 5], higher_is_better=False) == (1, 2)


@pytest.mark.parametrize("value", ["x", 1.5j, None, True])
def test_int_option_refuses_junk(value):
    with pytest.raises(IllegalAction):
        Option("turn_seconds", "int", 0, "Timer", min=0, max=600).clean(value)


def test_choice_option():
    option = Option("toss_odds", "choice", "kern", "Odds", choices=("kern", "cards"))
    assert option.clean("cards") == "cards"
    with pytest.raises(IllegalAction):
        option.clean("dice")


def test_rules_import_no_django():
    """games/core and every game's engine.py, bots.py and coach.py import without Django (style.md habit 1)."""
    modules = ["games.core", "games.core.playout", "games.core.coach"]
    for path in sorted(path for name in ("engine", "bots", "coach") for path in (ROOT / "games").glob(f"*/{name}.py")):
        modules.append(f"games.{path.parent.name}.{path.stem}")
    code = (
        "import sys, importlib\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "bad = [m for m in sys.modules if m == 'django' or m.startswith('django.')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
