"""A phone steps through a finished table's replay with keys, buttons and the slider,
switches whose view it sees, and verifies the deal in the browser, offline: the check is
the page's own (WebCrypto), on what it fetched when it opened, never the server's word."""
import json
import random

import pytest
from playwright.sync_api import expect

from tests.api.test_e2e_serve import http, play_to_the_end
from tests.support.browser import horizontal_overflow, shoot

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
    return int(page.locator("#replay-step").get_attribute("data-moment"))


def test_a_phone_steps_a_replay_with_keys_and_the_slider(live_site, context_factory, finished_table):
    page = context_factory(viewport=PHONE, has_touch=True).new_page()
    page.goto(f"{live_site}/tables/{finished_table['id']}/replay/")
    moments = page.locator("#replay-page").get_attribute("data-moments").split(",")
    assert moments[-1] == str(len(finished_table["actions"]) + 1)
    last = len(moments) - 1
    slider = page.locator("#replay-slider")
    expect(slider).to_have_attribute("max", str(last))
    assert shown_version(page) == 0 and horizontal_overflow(page) <= 0
    assert page.locator("#replay-what li").all_inner_texts() == ["The cards are dealt."]

    page.locator("body").press("ArrowRight")
    expect(page.locator("#replay-step")).to_have_attribute("data-moment", "1")
    assert f"v={moments[1]}" in page.url  # the address names the version, linkable as before
    page.locator("body").press("End")
    expect(page.locator("#replay-step")).to_have_attribute("data-moment", str(last))
    expect(page.locator("#replay-position")).to_have_text(f"{last}/{last}")
    page.locator("body").press("ArrowLeft")
    expect(page.locator("#replay-step")).to_have_attribute("data-moment", str(last - 1))

    # The slider, by a tap a quarter of the way along, then by its own arrow keys.
    box = slider.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] * 0.25, box["y"] + box["height"] / 2)
    expect(page.locator("#replay-step")).not_to_have_attribute("data-moment", str(last - 1))
    tapped = shown_version(page)
    assert 0 < tapped < last // 2 + 2
    assert slider.input_value() == str(tapped)
    slider.focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-step")).to_have_attribute("data-moment", str(tapped + 1))
    assert f"v={moments[tapped + 1]}" in page.url  # the moment is linkable

    # Rounds: Home, then Page Down to the second round's start (Snout! has several).
    page.locator("body").press("Home")
    expect(page.locator("#replay-step")).to_have_attribute("data-moment", "0")
    page.locator("body").press("PageDown")
    expect(page.locator("#replay-step")).not_to_have_attribute("data-moment", "0")
    rounds = [int(start) for start in page.locator("#replay-page").get_attribute("data-rounds").split(",")]
    assert shown_version(page) == rounds[1]
    page.get_by_role("button", name="Round start, back").click()
    expect(page.locator("#replay-step")).to_have_attribute("data-moment", "0")

    # Play at the fastest speed, then pause.
    page.select_option("#replay-speed", "200")
    page.get_by_role("button", name="Play", exact=True).click()
    expect(page.locator("#replay-step")).not_to_have_attribute("data-moment", "0")
    page.get_by_role("button", name="Pause", exact=True).click()
    paused = slider.input_value()  # a move already asked for still arrives; none after it
    expect(page.locator("#replay-step")).to_have_attribute("data-moment", paused)
    page.wait_for_timeout(600)  # time under test: three steps' worth at 200 ms, and nothing moves
    assert slider.input_value() == paused and shown_version(page) == int(paused)

    # One seat's view: the turn line is said alike to everyone, never "Your".
    page.select_option("#replay-view", "0")
    expect(page.locator("#replay-step .replay-hands")).to_have_count(0)
    assert not {"your", "you"} & set(page.locator("#table-turn").inner_text().lower().replace("’", " ").split())
    page.select_option("#replay-view", "all")
    expect(page.locator("#replay-step .replay-hands")).to_have_count(1)
    # The Show select's chosen text fits inside it on the phone.
    assert page.evaluate("() => { const s = document.getElementById('replay-view'); "
                         "return s.getBoundingClientRect().right <= document.documentElement.clientWidth; }")
    assert horizontal_overflow(page) <= 0


def open_until_ready(page, url: str) -> None:
    """The replay page, once it holds what Verify checks (fetched as it opened)."""
    page.goto(url)
    expect(page.locator("#replay-verify")).to_have_attribute("data-ready", "true")


def test_the_deal_verifies_in_the_browser_with_the_server_unreachable(live_site, context_factory, finished_table):
    context = context_factory(viewport=PHONE, has_touch=True)
    page = context.new_page()
    open_until_ready(page, f"{live_site}/tables/{finished_table['id']}/replay/")
    asked = []
    page.route("**/*", lambda route: (asked.append(route.request.url), route.abort()))
    context.set_offline(True)
    page.get_by_role("button", name="Verify this table").click()
    verdict = page.locator("#replay-verdict")
    expect(verdict).to_contain_text("This deal was fair")
    expect(verdict.locator("li.is-ok")).to_have_count(3)
    expect(verdict.locator("li.is-bad")).to_have_count(0)
    text = verdict.inner_text()
    assert str(finished_table["seed"]) in text and "1 player's own random salt" in text
    assert f"each of the {len(finished_table['actions'])} logged actions" in text
    assert "{" not in text and "ranks" not in text  # sentences, not Python dicts
    assert asked == [], "the check asked the server"
    context.set_offline(False)
    shoot(page, "replay-verified-phone", near="#replay-verdict")


def tampered(change):
    """A route handler that answers the proof with ``change`` made to it."""
    def handle(route):
        proof = json.loads(route.fetch().text())
        change(proof)
        route.fulfill(status=200, content_type="application/json", body=json.dumps(proof))
    return handle


def test_a_forged_seed_or_state_fails_in_plain_words(live_site, context_factory, finished_table):
    url = f"{live_site}/tables/{finished_table['id']}/replay/"
    page = context_factory().new_page()
    page.route("**/replay/proof/", tampered(lambda proof: proof.update(seed=proof["seed"] + 1)))
    open_until_ready(page, url)
    page.get_by_role("button", name="Verify this table").click()
    expect(page.locator("#replay-verdict")).to_contain_text(
        "This table does NOT verify: The seed revealed now does not match the commitment shown at the start")

    page = context_factory().new_page()
    page.route("**/replay/proof/", tampered(lambda proof: proof["versions"][4]["state"].update(forged=1)))
    open_until_ready(page, url)
    page.get_by_role("button", name="Verify this table").click()
    moments = [int(v) for v in page.locator("#replay-page").get_attribute("data-moments").split(",")]
    move = next(index for index, version in enumerate(moments) if version >= 6)
    expect(page.locator("#replay-verdict")).to_contain_text(f"Move {move} is not the move that was played")
    expect(page.locator("#replay-verdict li.is-bad")).to_have_count(1)
