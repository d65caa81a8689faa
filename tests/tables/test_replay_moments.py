"""A replay steps through moments, not versions: a clock tick that wrote nothing in the log
(Oink!'s pause between flips ending) folds into the move before it, and every moment's caption
is sentences, one per event, said alike to anyone who watches."""
from types import SimpleNamespace

import pytest

from games.core.playout import play
from games.core.registry import get_game
from games.core.replay import states
from pigparlor.tables.replay import Replay, Step
from pigparlor.tables.replay_views import sentence, step_sentences

NAMES = {0: "ana", 1: "Sensible bot 2", 2: "Sensible bot 3"}


def replay_of(slug: str, seed: int) -> Replay:
    """A bot playout of ``slug`` as the platform replays it; seat 0's moves count as a bot's
    standing in for ana."""
    game = get_game(slug)
    log = play(game.engine, [game.bots["sensible"]] * 3, seed=seed, keep_log=True).log
    steps = tuple(Step(version, seat, action, at, by_user=seat != 0)
                  for version, (seat, action, at) in enumerate(log, start=2))
    built = tuple(states(game.engine, 3, seed, None, [step.as_json() for step in steps]))
    return Replay(SimpleNamespace(game=slug), steps, built)


def test_oinks_silent_clock_ticks_fold_into_the_flip_before_them():
    found = replay_of("oink", 7)
    silent = [step.version for step in found.steps if step.seat is None and not found.events(step.version - 1, step.version)]
    assert len(silent) > 20, "Oink!'s pause between flips is a clock tick"
    assert len(found.moments) == found.last - len(silent)
    assert found.moments[-1] == found.last
    for index in range(1, len(found.moments)):
        first = found.moments[index - 1] + 1  # a moment begins with a move or a clock tick that did something
        assert found.step(first).seat is not None or found.events(first - 1, first)
    # Every version belongs to the moment that ends at or after it and starts after the one before.
    for version in range(1, found.last + 1):
        moment = found.moment_of(version)
        assert found.moments[moment] >= version and (moment == 0 or found.moments[moment - 1] < version)


@pytest.mark.parametrize("slug", ["oink", "pigpile", "piggypiggy", "snout"])
def test_every_moments_caption_is_sentences_and_never_says_you(slug):
    found = replay_of(slug, 11)
    assert step_sentences(found, 0, NAMES, {0}) == ["The cards are dealt."]
    for moment in range(1, len(found.moments)):
        said = step_sentences(found, moment, NAMES, {0})
        assert said, moment
        for text in said:
            assert text[-1] in ".!?…" and "{seat:" not in text, text
            assert not {"you", "your"} & {word.strip(".,:;!?").lower() for word in text.split()}, text
        if found.step(found.moments[moment - 1] + 1).seat == 0:
            assert said[0] == "A bot played for ana."


def test_a_sentence_keeps_a_players_name_as_spelled():
    assert sentence("drew two cards") == "Drew two cards."
    assert sentence("ana drew two cards", capital=False) == "ana drew two cards."
    assert sentence("Oink!") == "Oink!"
