"""A player who clicks through a Pig Pile table page: whatever the page offers, the first one.

The page only ever offers legal plays, so clicking the first offered button is
always a legal move; the engine and the version check decide the rest. As a player
does it (issue 15): the face-up choice is three taps on hand cards and "Lay … face
up"; a play is a tap on a number's cards, then how many.
"""
from __future__ import annotations

import time

from playwright.sync_api import Error as PlaywrightError

from tests.support.browser import moved_on, version

OFFERED = "#pp-prompt .pp-pickup button, #pp-me .pp-flip button, .pp-pick"
TOGGLES = "#pp-hand .pp-toggle"
CONFIRM = "#pp-prompt .pp-faceup button[type=submit]"
FINAL = "#table-status h3.standings-title"  # plain CSS: moved_on reads it with querySelector


def finished(page) -> bool:
    return page.locator(FINAL).count() > 0


def choose_face_up(page, picks=(0, 1, 2)) -> None:
    """PP1 by taps: the hand cards at ``picks``, then the confirm button. A card this page
    already holds as chosen (an earlier try swapped away under the tap) is not tapped again:
    a second tap would put it back."""
    for index in picks:
        toggle = page.locator(TOGGLES).nth(index)
        if toggle.get_attribute("aria-pressed", timeout=2_000) != "true":
            toggle.click(timeout=2_000)
    page.locator(CONFIRM).click(timeout=2_000)


def tap_and_play(page, pick) -> None:
    """Tap a number's cards, then its first count ("Play a 5"). Counts this page already
    holds open (an earlier try) are not tapped shut again."""
    if pick.get_attribute("aria-expanded", timeout=2_000) != "true":
        pick.click(timeout=2_000)
    panel = page.locator("#" + pick.get_attribute("aria-controls"))
    panel.locator(".pp-count button").first.click(timeout=2_000)


def take_a_turn(page) -> bool | None:
    """Make the first offered play if there is one; True when it went out, None when one was
    offered but the tap missed it (a newer frame swapped it away: look again at once)."""
    choosing = page.locator(CONFIRM).count() > 0 and page.locator(TOGGLES).count() >= 3
    buttons = page.locator(OFFERED)
    if not choosing and buttons.count() == 0:
        return False
    before = version(page)
    page.evaluate("document.querySelector('#table-error').removeAttribute('data-code')")
    try:
        if choosing:
            choose_face_up(page)
        elif "pp-pick" in (buttons.first.get_attribute("class", timeout=2_000) or ""):
            tap_and_play(page, buttons.first)
        else:
            buttons.first.click(timeout=2_000)
    except PlaywrightError:
        return None  # swapped away by a newer frame: look again
    try:
        page.wait_for_function(
            "([before]) => Number(document.querySelector('#table-version').dataset.version) > before"
            " || document.querySelector('#table-error[data-code]') !== null",
            arg=[before], timeout=10_000)
    except PlaywrightError:
        return False
    return True


def play_until_finished(pages, limit_s: float = 600, on_click=None, stop_after: int | None = None) -> int:
    """Let every page click in turn until each shows the final standings (or, with
    ``stop_after``, until that many clicks were made); returns the clicks made."""
    clicks = 0
    deadline = time.monotonic() + limit_s
    while not all(finished(page) for page in pages) and (stop_after is None or clicks < stop_after):
        assert time.monotonic() < deadline, f"no final standings after {clicks} clicks"
        shown = version(pages[0])
        look_again = False
        for page in pages:
            if finished(page):
                continue
            went = take_a_turn(page)
            if went:
                clicks += 1
                if on_click:
                    on_click(page, clicks)
            look_again = look_again or went is not False
        if not look_again:
            moved_on(pages[0], shown, also=FINAL)  # nobody could click: until the table moves on
    return clicks
