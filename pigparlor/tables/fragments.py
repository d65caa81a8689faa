"""Cutting a rendered table into its top-level, id'd elements (the out-of-band swaps).

A socket sends only the elements whose HTML changed since its last frame, each
marked ``hx-swap-oob="true"`` so htmx swaps it into the element with the same id.
The templates are ours, so a tag scanner that tracks nesting depth is enough
(and far cheaper than a full HTML parser on every render); comments and
``<script>``/``<style>`` bodies are skipped whole.
"""
from __future__ import annotations

import functools
import re

VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())
# The attributes as an unrolled loop (runs of plain characters between quoted
# values): the same match as ``(?:[^>"']|"[^"]*"|'[^']*')*``, but a run at a time
# rather than a character at a time (a tenth of a browser seat's update, issue 14).
ATTRS = r"([^>\"']*(?:(?:\"[^\"]*\"|'[^']*')[^>\"']*)*)"
SKIPPED = r"<!--.*?-->|<(script|style)\b.*?</\1\s*>"  # comments and script/style bodies, whole
TOP = re.compile(rf"{SKIPPED}|<([a-zA-Z][\w:-]*){ATTRS}>", re.DOTALL | re.IGNORECASE)
ID = re.compile(r"""\bid\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.IGNORECASE)


@functools.lru_cache(maxsize=256)
def _same_name(name: str) -> re.Pattern:
    """Opening and closing tags named ``name`` (and what to skip whole)."""
    return re.compile(rf"{SKIPPED}|<(/?){re.escape(name)}(?=[\s/>]){ATTRS}>", re.DOTALL | re.IGNORECASE)


def split_top_level(html: str) -> dict[str, str]:
    """``{id: element_html}`` for each top-level element that has an id, in order.
    Top-level elements without an id cannot be swapped and are left out.

    Only an element's own name can close it, so from each top-level opening tag
    the scan looks for that name alone (counting the same name nested inside):
    the tags of other names within it are never matched one by one, which was
    half of cutting a page (issue 14)."""
    found: dict[str, str] = {}
    position = 0
    while True:
        tag = TOP.search(html, position)
        if tag is None:
            return found
        name, attrs = tag.group(2), tag.group(3)
        if name is None:  # a comment, or a whole script/style element
            if tag.group(1):
                element_id = _id(tag.group(0)[:tag.group(0).index(">")])
                if element_id:
                    found[element_id] = tag.group(0)
            position = tag.end()
            continue
        name = name.lower()
        end = tag.end()
        if name not in VOID and not attrs.rstrip().endswith("/"):
            closed = _closing(html, name, end)
            if closed is None:  # never closed: nothing after it is top level
                return found
            end = closed
        element_id = _id(attrs)
        if element_id:
            found[element_id] = html[tag.start():end]
        position = end


def _closing(html: str, name: str, start: int) -> int | None:
    """The end of the tag that closes the element named ``name`` opened just before ``start``."""
    depth = 1
    for tag in _same_name(name).finditer(html, start):
        if tag.group(2) is None or tag.group(3).rstrip().endswith("/"):
            continue  # skipped whole, or a self-closed element of the same name
        if tag.group(2):
            depth -= 1
            if depth == 0:
                return tag.end()
        else:
            depth += 1
    return None


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
# ``{% for_every_viewer %}`` (tables templatetags) keeps what it renders in the dict
# a render's context holds under SHARED_BLOCKS (``rendering.html_parts``: one per
# snapshot, so one per version for all its viewers).
SHARED_BLOCKS = "_shared_blocks"
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
