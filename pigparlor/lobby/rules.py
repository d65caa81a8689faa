"""Rules pages: each game's ``docs/rules/<slug>.md`` rendered with Markdown, followed by
what is the same for every game (``SHARED``: missed turns and leaving)."""
from __future__ import annotations

from pathlib import Path

import markdown
from django.conf import settings
from django.utils.safestring import mark_safe

RULES_DIR = Path(settings.BASE_DIR) / "docs" / "rules"
SHARED = (RULES_DIR / "timeouts.md",)


def rules_html(slug: str) -> str | None:
    """The rendered page, or None if the game has no rules page yet.

    The Markdown is ours (in the repository), never a user's, so its HTML is trusted.
    """
    path = RULES_DIR / f"{slug}.md"
    if not path.is_file():
        return None
    text = "\n\n".join(page.read_text(encoding="utf-8") for page in (path, *SHARED))
    return mark_safe(markdown.markdown(text, extensions=["tables", "fenced_code", "sane_lists", "toc"]))
