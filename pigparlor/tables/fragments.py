"""Cutting a rendered table into its top-level, id'd elements (the out-of-band swaps).

A socket sends only the elements whose HTML changed since its last frame, each
marked ``hx-swap-oob="true"`` so htmx swaps it into the element with the same id.
The templates are ours, so a tag scanner that tracks nesting depth is enough
(and far cheaper than a full HTML parser on every render); comments and
``<script>``/``<style>`` bodies are skipped whole.
"""
from __future__ import annotations

import re

VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())
TOKEN = re.compile(
    # The attributes as an unrolled loop (runs of plain characters between quoted
    # values): the same match as ``(?:[^>"']|"[^"]*"|'[^']*')*``, but a run at a time
    # rather than a character at a time (a tenth of a browser seat's update, issue 14).
    r"<!--.*?-->|<(script|style)\b.*?</\1\s*>"
    r"|<(/?)([a-zA-Z][\w:-]*)([^>\"']*(?:(?:\"[^\"]*\"|'[^']*')[^>\"']*)*)>",
    re.DOTALL | re.IGNORECASE)
ID = re.compile(r"""\bid\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.IGNORECASE)


def split_top_level(html: str) -> dict[str, str]:
    """``{id: element_html}`` for each top-level element that has an id, in order.
    Top-level elements without an id cannot be swapped and are left out."""
    found: dict[str, str] = {}
    depth, start, current_id = 0, 0, None
    for token in TOKEN.finditer(html):
        closing, name, attrs = token.group(2), token.group(3), token.group(4)
        if name is None:  # a comment, or a whole script/style element
            if depth == 0 and token.group(1):
                element_id = _id(token.group(0)[:token.group(0).index(">")])
                if element_id:
                    found[element_id] = token.group(0)
            continue
        name = name.lower()
        if closing:
            if name in VOID:
                continue
            depth -= 1
            if depth == 0 and current_id:
                found[current_id] = html[start:token.end()]
            continue
        if depth == 0:
            start, current_id = token.start(), _id(attrs)
        if name in VOID or attrs.rstrip().endswith("/"):
            if depth == 0 and current_id:
                found[current_id] = html[start:token.end()]
            continue
        depth += 1
    return found


def _id(attrs: str) -> str | None:
    match = ID.search(attrs)
    if match is None:
        return None
    return next(group for group in match.groups() if group is not None)


# ``{% memo_include %}`` (tables templatetags) in a render whose context holds a
# list under MEMO_SLOTS (``rendering.html_parts``) leaves a slot ``<\ue000N>`` in
# the output and the partial's HTML in the list: the page is cut into parts
# around the slots, so the partials' many tags (cards, seats) are never scanned,
# then ``fill_slots`` puts the HTML back. The partials are whole elements, so
# the cut is the same. Autoescaped text cannot forge a slot (it has no raw ``<``),
# and the scanner takes a slot for text (no tag name starts with U+E000).
MEMO_SLOTS = "_memo_slots"
SLOT = re.compile("<\ue000([0-9]+)>")


def slot(index: int) -> str:
    return f"<\ue000{index}>"


def fill_slots(parts: dict[str, str], slots: list[str]) -> dict[str, str]:
    """The parts with each slot replaced by its partial's HTML."""
    if not slots:
        return parts
    fill = lambda match: slots[int(match.group(1))]  # noqa: E731
    return {element_id: SLOT.sub(fill, html) if "<\ue000" in html else html for element_id, html in parts.items()}


def out_of_band(element_html: str) -> str:
    """The element with ``hx-swap-oob="true"`` added to its opening tag."""
    name_end = 1
    while name_end < len(element_html) and element_html[name_end] not in " \t\n/>":
        name_end += 1
    return f'{element_html[:name_end]} hx-swap-oob="true"{element_html[name_end:]}'
