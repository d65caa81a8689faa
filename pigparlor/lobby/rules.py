"""Rules pages: each game's ``docs/rules/<slug>.md`` rendered with Markdown."""
from __future__ import annotations

from pathlib import Path

import markdown
from django.conf import settings
from django.utils.safestring import mark_safe

RULES_DIR = Path(settings.BASE_DIR) / "docs" / "rules"


def rules_html(slug: str) -> str | None:
    """The rendered page, or None if the game has no rules page yet.

    The Markdown is ours (in the repository), never a user's, so its HTML is trusted.
    """
    path = RULES_DIR / f"{slug}.md"
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8")
    return mark_safe(markdown.markdown(text, extensions=["tables", "fenced_code", "sane_lists", "toc"]))
