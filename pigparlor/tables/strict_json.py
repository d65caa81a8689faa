"""JSON as the table protocol defines it, for every door that parses a sender's text.

Python's ``json`` reads more than JSON: ``NaN`` and ``Infinity`` (``1e999``
too, as a float's infinity), which later turn into a 500 or a silently coerced
number (and PostgreSQL's jsonb refuses them), and nesting as deep as the stack
allows (a ``RecursionError``, which is not a ``ValueError``). Here those, like
any text that is not UTF-8 JSON, are a ``bad_request`` refusal. Nesting is
measured before parsing, so a frame of 3,000 ``[`` never reaches the recursive
parser, and a value nested just under the stack's limit never reaches code
that recurses through it later (a log line, the database's encoder).
"""
from __future__ import annotations

import json
import math
import re

from pigparlor.tables.errors import BAD_REQUEST, TableError

# Deeper than anything the protocol sends needs (an act is three levels).
MAX_DEPTH = 10
_TOKENS = re.compile(r'[\\"\[\]{}]')


def too_deep(text: str) -> bool:
    """Whether the brackets of a JSON text nest deeper than ``MAX_DEPTH`` outside
    its strings, found in one linear pass."""
    depth = 0
    in_string, escaped_at = False, -1
    for token in _TOKENS.finditer(text):
        at, char = token.start(), token.group()
        if at == escaped_at:
            continue
        if in_string:
            if char == "\\":
                escaped_at = at + 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif char in "]}":
            depth -= 1
    return False


def _no_constants(name: str):
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is beyond a float")
    return value


def loads(text: str | bytes, what: str = "the message"):
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise TableError(BAD_REQUEST, f"{what} is not JSON") from None
    if too_deep(text):
        raise TableError(BAD_REQUEST, f"{what} is nested too deeply")
    try:
        return json.loads(text, parse_constant=_no_constants, parse_float=_finite)
    except RecursionError:
        raise TableError(BAD_REQUEST, f"{what} is nested too deeply") from None
    except ValueError:
        raise TableError(BAD_REQUEST, f"{what} is not JSON") from None
