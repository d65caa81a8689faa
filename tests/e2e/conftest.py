"""Browser fixtures: Debian's Chromium driven by Playwright, headless, never a browser download.

Tests run against the suite's ``live_site`` (``manage.py serve`` in a subprocess
with zero bot think time). ``signed_up`` makes a fresh account through the real
sign-up form so tests never share players. Every browser test also checks the
Content Security Policy: a page that trips it (``csp_violations``) fails the test.
Under that policy ``wait_for_function`` needs a function (``"() => …"``): a bare
expression string is polled through eval, which the policy refuses.
"""
from __future__ import annotations

import itertools
import os
import re
import shutil
import uuid

import pytest

CHROMIUM = os.environ.get("PIGPARLOR_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
PHONE = {"width": 360, "height": 740}
PASSWORD = "snouts-and-trotters-42"
TABLE_PAGE = re.compile(r"(?<!lobby)/tables/\d+/$")
_names = itertools.count()


@pytest.fixture(scope="session")
def playwright():
    if not shutil.which(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: run `make chromium`")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as running:
        yield running


@pytest.fixture(scope="session")
def browser(playwright):
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
    yield chromium
    chromium.close()


# Chromium reports a blocked inline script or style on the console, and fires
# securitypolicyviolation at the document; the latter is echoed to the console too.
REPORT_VIOLATIONS = """document.addEventListener("securitypolicyviolation", function (event) {
  console.error("CSP violation: " + event.violatedDirective + " blocked " + (event.blockedURI || "inline")
                + " at " + event.sourceFile + ":" + event.lineNumber);
});"""


def is_csp_violation(text: str) -> bool:
    return text.startswith("CSP violation:") or "Content Security Policy" in text


@pytest.fixture
def csp_violations() -> list[str]:
    """Every CSP violation (console text, with the page's address) in this test's browser contexts."""
    return []


@pytest.fixture
def context_factory(browser, csp_violations):
    contexts = []

    def make(viewport=None, **kwargs):
        context = browser.new_context(viewport=viewport or {"width": 1280, "height": 800}, **kwargs)
        context.set_default_timeout(15_000)
        context.add_init_script(REPORT_VIOLATIONS)
        context.on("console", lambda message: is_csp_violation(message.text)
                   and csp_violations.append(f"{message.page.url if message.page else '?'}: {message.text}"))
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()
    assert not csp_violations, "the Content Security Policy blocked something:\n" + "\n".join(csp_violations)


@pytest.fixture
def page(context_factory):
    return context_factory().new_page()


def fresh_name(prefix: str = "pig") -> str:
    return f"{prefix}{next(_names)}{uuid.uuid4().hex[:6]}"


def sign_up(page, base_url: str, username: str | None = None) -> str:
    username = username or fresh_name()
    page.goto(f"{base_url}/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base_url}/")
    return username


def horizontal_overflow(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def wait_for_table_page(page) -> None:
    """Wait until the page shows a live table. Polls the address rather than waiting for
    one navigation: leaving the waiting room may navigate twice (the button's redirect
    and the room socket's "the cards are dealt"), and the first one is then aborted."""
    from playwright.sync_api import expect

    expect(page).to_have_url(TABLE_PAGE, timeout=15_000)
    page.wait_for_load_state()
