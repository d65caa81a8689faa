"""``games.core.replay.canonical_json``: the bytes the per-action state digests hash.

They must stay exactly ``json.dumps(value, sort_keys=True, separators=(",", ":"),
ensure_ascii=True)``: the digests logged before the fast path (orjson) must still
verify (docs/fairness.md), and a verifier without orjson computes them with json.
"""
import json
import random

import pytest

from games.core import replay
from games.core.bots import RandomBot
from games.core.playout import play
from games.core.registry import all_games


def reference(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


ODD_VALUES = [
    {"b": 1, "a": [True, False, None], "": {"z": "", "y": -0}},
    {"log": [[1, 0, "was Hog Tied — turn lost"], [2, 1, "é ß 猪 🐷 \u2028 \u00a0"]]},
    {"é": 1, "e": 2, "Z": 3, "ä": {"🐷": 4, "ï": 5}},  # keys sorted by code point
    {"control": "\x00\x01\x08\t\n\x0b\x0c\r\x1f\x7f \"quoted\" back\\slash /slash </script>"},
    {"floats": [1.5, 1e16, 1e-05, -0.0, 2.0, 123456789.125]},  # json's way, not orjson's
    {"text looks like a float": "[1.5, 2e3]", "n": [1, 22, -333]},
    {"big": 2 ** 64, "bigger": -(2 ** 70)},  # past orjson's integers
    {1: "int keys", 2: "sorted as json sorts them"},
    {"nested": [[[[[]]]], {}, [{}]], "tuple": (1, 2, 3)},
    {"lone surrogate": "\ud800"},
    [],
    "a plain string — with a dash",
    12,
]


@pytest.mark.parametrize("value", ODD_VALUES, ids=range(len(ODD_VALUES)))
def test_canonical_json_is_jsons_bytes(value):
    assert replay.canonical_json(value) == reference(value)


def test_canonical_json_without_orjson_is_the_same(monkeypatch):
    """A verifier that has no orjson gets the same bytes."""
    monkeypatch.setattr(replay, "orjson", None)
    for value in ODD_VALUES:
        assert replay.canonical_json(value) == reference(value)


def test_random_strings_round_the_fast_path():
    rng = random.Random(7)
    alphabet = [chr(code) for code in [*range(0, 0x80), 0xA0, 0xE9, 0x2014, 0x732A, 0xFFFF, 0x1F437, 0x10FFFF]]
    for _ in range(2000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 12)))
        value = {text: [text, rng.randrange(-10 ** 6, 10 ** 6)], "k" + text[::-1]: None}
        assert replay.canonical_json(value) == reference(value)


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.slug)
def test_every_state_of_seeded_games_digests_as_json_did(game):
    """Every state of three seeded random games of each game: the digest logged with
    each action is the SHA-256 of json's canonical bytes, as before orjson."""
    for seed in range(3):
        states: list = []
        play(game.engine, [RandomBot()] * game.engine.min_seats, seed, on_step=lambda state, *_, into=states: into.append(state))
        for state in states:
            dumped = game.engine.dump(state)
            assert replay.canonical_json(dumped) == reference(dumped)
