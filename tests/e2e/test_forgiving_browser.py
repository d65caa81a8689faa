"""Timeouts that forgive, Oink!'s countdown, and Leave, in Chromium at 390x844 and 1280x800
(docs/rules/timeouts.md).

- An Oink! player who lets one flip run out keeps the seat: the card is flipped for them, a
  notice over the top of the screen says so (in the viewport) with "I'm here", and after
  playing on to the end they are not rated as having left. Meanwhile the countdown shows
  only while the flip button is there, and the cries never move as it comes and goes.
- Leave asks first, saying what it costs, and then frees the seat: a bot plays on and the
  player watches. By touch on a phone, by keyboard on a desktop.

The flip timer runs in real time here (time itself is under test); every wait is for a fact
on the page. Screenshots go to PIGPARLOR_SCREENSHOTS (default /tmp/pigparlor-screenshots).
"""
from __future__ import annotations

import os
import re
import tempfile
import time
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.games.oink.helpers import near_the_end
from tests.support.browser import horizontal_overflow, sign_up, wait_for_first_frame, wait_for_table_page

pytestmark = pytest.mark.browser
VIEWPORTS = {"390": {"width": 390, "height": 844}, "1280": {"width": 1280, "height": 800}}
SHOTS = Path(os.environ.get("PIGPARLOR_SCREENSHOTS", Path(tempfile.gettempdir()) / "pigparlor-screenshots"))
LIMIT_S = 120

# At every frame the page swaps in: where the cries are, whether the flip button and the
# turn's countdown are there, and whose turn the bar says it is.
RECORD = """document.addEventListener("DOMContentLoaded", function () {
  window.okFrames = [];
  document.body.addEventListener("htmx:wsAfterMessage", function () {
    var cries = document.getElementById("ok-cries");
    if (!cries || cries.hidden) { return; }
    window.okFrames.push({top: cries.getBoundingClientRect().top + window.scrollY,
                          flip: document.querySelector("#ok-prompt .ok-flip button") !== null,
                          countdown: document.querySelector("#table-turn .countdown") !== null,
                          yours: /^Your turn/.test(document.getElementById("table-turn").innerText.trim())});
  });
});"""
IN_VIEW = """(selector) => { const box = document.querySelector(selector).getBoundingClientRect();
  return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight && box.left >= 0
         && box.right <= window.innerWidth; }"""


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), timeout=60_000)  # a loaded machine: seconds


def new_context(context_factory, width: str):
    phone = width == "390"
    return context_factory(viewport=VIEWPORTS[width], is_mobile=phone, has_touch=phone)


def table_id_of(page) -> int:
    return int(re.search(r"/tables/(\d+)/", page.url).group(1))


def oink_against_a_bot(page, base_url) -> int:
    page.goto(f"{base_url}/games/oink/")
    page.select_option("select[name=seats]", "2")
    page.fill("input[name=bots]", "1")
    page.fill("input[name=opt_reveal_gap_ms]", "500")
    page.fill("input[name=opt_turn_seconds]", "2")
    page.get_by_role("button", name="Create table").click()
    wait_for_table_page(page)
    wait_for_first_frame(page)
    return table_id_of(page)


def flip_to_the_end(page, phone: bool) -> int:
    """Flip whenever the flip button is there (tap, or Space), until the game is over."""
    flips = 0
    deadline = time.monotonic() + LIMIT_S
    while page.locator("#table-status h2").count() == 0:
        assert time.monotonic() < deadline, f"the game did not end within {LIMIT_S} s"
        try:
            page.locator("#ok-prompt .ok-flip button").wait_for(timeout=2_000)
            if phone:
                page.locator("#ok-prompt .ok-flip button").tap(timeout=2_000)
            else:
                page.keyboard.press(" ")
            flips += 1
            page.wait_for_function("() => !document.querySelector('#ok-prompt .ok-flip button')"
                                   " || document.querySelector('#table-status h2')", timeout=5_000)
        except PlaywrightError:
            continue  # no flip of ours yet, or the button was swapped under the tap
    return flips


@pytest.mark.long
@pytest.mark.parametrize("width", VIEWPORTS)
def test_an_oink_player_who_misses_a_flip_keeps_the_seat_and_is_not_rated_last(live_site, context_factory, width):
    phone = width == "390"
    context = new_context(context_factory, width)
    context.add_init_script(RECORD)
    page = context.new_page()
    sign_up(page, live_site)
    table_id = oink_against_a_bot(page, live_site)

    notice = page.locator("#table-notice .seat-notice__box")
    expect(notice).to_contain_text("Time ran out: the game played your turn for you.", timeout=30_000)
    expect(notice).to_contain_text("1 missed in a row")
    page.wait_for_function("() => getComputedStyle(document.getElementById('table-notice')).opacity === '1'")
    assert page.evaluate(IN_VIEW, "#table-notice")
    assert "(out of time)" in page.locator("#table-log").inner_text()
    expect(page.locator("#table-players")).not_to_contain_text("a bot is playing")
    assert horizontal_overflow(page) == 0
    shoot(page, f"oink-missed-flip-{width}")

    page.locator("#table-notice").scroll_into_view_if_needed()
    page.get_by_role("button", name="I’m here").click()
    expect(page.locator("#table-notice")).to_be_empty()

    live_site.edit_state(table_id, near_the_end())  # a few more flips, not ninety
    assert flip_to_the_end(page, phone) > 0
    expect(page.locator("#table-turn")).to_have_text("Game over")
    standings = page.locator("#table-status .standings")
    expect(standings.locator("tbody tr")).to_have_count(2)
    assert "left" not in standings.inner_text()  # nobody left: the missed flip does not count
    expect(page.locator("#table-status .rating-change").first).to_contain_text("→")
    assert "left" not in page.locator("#table-status .rating-note").inner_text()
    shoot(page, f"oink-not-left-{width}")

    frames = page.evaluate("() => window.okFrames")
    assert len(frames) > 10
    tops = [frame["top"] for frame in frames]
    assert max(tops) - min(tops) <= 1, sorted(set(tops))  # the cries never moved
    assert all(frame["countdown"] for frame in frames if frame["flip"])
    assert all(frame["flip"] for frame in frames if frame["yours"] and frame["countdown"])


@pytest.mark.parametrize("width", VIEWPORTS)
def test_leave_asks_what_it_costs_and_then_frees_the_seat(live_site, context_factory, width):
    phone = width == "390"
    page = new_context(context_factory, width).new_page()
    name = sign_up(page, live_site)
    page.goto(f"{live_site}/games/pigpile/")
    page.select_option("select[name=seats]", "3")
    page.fill("input[name=bots]", "2")
    page.get_by_role("button", name="Create table").click()
    wait_for_table_page(page)
    wait_for_first_frame(page)
    table_id = table_id_of(page)
    dialog = page.locator("#leave-dialog")

    opener = page.get_by_role("button", name="Leave table")
    if phone:
        opener.tap()
    else:
        opener.focus()
        page.keyboard.press("Enter")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("A bot plays your seat to the end")
    expect(dialog).to_contain_text("you are rated last at this table")
    assert page.evaluate(IN_VIEW, "#leave-dialog")
    shoot(page, f"leave-confirm-{width}")
    if phone:
        dialog.get_by_role("button", name="Stay").tap()
    else:
        page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page.locator("#table-turn")).not_to_contain_text("You are watching")  # nothing happened

    if phone:
        opener.tap()
        dialog.get_by_role("button", name="Leave the game").tap()
    else:
        opener.focus()
        page.keyboard.press("Enter")
        expect(dialog.get_by_role("button", name="Stay")).to_be_focused()
        page.keyboard.press("Tab")
        expect(dialog.get_by_role("button", name="Leave the game")).to_be_focused()
        page.keyboard.press("Enter")
    page.wait_for_url(f"{live_site}/games/pigpile/")
    expect(page.get_by_text(re.compile(r"You left .+: a bot plays your seat to the end\."))).to_be_visible()

    page.goto(f"{live_site}/tables/{table_id}/")
    expect(page.locator("#table-turn .watching")).to_have_text("You are watching")
    me = page.locator("#table-players .player", has_text=name)
    expect(me).to_contain_text("a bot is playing")
    assert page.get_by_role("button", name="Leave table").count() == 0
    assert page.locator("#table-socket form[ws-send]:not(#chat form) button").count() == 0  # nothing to act on
    shoot(page, f"left-watching-{width}")
