"""Issue 9 item 11: a strict Content Security Policy and the usual security headers on every page,
and no template that such a policy would break."""
import json
import re
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.django_db


def policy(response) -> dict[str, list[str]]:
    directives = (part.split() for part in response["Content-Security-Policy"].split(";") if part.strip())
    return {name: values for name, *values in directives}


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/games/pigpile/", "/no-such-page/", "/admin/login/"])
def test_every_page_gets_a_strict_policy_and_the_usual_headers(client, path):
    response = client.get(path)
    directives = policy(response)
    assert directives["default-src"] == ["'self'"]
    assert "script-src" not in directives and "style-src" not in directives, "both fall back to 'self' alone"
    assert directives["object-src"] == directives["base-uri"] == directives["frame-ancestors"] == ["'none'"]
    assert directives["form-action"] == ["'self'"]
    assert "unsafe" not in response["Content-Security-Policy"]
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"
    assert "camera=()" in response["Permissions-Policy"] and "microphone=()" in response["Permissions-Policy"]


TEMPLATES = sorted([*ROOT.glob("templates/**/*.html"), *ROOT.glob("games/*/templates/**/*.html"),
                    *ROOT.glob("pigparlor/*/templates/**/*.html")])
INLINE = {
    "an inline <script>": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I),
    "an event handler attribute": re.compile(r"\son[a-z]+\s*=", re.I),
    "a style attribute": re.compile(r"\sstyle\s*=", re.I),
    "a <style> element": re.compile(r"<style[\s>]", re.I),
    "a javascript: URL": re.compile(r"javascript:", re.I),
}


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_template_needs_what_the_policy_forbids(template: Path):
    text = template.read_text(encoding="utf-8")
    found = [what for what, pattern in INLINE.items() if pattern.search(text)]
    assert not found, f"{template.relative_to(ROOT)} has {', '.join(found)}"


def test_htmx_is_configured_to_add_nothing_the_policy_blocks(client):
    """No indicator <style>, no eval, and no "style" attribute settled onto swapped elements
    (htmx copies one from the old element, and the policy blocks it: a CI run saw it)."""
    from html import unescape

    page = client.get("/").content.decode()
    config = json.loads(unescape(re.search(r'<meta name="htmx-config" content=\'([^\']*)\'', page).group(1)))
    assert config["includeIndicatorStyles"] is False and config["allowEval"] is False
    assert "style" not in config["attributesToSettle"] and "class" in config["attributesToSettle"]
    assert "htmx must" not in page  # the template's note stays a comment
