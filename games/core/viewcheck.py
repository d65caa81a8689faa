"""Finding the cards a view or a rendered frame shows (for the leak checks)."""
from __future__ import annotations

import re

DATA_CARD = re.compile(r'data-card="(\d+)"')


def cards_in_view(view) -> set[int]:
    """Every id under a ``"card"`` key anywhere in a JSON-like view."""
    found: set[int] = set()
    stack = [view]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                if key == "card" and isinstance(value, int) and not isinstance(value, bool):
                    found.add(value)
                else:
                    stack.append(value)
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


def cards_in_html(html: str) -> set[int]:
    return {int(match) for match in DATA_CARD.findall(html)}
