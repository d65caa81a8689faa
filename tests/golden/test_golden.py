"""Today's pages, JSON frames and states of seeded games are the ones on record
(tests/golden/__init__.py: what is recorded, and when a record may change)."""
import pytest

from games.core.playout import play as play_out
from games.core.registry import get_game
from pigparlor.tables.models import ActionLog
from tests.golden.records import (
    STATE_CHARS,
    failure,
    playout_differences,
    read,
    state_digest,
    table_differences,
    table_record,
    write,
    writing,
)
from tests.golden.tables import Case, Digests, play, quiet_tables

GAMES = ["oink", "pigpile", "piggypiggy", "snout"]

# Tables played through the platform: every game at its fewest seats and its
# most, and some between; together every count from 2 to 6. Pig Pile's games are
# long (some 550 versions at any count): most of these tests' time.
TABLES = [
    Case("oink", 2, 1), Case("oink", 4, 2), Case("oink", 6, 3),
    Case("pigpile", 3, 1), Case("pigpile", 6, 3),
    Case("piggypiggy", 2, 1), Case("piggypiggy", 4, 2), Case("piggypiggy", 6, 3),
    Case("snout", 2, 1), Case("snout", 3, 2), Case("snout", 5, 3),
]
PLAYOUT_SEEDS = (1,)


@pytest.mark.django_db(transaction=True, reset_sequences=True)  # table and user ids from 1
@pytest.mark.parametrize("case", TABLES, ids=lambda case: case.name)
def test_what_every_viewer_is_sent_is_on_record(case, monkeypatch):
    quiet_tables(monkeypatch)
    digests = Digests()
    table_id, sent = play(case, digests)
    actual = table_record(case, sent)
    logged = dict(ActionLog.objects.filter(table_id=table_id).values_list("version", "state_sha"))
    assert {line["version"]: line["state"] for line in actual["versions"][1:]} == {
        version: sha[:STATE_CHARS] for version, sha in logged.items()}, "the action log's digests are these"
    if writing():
        print(f"recorded {write(case.name, actual, 'versions').name}")
        return
    found = table_differences(case, read(case.name), actual, sent, digests.previews)
    assert not found, failure(found)


def playout_states(slug: str, seats: int, seed: int) -> list[str]:
    """The state digest of every version of a playout by the game's sensible bots (the engine alone)."""
    engine, bot = get_game(slug).engine, get_game(slug).bots["sensible"]
    states = [state_digest(engine.dump(engine.start(seats, seed)))]
    play_out(engine, [bot] * seats, seed, on_step=lambda state, *_: states.append(state_digest(engine.dump(state))))
    return states


def playouts(slug: str) -> dict:
    engine = get_game(slug).engine
    return {"game": slug, "playouts": {f"{seats} seats, seed {seed}": playout_states(slug, seats, seed)
                                       for seats in range(engine.min_seats, engine.max_seats + 1)
                                       for seed in PLAYOUT_SEEDS}}


@pytest.mark.parametrize("slug", GAMES)
def test_playout_states_are_on_record(slug):
    actual = playouts(slug)
    if writing():
        print(f"recorded {write(f'{slug}-playouts', actual, 'playouts').name}")
        return
    found = playout_differences(slug, read(f"{slug}-playouts"), actual)
    assert not found, failure(found)
