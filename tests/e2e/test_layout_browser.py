"""Mobile first: no sideways scroll at 360 px, touch targets of 44 px, a keyboard path in."""
import re

import pytest
from playwright.sync_api import expect

from tests.support.browser import PHONE, horizontal_overflow, sign_up, wait_for_table_page

pytestmark = pytest.mark.browser

TARGETS = "main a.button, main button:not(.card), .site-nav a, .site-nav button, main input[type=text], main select"


def small_targets(page) -> list[str]:
    return page.evaluate(f"""() => [...document.querySelectorAll({TARGETS!r})]
        .filter(element => element.offsetParent !== null)
        .map(element => [element.outerHTML.slice(0, 80), element.getBoundingClientRect()])
        .filter(([, box]) => box.height < 44 || box.width < 44)
        .map(([html]) => html)""")


@pytest.fixture
def phone(context_factory, live_site):
    page = context_factory(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    sign_up(page, live_site)
    return page


def test_no_sideways_scroll_and_big_enough_targets_at_360px(live_site, phone):
    for path in ("/", "/games/pigpile/", "/games/pigpile/rules/", "/profile/", "/accounts/password/change/"):
        phone.goto(f"{live_site}{path}")
        assert horizontal_overflow(phone) == 0, path
        assert small_targets(phone) == [], path


def test_no_sideways_scroll_on_the_table_page_at_360px(live_site, phone):
    phone.goto(f"{live_site}/games/pigpile/")
    phone.select_option("select[name=seats]", "6")
    phone.fill("input[name=bots]", "5")
    phone.get_by_role("button", name="Create table").click()
    wait_for_table_page(phone)
    phone.locator("#pp-hand").wait_for()
    assert horizontal_overflow(phone) == 0
    sizes = phone.evaluate("""() => [...document.querySelectorAll('#pp-prompt button, #pp-hand button')]
        .map(button => button.getBoundingClientRect()).map(box => [box.width, box.height])""")
    assert all(width >= 44 and height >= 44 for width, height in sizes), sizes


def test_keyboard_reaches_the_skip_link_first_and_focus_is_visible(live_site, page):
    page.goto(f"{live_site}/")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.className")
    assert focused == "skip-link"
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline == "solid"
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"#main$"))


def test_reduced_motion_turns_animations_off(live_site, context_factory):
    page = context_factory(reduced_motion="reduce").new_page()
    page.goto(f"{live_site}/")
    duration = page.evaluate("getComputedStyle(document.querySelector('.button')).transitionDuration")
    assert float(duration.rstrip("s")) < 0.001
