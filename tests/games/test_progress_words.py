"""How far a game has got, as players read it, stays put: the tournament pages' progress words
and the replay's round starts, for every version of seeded bot games of every game at 2–6 seats.

``data/progress_words.json`` holds, per (game, seats, seed), a digest of every version's words
(``tournaments.progress.table_progress`` of a running table in that state) and the replay's
round starts (``Replay.round_starts``), with the first and last words to read. A change to how
the platform learns a game's progress must leave them equal. Write the file again (a wording
change only, in a commit of its own) with ``write_the_record`` below.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from games.core.playout import play
from games.core.registry import get_game
from pigparlor.tables.models import RUNNING, Table
from pigparlor.tables.replay import Replay, Step
from pigparlor.tournaments.progress import table_progress

DATA = Path(__file__).resolve().parent / "data" / "progress_words.json"
GAMES = ("oink", "pigpile", "piggypiggy", "snout")
SEEDS = (11, 29)
CASES = [(slug, seats, seed) for slug in GAMES for seats in range(2, 7) for seed in SEEDS
         if not (slug == "pigpile" and seats < 3)]


def record(slug: str, seats: int, seed: int, case: int) -> dict:
    game = get_game(slug)
    engine = game.engine
    states = [engine.start(seats, seed)]
    steps: list[Step] = []

    def on_step(state, mover, action, at):
        states.append(state)
        steps.append(Step(len(states), mover, action, at, False))

    play(engine, [game.bots["sensible"]] * seats, seed, on_step=on_step)
    words = [table_progress(Table(pk=-1_000_000 - case, game=slug, status=RUNNING, seed=seed, version=version,
                                  state=engine.dump(state)))
             for version, state in enumerate(states, start=1)]
    starts = Replay(table=Table(game=slug), steps=tuple(steps), states=tuple(states)).round_starts()
    digest = hashlib.sha256(json.dumps({"words": words, "round_starts": starts}).encode()).hexdigest()
    return {"digest": digest, "versions": len(states), "first": words[0], "last": words[-1],
            "round_starts": len(starts)}


def key(slug: str, seats: int, seed: int) -> str:
    return f"{slug}/{seats}/{seed}"


def write_the_record() -> None:
    """Writes the record (only in a commit of its own)::

        DJANGO_SETTINGS_MODULE=pigparlor.settings .venv/bin/python -c "import django; django.setup();
        from tests.games.test_progress_words import write_the_record; write_the_record()"
    """
    found = {key(*case): record(*case, index) for index, case in enumerate(CASES)}
    DATA.parent.mkdir(exist_ok=True)
    DATA.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")


@pytest.mark.parametrize(("slug", "seats", "seed"), CASES)
def test_progress_words_and_round_starts_are_as_recorded(slug, seats, seed):
    expected = json.loads(DATA.read_text())[key(slug, seats, seed)]
    assert record(slug, seats, seed, CASES.index((slug, seats, seed))) == expected

