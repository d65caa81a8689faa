"""A player who clicks through a Pig Pile table page: whatever the page offers, the first one.

The page only ever offers legal plays, so clicking the first offered button is
always a legal move; the engine and the version check decide the rest.
"""
from __future__ import annotations

import time

from playwright.sync_api import Error as PlaywrightError

OFFERED = "#pp-prompt button, #pp-me button, #pp-hand button"
FINAL = "#pp-results h2:has-text('Final standings')"


def version(page) -> int:
    return int(page.locator("#table-version").get_attribute("data-version") or 0)


def finished(page) -> bool:
    return page.locator(FINAL).count() > 0


def take_a_turn(page) -> bool:
    """Click the first offered action if there is one; True when a click went out."""
    buttons = page.locator(OFFERED)
    if buttons.count() == 0:
        return False
    before = version(page)
    page.evaluate("document.querySelector('#table-error').removeAttribute('data-code')")
    try:
        buttons.first.click(timeout=2_000)
    except PlaywrightError:
        return False  # swapped away by a newer frame: look again
    try:
        page.wait_for_function(
            "([before]) => Number(document.querySelector('#table-version').dataset.version) > before"
            " || document.querySelector('#table-error[data-code]') !== null",
            arg=[before], timeout=10_000)
    except PlaywrightError:
        return False
    return True


def play_until_finished(pages, limit_s: float = 600, on_click=None) -> int:
    """Let every page click in turn until each shows the final standings; returns the clicks made."""
    clicks = 0
    deadline = time.monotonic() + limit_s
    while not all(finished(page) for page in pages):
        assert time.monotonic() < deadline, f"no final standings after {clicks} clicks"
        moved = False
        for page in pages:
            if not finished(page) and take_a_turn(page):
                clicks += 1
                moved = True
                if on_click:
                    on_click(page, clicks)
        if not moved:
            pages[0].wait_for_timeout(30)
    return clicks
