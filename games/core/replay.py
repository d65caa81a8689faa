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

import codecs
import functools
import hashlib
import json
from collections.abc import Iterator, Sequence

try:
    import orjson
except ImportError:  # a verifier without it gets the same bytes from json, slower
    orjson = None  # type: ignore[assignment]

from games.core.contract import Engine, State


def commitment(seed: int) -> str:
    """What every seat sees before anyone acts: the SHA-256 of the seed's decimal digits."""
    return hashlib.sha256(str(int(seed)).encode("ascii")).hexdigest()


def state_digest(dumped) -> str:
    """The SHA-256 of an engine's dump (canonical JSON: sorted keys, no spaces). The
    platform logs it with every action, so a verifier finds the first version where a
    replay leaves the game that was played, even when it comes back to the same end."""
    return hashlib.sha256(canonical_json(dumped)).hexdigest()


# Where orjson may write a number otherwise than json (``1e16`` where json writes
# ``1e+16``): every float it writes has a digit followed by ``.`` or an exponent.
# Found as ``0.`` in the text with each digit made ``0``, each ``.``/``e``/``E`` a ``.``
# and every other byte a space (two passes in C; a regular expression took half as
# long as json itself). Text inside a string can look the same: then json is used,
# for nothing. (NaN and infinity are not JSON: the contract's ``load(dump(s)) == s``
# through JSON would fail, so no engine's dump holds them.)
_FLOAT_SHAPE = bytes(ord("0") if byte in b"0123456789" else ord(".") if byte in b".eE" else ord(" ")
                     for byte in range(256))


def canonical_json(value) -> bytes:
    """``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)``
    as ASCII bytes. With orjson when it writes the same: every byte but the non-ASCII
    characters and DEL, which only strings hold and which are escaped here as json
    escapes them (``\\u2014``, a surrogate pair past U+FFFF, ``\\u007f``). A float,
    or an integer or key orjson cannot write, takes json's way. Logging every
    action's digest with json alone was a twentieth of the server's CPU per action
    (issue 14)."""
    if orjson is not None:
        try:
            text = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
        except TypeError:  # orjson.JSONEncodeError is one: a big integer, a non-string key
            text = None
        if text is not None and b"0." not in text.translate(_FLOAT_SHAPE):
            if not text.isascii():
                text = text.decode().encode("ascii", JSON_ESCAPES)
            return text.replace(b"\x7f", b"\\u007f")
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


@functools.lru_cache(maxsize=4096)  # a game's log repeats the same few, "—" above all
def _escaped(run: str) -> str:
    return json.dumps(run)[1:-1]


def _json_escapes(error: UnicodeError) -> tuple[str, int]:
    """An encoding error handler: each run of non-ASCII characters as json escapes them."""
    assert isinstance(error, UnicodeEncodeError)
    return _escaped(error.object[error.start:error.end]), error.end


JSON_ESCAPES = "games-json-escapes"
codecs.register_error(JSON_ESCAPES, _json_escapes)


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
    for final in states(engine, len(document["seats"]), seed, document["options"], document["actions"]):  # noqa: B007
        pass
    return final
