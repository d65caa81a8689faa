"""Replaying a game from its seed and its actions, and the shuffle's commitment.

Pure Python, no Django: a program holding this repository can check a finished
table's replay document (``GET /api/tables/<id>/replay/``, docs/api.md) with
``replay(engine, document)`` exactly as the server does (docs/fairness.md).

- The **commitment** shown from a table's creation on is
  ``sha256(str(seed))`` in hex: the seed's decimal digits, ASCII.
- The **deal seed** the engine starts from mixes in the salts the seats' clients
  sent before the deal: with no salt it is the seed itself; otherwise the first
  8 bytes of ``sha256("<seed>|<salt of seat 0>|<salt of seat 1>|…")`` (a seat
  without a salt contributes ``""``), big-endian, shifted right by one bit.
"""
from __future__ import annotations

import hashlib
import json
from typing import Iterator, Sequence

from games.core.contract import Engine, State


def commitment(seed: int) -> str:
    """What every seat sees before anyone acts: the SHA-256 of the seed's decimal digits."""
    return hashlib.sha256(str(int(seed)).encode("ascii")).hexdigest()


def state_digest(dumped) -> str:
    """The SHA-256 of an engine's dump (canonical JSON: sorted keys, no spaces). The
    platform logs it with every action, so a verifier finds the first version where a
    replay leaves the game that was played, even when it comes back to the same end."""
    text = json.dumps(dumped, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def deal_seed(seed: int, salts: Sequence[str | None] = ()) -> int:
    """The seed the engine deals from: ``seed`` mixed with the seats' salts (in seat order)."""
    if not any(salts):
        return int(seed)
    mixed = "|".join([str(int(seed)), *(salt or "" for salt in salts)])
    return int.from_bytes(hashlib.sha256(mixed.encode("utf-8")).digest()[:8], "big") >> 1


def states(engine: Engine, seats: int, seed: int, options: dict | None,
           actions: Sequence[dict]) -> Iterator[State]:
    """The state at the start (version 1), then after each action in order.

    Each action is ``{"seat", "action", "at_ms"}`` with ``at_ms`` in the
    engine's clock (ms since the start). A refused action raises the engine's
    ``IllegalAction``, as it would have at the table."""
    state = engine.start(seats, seed, options)
    yield state
    for step in actions:
        state = engine.apply(state, step["seat"], step["action"], step["at_ms"])
        yield state


def replay(engine: Engine, document: dict) -> State:
    """The final state a replay document leads to (``IllegalAction`` if one of its actions is refused).

    Check also that ``commitment(document["seed"]) == document["commitment"]`` and
    that ``engine.outcome(final).as_json()`` has the document's ranks and scores."""
    final = None
    seed = deal_seed(document["seed"], document.get("salts") or ())
    for final in states(engine, len(document["seats"]), seed, document["options"], document["actions"]):
        pass
    return final
