"""Text that users write for other users to read: names and table titles.

Unicode has characters that show nothing or rearrange what is around them:
controls (category Cc), formatting characters (Cf) such as the right-to-left
override U+202E, which flips the page text after it, or the zero-width joiner,
and the other "default ignorable" code points that fonts draw as nothing (the
Hangul fillers, which are letters by category, the combining grapheme joiner…).
None of them belongs in a name or a title. Variation selectors (U+FE00–FE0F,
which pick an emoji's style) are allowed.
"""
from __future__ import annotations

import unicodedata

INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})
# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt) beyond
# categories Cc and Cf, less the variation selectors; plus the braille blank.
IGNORABLE_RANGES = (
    (0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F), (0x2800, 0x2800),
    (0x3164, 0x3164), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def describe(character: str) -> str:
    return f"U+{ord(character):04X} {unicodedata.name(character, 'unnamed')}"


def is_invisible(character: str) -> bool:
    code = ord(character)
    return (unicodedata.category(character) in INVISIBLE_CATEGORIES
            or any(low <= code <= high for low, high in IGNORABLE_RANGES))


def invisible_characters(text: str) -> list[str]:
    """Each character of ``text`` that shows nothing or reorders its
    neighbours, described (``"U+202E RIGHT-TO-LEFT OVERRIDE"``)."""
    return [describe(character) for character in text if is_invisible(character)]
