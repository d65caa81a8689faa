"""Strict types for what a sender hands the tables' doors (issue 9 item 7).

JSON senders and forms alike must send the documented type: ``"false"`` is not
a boolean, ``3.9`` and ``true`` are not whole numbers, an object is not a title.
Nothing is coerced — a coercion is how ``"private": "false"`` once made a
private table. Each check raises the protocol's ``bad_request``.
"""
from __future__ import annotations

import re

from pigparlor.tables.errors import BAD_REQUEST, TableError
from pigparlor.usertext import invisible_characters


def whole_number(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TableError(BAD_REQUEST, f"{what} must be a whole number")
    return value


def flag(value, what: str) -> bool:
    if not isinstance(value, bool):
        raise TableError(BAD_REQUEST, f"{what} must be true or false")
    return value


def visible_text(value, what: str, max_length: int) -> str:
    """A short line of text for other players to read: a string, not too long,
    without control or invisible formatting characters (a right-to-left
    override would flip the page around it)."""
    if not isinstance(value, str):
        raise TableError(BAD_REQUEST, f"{what} must be a string")
    if len(value) > max_length:
        raise TableError(BAD_REQUEST, f"{what} is longer than {max_length} characters")
    hidden = invisible_characters(value)
    if hidden:
        raise TableError(BAD_REQUEST, f"{what} contains a control or invisible character ({hidden[0]})")
    return value


def fields(body: dict, allowed: tuple[str, ...]) -> dict:
    """``body`` itself, once it names no field outside ``allowed`` (a typo such as
    ``"privat"`` must not quietly create a public table)."""
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise TableError(BAD_REQUEST, f"unknown field {unknown[0]!r}; send only {', '.join(allowed)}")
    return body


SALT = re.compile(r"[A-Za-z0-9_-]{8,64}")


def salt(value) -> str:
    """A seat's contribution to the deal (docs/fairness.md): 8 to 64 characters
    of ``A-Z a-z 0-9 _ -`` (hex or base64url of random bytes)."""
    if not isinstance(value, str) or not SALT.fullmatch(value):
        raise TableError(BAD_REQUEST, "salt must be a string of 8 to 64 characters from A-Z a-z 0-9 _ -")
    return value
