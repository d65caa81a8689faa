"""Cutting a rendered table into its top-level, id'd elements (the out-of-band swaps).

A socket sends only the elements whose HTML changed since its last frame, each
marked ``hx-swap-oob="true"`` so htmx swaps it into the element with the same id.
"""
from __future__ import annotations

from html.parser import HTMLParser

VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())


class _TopLevel(HTMLParser):
    def __init__(self, text: str):
        super().__init__(convert_charrefs=False)
        self.text = text
        self.line_starts = [0]
        for index, char in enumerate(text):
            if char == "\n":
                self.line_starts.append(index + 1)
        self.depth = 0
        self.start = 0
        self.current_id: str | None = None
        self.found: list[tuple[str, int, int]] = []

    def position(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def handle_starttag(self, tag, attrs):
        if self.depth == 0:
            self.start = self.position()
            self.current_id = dict(attrs).get("id")
            if tag in VOID:
                end = self.start + len(self.get_starttag_text())
                self._close(end)
                return
        if tag not in VOID:
            self.depth += 1

    def handle_startendtag(self, tag, attrs):
        if self.depth == 0:
            self.start = self.position()
            self.current_id = dict(attrs).get("id")
            self._close(self.start + len(self.get_starttag_text()))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        self.depth -= 1
        if self.depth == 0:
            begin = self.position()
            self._close(self.text.index(">", begin) + 1)

    def _close(self, end: int):
        if self.current_id:
            self.found.append((self.current_id, self.start, end))
        self.current_id = None


def split_top_level(html: str) -> dict[str, str]:
    """``{id: element_html}`` for each top-level element that has an id, in order.
    Top-level elements without an id cannot be swapped and are left out."""
    parser = _TopLevel(html)
    parser.feed(html)
    parser.close()
    return {element_id: html[start:end] for element_id, start, end in parser.found}


def out_of_band(element_html: str) -> str:
    """The element with ``hx-swap-oob="true"`` added to its opening tag."""
    name_end = 1
    while name_end < len(element_html) and element_html[name_end] not in " \t\n/>":
        name_end += 1
    return f'{element_html[:name_end]} hx-swap-oob="true"{element_html[name_end:]}'
