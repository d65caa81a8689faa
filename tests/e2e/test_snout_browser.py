"""A whole Snout! game played by clicking on a phone (390×844) against three bots, with early
Snout! on so every phase shows: the pass picker, tosses, the Snout! window, scored rounds
with every hand shown, the score sheet and its chart, and the final standings."""
import re
import time

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.conftest import horizontal_overflow, sign_up

pytestmark = pytest.mark.browser
IPHONE = {"width": 390, "height": 844}
FINAL = "#table-status h2:has-text('Final standings')"
LIMIT_S = 100


def at_table_page(url: str) -> bool:
    return re.search(r"(?<!lobby)/tables/\d+/$", url) is not None


def version(page) -> int:
    return int(page.locator("#table-version").get_attribute("data-version") or 0)


def answered(page, before: int) -> bool:
    """Wait until the click's version (or an error) comes back; False if it was swapped away."""
    try:
        page.wait_for_function(
            "([before]) => Number(document.querySelector('#table-version').dataset.version) > before"
            " || document.querySelector('#table-error[data-code]') !== null", arg=[before], timeout=10_000)
    except PlaywrightError:
        return False
    return True


def pass_three(page, seen: dict) -> bool:
    """S3 by tapping: three cards other than the preset ones (the oldest pick drops out), then send."""
    fresh = page.locator("#sn-hand .sn-pick[aria-pressed=false]")
    for _ in range(min(3, fresh.count())):
        fresh.first.click()
    assert page.locator("#sn-hand .sn-pick[aria-pressed=true]").count() == 3
    send = page.locator("#sn-hand .sn-pass button")
    assert send.inner_text().startswith("Pass these 3 to ")
    before = version(page)
    send.click()
    seen["passes"] += 1
    return answered(page, before)


def take_a_turn(page, seen: dict) -> bool:
    """Do whatever the page offers; True when a click went out."""
    try:
        if page.locator("#sn-hand .sn-pass").count():
            return pass_three(page, seen)
        buttons = page.locator("#sn-prompt button")
        if buttons.count() == 0:
            return False
        labels = [label.strip() for label in buttons.all_inner_texts()]
        if "Play on" in labels:
            seen["windows"] += 1
            held = page.locator("#sn-hand .card").count()
            choice = labels.index("Play on") if held > 2 else 0  # call Snout! with a small hand
        else:
            choice = 0
        seen[labels[choice].split(" (")[0]] = seen.get(labels[choice].split(" (")[0], 0) + 1
        before = version(page)
        buttons.nth(choice).click(timeout=2_000)
    except PlaywrightError:
        return False  # swapped away by a newer frame: look again
    return answered(page, before)


def test_a_newcomer_plays_a_whole_game_of_snout_on_a_phone(live_site, context_factory):
    page = context_factory(viewport=IPHONE, is_mobile=True, has_touch=True).new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    name = sign_up(page, live_site)
    page.goto(f"{live_site}/games/snout/")
    page.select_option("select[name=seats]", "4")
    page.fill("input[name=bots]", "3")
    page.check("input[name=opt_early_snout]")
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url(at_table_page)
    page.locator("#sn-hand .sn-pick").first.wait_for()
    assert horizontal_overflow(page) == 0
    assert page.locator("#sn-others .sn-seat").count() == 3

    seen = {"passes": 0, "windows": 0}
    deadline = time.monotonic() + LIMIT_S
    while page.locator(FINAL).count() == 0:
        assert time.monotonic() < deadline, f"no final standings within {LIMIT_S} s: {seen}"
        if page.locator("#sn-toss .sn-toss__name").count():
            seen["tossed"] = True
        if not take_a_turn(page, seen):
            page.wait_for_timeout(50)

    assert seen["passes"] >= 1 and seen.get("Toss the pig", 0) >= 1
    assert seen["windows"] >= 1 and seen.get("tossed")
    standings = page.locator("#table-status .standings li")
    assert standings.count() == 4
    assert name in page.locator("#table-status .standings").inner_text()
    assert page.locator("#sn-prompt").inner_text().startswith("Game over: ")
    assert page.locator("#sn-round .sn-hands__row").count() == 4
    rounds = page.locator("#sn-sheet tbody tr").count()
    assert rounds >= 1
    assert page.locator("#sn-sheet polyline").count() == 4
    assert page.locator("#sn-sheet circle").count() == 4 * rounds
    assert name in page.locator("#table-log").inner_text()
    assert horizontal_overflow(page) == 0
    assert errors == []
