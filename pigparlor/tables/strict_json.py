"""JSON as the table protocol defines it, for every door that parses a sender's text.

Python's ``json`` reads more than JSON: ``NaN`` and ``Infinity`` (which later turn
into a 500 or a silently coerced number) and nesting as deep as the stack allows
(a ``RecursionError``, which is not a ``ValueError``). Here both, like any text
that is not JSON, are a ``bad_request`` refusal.
"""
from __future__ import annotations

import json

from pigparlor.tables.errors import BAD_REQUEST, TableError


def _no_constants(name: str):
    raise ValueError(f"{name} is not JSON")


def loads(text: str | bytes, what: str = "the message"):
    try:
        return json.loads(text, parse_constant=_no_constants)
    except RecursionError:
        raise TableError(BAD_REQUEST, f"{what} is nested too deeply") from None
    except ValueError:
        raise TableError(BAD_REQUEST, f"{what} is not JSON") from None
