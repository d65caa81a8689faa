"""A phone steps through a finished table's replay with keys, buttons and the slider,
switches whose view it sees, and verifies the deal (issue 16)."""
import random

import pytest
from playwright.sync_api import expect

from tests.api.test_e2e_serve import http, play_to_the_end
from tests.support.browser import horizontal_overflow

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def finished_table(live_site):
    """A Snout! table an outside program (with its own salt) and three bots played to the end."""
    token = live_site.manage("api_token", "replay-watcher", "--create")
    status, created = http(live_site, "POST", "/api/tables/", token,
                           {"game": "snout", "seats": 4, "bots": 3, "salt": "program-salt-0001"})
    assert status == 201
    play_to_the_end(live_site, token, created["ws"], random.Random(16))
    status, document = http(live_site, "GET", f"/api/tables/{created['id']}/replay/", token)
    assert status == 200
    return document


def shown_version(page) -> int:
    return int(page.locator("#replay-step").get_attribute("data-version"))


def test_a_phone_steps_a_replay_with_keys_and_the_slider(live_site, context_factory, finished_table):
    last = len(finished_table["actions"]) + 1
    page = context_factory(viewport=PHONE, has_touch=True).new_page()
    page.goto(f"{live_site}/tables/{finished_table['id']}/replay/")
    slider = page.locator("#replay-slider")
    expect(slider).to_have_attribute("max", str(last))
    assert shown_version(page) == 1 and horizontal_overflow(page) <= 0

    page.locator("body").press("ArrowRight")
    expect(page.locator("#replay-step")).to_have_attribute("data-version", "2")
    page.locator("body").press("End")
    expect(page.locator("#replay-step")).to_have_attribute("data-version", str(last))
    expect(page.locator("#replay-position")).to_have_text(f"{last - 1}/{last - 1}")
    page.locator("body").press("ArrowLeft")
    expect(page.locator("#replay-step")).to_have_attribute("data-version", str(last - 1))

    # The slider, by a tap a quarter of the way along, then by its own arrow keys.
    box = slider.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] * 0.25, box["y"] + box["height"] / 2)
    expect(page.locator("#replay-step")).not_to_have_attribute("data-version", str(last - 1))
    tapped = shown_version(page)
    assert 1 < tapped < last // 2 + 2
    assert slider.input_value() == str(tapped)
    slider.focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-step")).to_have_attribute("data-version", str(tapped + 1))
    assert f"v={tapped + 1}" in page.url  # the moment is linkable

    # Rounds: Home, then Page Down to the second round's start (Snout! has several).
    page.locator("body").press("Home")
    expect(page.locator("#replay-step")).to_have_attribute("data-version", "1")
    page.locator("body").press("PageDown")
    expect(page.locator("#replay-step")).not_to_have_attribute("data-version", "1")
    rounds = [int(start) for start in page.locator("#replay-page").get_attribute("data-rounds").split(",")]
    assert shown_version(page) == rounds[1]
    page.get_by_role("button", name="Back to the round's start").click()
    expect(page.locator("#replay-step")).to_have_attribute("data-version", "1")

    # Play at the fastest speed, then pause.
    page.select_option("#replay-speed", "200")
    page.get_by_role("button", name="Play", exact=True).click()
    expect(page.locator("#replay-step")).not_to_have_attribute("data-version", "1")
    page.get_by_role("button", name="Pause", exact=True).click()
    paused = slider.input_value()  # a move already asked for still arrives; none after it
    expect(page.locator("#replay-step")).to_have_attribute("data-version", paused)
    page.wait_for_timeout(600)  # time under test: three steps' worth at 200 ms, and nothing moves
    assert slider.input_value() == paused and shown_version(page) == int(paused)

    # One seat's view, then the verdict.
    page.select_option("#replay-view", "0")
    expect(page.locator("#replay-step .replay-hands")).to_have_count(0)
    page.select_option("#replay-view", "all")
    expect(page.locator("#replay-step .replay-hands")).to_have_count(1)
    page.get_by_role("button", name="Verify this table").click()
    expect(page.locator("#replay-verdict")).to_contain_text("Verified")
    expect(page.locator("#replay-verdict li.is-bad")).to_have_count(0)
    assert horizontal_overflow(page) <= 0
    page.screenshot(path="/tmp/replay-e2e-phone.png")
