"""Text that users write for other users to read: names and table titles.

Unicode has characters that show nothing or rearrange what is around them:
controls (category Cc), and formatting characters (Cf) such as the
right-to-left override U+202E, which flips the page text after it, or the
zero-width joiner. None belongs in a name or a title.
"""
from __future__ import annotations

import unicodedata

INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})


def describe(character: str) -> str:
    return f"U+{ord(character):04X} {unicodedata.name(character, 'unnamed')}"


def invisible_characters(text: str) -> list[str]:
    """Each character of ``text`` that is a control, formatting, surrogate,
    private-use or line/paragraph separator, described
    (``"U+202E RIGHT-TO-LEFT OVERRIDE"``)."""
    return [describe(character) for character in text
            if unicodedata.category(character) in INVISIBLE_CATEGORIES]
