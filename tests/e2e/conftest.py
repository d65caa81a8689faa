"""Browser fixtures: Debian's Chromium driven by Playwright, headless, never a browser download.

Tests run against the suite's ``live_site`` (``manage.py serve`` in a subprocess
with zero bot think time). ``signed_up`` makes a fresh account through the real
sign-up form so tests never share players. Every browser test also checks the
Content Security Policy: a page that trips it (``csp_violations``) fails the test.
Under that policy ``wait_for_function`` needs a function (``"() => …"``): a bare
expression string is polled through eval, which the policy refuses.
"""
from __future__ import annotations

import os
import shutil
import signal
import sys
import threading

import pytest

CHROMIUM = os.environ.get("PIGPARLOR_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def playwright():
    """One Playwright per test module, not per session: while it runs, its event loop is
    this thread's running loop, and a test of another kind after it (an xdist worker
    mixes them) would find itself "in an async context": Django refuses the ORM there,
    pytest-asyncio refuses to start its own loop."""
    if not shutil.which(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: run `make chromium`")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as running:
        yield running


# BrowserContext.close() has no timeout. Once, under a loaded full run, Chromium never
# answered it and the run hung for 13 minutes in a passed test's teardown: past this,
# a watchdog kills that Chromium, the close fails instead, and the next test gets a
# fresh browser. A close takes well under a second even under load; one that hangs
# never finishes (a full run once waited the whole 60 s this was): 15 s.
CLOSE_SECONDS = 15


def _chromium_processes() -> list[int]:
    """Chromium's main processes started (through Playwright's driver) by this process."""
    parents, commands = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                parents[int(entry)] = int(stat.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                commands[int(entry)] = cmdline.read().split(b"\0")
        except (OSError, IndexError, ValueError):
            continue

    def descends(pid: int) -> bool:
        for _ in range(8):
            pid = parents.get(pid, 0)
            if pid == os.getpid():
                return True
            if pid <= 1:
                return False
        return False

    return [pid for pid, command in commands.items()
            if command and b"chromium" in command[0] and not any(part.startswith(b"--type=") for part in command)
            and descends(pid)]


class Browser:
    """The module's Chromium, launched again if a stuck close had to kill it."""

    def __init__(self, playwright):
        self.playwright = playwright
        self.chromium = None

    def get(self):
        if self.chromium is None or not self.chromium.is_connected():
            self.chromium = self.playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        return self.chromium

    def close_context(self, context) -> None:
        done = threading.Event()

        def watchdog():
            if done.wait(CLOSE_SECONDS):
                return
            print(f"BrowserContext.close() took over {CLOSE_SECONDS} s: killing Chromium", file=sys.stderr)
            for pid in _chromium_processes():
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass

        threading.Thread(target=watchdog, daemon=True).start()
        try:
            context.close()
        except Exception:
            if self.chromium is not None and self.chromium.is_connected():
                raise  # a real failure, not the watchdog's kill
        finally:
            done.set()

    def close(self) -> None:
        if self.chromium is not None and self.chromium.is_connected():
            self.chromium.close()


@pytest.fixture(scope="module")
def browser(playwright):
    running = Browser(playwright)
    yield running
    running.close()


# Chromium reports a blocked inline script or style on the console, and fires
# securitypolicyviolation at the document; the latter is echoed to the console too.
REPORT_VIOLATIONS = """document.addEventListener("securitypolicyviolation", function (event) {
  console.error("CSP violation: " + event.violatedDirective + " blocked " + (event.blockedURI || "inline")
                + " at " + event.sourceFile + ":" + event.lineNumber);
});"""


# Socket frames the page has swapped in (htmx's events bubble to the document).
COUNT_FRAMES = """document.addEventListener("htmx:wsAfterMessage", function () {
  window.__socketFrames = (window.__socketFrames || 0) + 1; });"""


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
        context = browser.get().new_context(viewport=viewport or {"width": 1280, "height": 800}, **kwargs)
        context.set_default_timeout(15_000)
        context.add_init_script(REPORT_VIOLATIONS)
        context.add_init_script(COUNT_FRAMES)
        context.on("console", lambda message: is_csp_violation(message.text)
                   and csp_violations.append(f"{message.page.url if message.page else '?'}: {message.text}"))
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        browser.close_context(context)
    assert not csp_violations, "the Content Security Policy blocked something:\n" + "\n".join(csp_violations)


@pytest.fixture
def page(context_factory):
    return context_factory().new_page()
