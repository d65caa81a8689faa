"""Rules pages: each game's ``docs/rules/<slug>.md`` rendered with Markdown, with pictures,
followed by what is the same for every game (``SHARED``: missed turns and leaving).

A line ``<!-- figure: NAME -->`` in the Markdown (an HTML comment: invisible where the
file is read as plain Markdown) becomes the game's ``<slug>/_figure_NAME.html``, drawn
with the game's own card partials from its coach's sample cards (games.core.coach) —
the same pictures the table's "How to play" panel shows. Followed, after what it
illustrates, by a line ``<!-- /figure -->``, the picture takes that part's place on the
site (a table of the cards, say), while the file itself still reads well as text.
"""
from __future__ import annotations

import re
from pathlib import Path

import markdown
from django.conf import settings
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

RULES_DIR = Path(settings.BASE_DIR) / "docs" / "rules"
SHARED = (RULES_DIR / "timeouts.md",)
FIGURE = re.compile(r"<!-- figure: ([a-z][a-z-]*) -->(?:.*?<!-- /figure -->)?", re.DOTALL)


def rules_html(game) -> str | None:
    """The rendered page, or None if the game has no rules page yet.

    The Markdown is ours (in the repository), never a user's, so its HTML is trusted.
    """
    path = RULES_DIR / f"{game.slug}.md"
    if not path.is_file():
        return None
    text = "\n\n".join(page.read_text(encoding="utf-8") for page in (path, *SHARED))
    html = markdown.markdown(text, extensions=["tables", "fenced_code", "sane_lists", "toc"])
    samples = game.coach.samples() if game.coach is not None else {}
    return mark_safe(FIGURE.sub(lambda figure: render_to_string(
        f"{game.slug}/_figure_{figure.group(1)}.html", {"samples": samples, "game": game, "standalone": True}), html))
