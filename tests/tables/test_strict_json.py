"""Reading a sender's JSON strictly (``strict_json``), without a database or a socket."""
import json

import pytest

from pigparlor.tables.errors import TableError
from pigparlor.tables.strict_json import MAX_DEPTH, loads, too_deep

OPEN, CLOSE = "[" * (MAX_DEPTH + 1), "]" * (MAX_DEPTH + 1)


@pytest.mark.parametrize("text,deep", [
    ("[" * MAX_DEPTH + "]" * MAX_DEPTH, False),
    (OPEN + CLOSE, True),
    (json.dumps(["[" * 50]), False),  # brackets inside a string do not count
    (json.dumps(['"' + "[" * 50]), False),  # nor after an escaped quote, still inside the string
    (json.dumps(["\\"]) + OPEN + CLOSE, True),  # an escaped backslash ends nothing early
    ("[" * 3000, True),
], ids=["at-the-limit", "one-deeper", "in-a-string", "escaped-quote", "escaped-backslash", "3000"])
def test_nesting_is_counted_outside_strings(text, deep):
    assert too_deep(text) is deep


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", '{"v": -Infinity}', "1e999", "[-1e400]", "9" * 4400,
                                  b"\xff\xfe{}", '{"a": 1'])
def test_only_standard_json_is_read(text):
    with pytest.raises(TableError) as refused:
        loads(text)
    assert (refused.value.code, refused.value.message) == ("bad_request", "the message is not JSON")


def test_too_deep_is_named():
    with pytest.raises(TableError) as refused:
        loads(OPEN + CLOSE, "the body")
    assert (refused.value.code, refused.value.message) == ("bad_request", "the body is nested too deeply")


def test_ordinary_messages_read_as_json():
    message = {"type": "act", "version": 7, "action": {"type": "add", "cards": [3, 5], "note": "[{\"x"}}
    assert loads(json.dumps(message)) == message
    assert loads(json.dumps(message).encode()) == message
    assert loads("1.5e3") == 1500.0
