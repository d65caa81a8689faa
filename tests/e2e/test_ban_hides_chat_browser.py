"""A moderator bans a spammer from the spammer's profile, in Chromium: the spam
disappears at once from another player's open lobby chat (on a phone), and the
profile comes back with the ban in force."""
import pytest
from playwright.sync_api import expect

from tests.support.browser import horizontal_overflow, sign_up
from tests.support.mfa import enrol_on_site

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}


def test_a_ban_from_the_profile_hides_the_spam_in_an_open_lobby(live_site, context_factory):
    spam_page = context_factory().new_page()
    watch_page = context_factory(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    mod_page = context_factory().new_page()
    spammer, _, moderator = sign_up(spam_page, live_site), sign_up(watch_page, live_site), sign_up(mod_page, live_site)
    live_site.manage("moderator", moderator)
    enrol_on_site(live_site, moderator)  # a moderator's powers need two-factor sign-in
    lobby = f"{live_site}/games/snout/"
    for page in (spam_page, watch_page):
        page.goto(lobby)
        expect(page.locator("#chat-lines")).to_be_attached()
    for text in ("cheap chips at example dot com", "CHEAP CHIPS"):
        spam_page.fill("#chat-text", text)
        spam_page.click("#chat-form button[type=submit]")
        expect(watch_page.locator("#chat-lines")).to_contain_text(text)

    mod_page.goto(f"{live_site}/players/{spammer}/")
    panel = mod_page.locator("#moderate")
    panel.locator("form", has_text="Ban").locator("input[name=reason]").fill("chip spam")
    panel.get_by_role("button", name="Ban", exact=True).click()
    expect(mod_page.locator(".messages")).to_contain_text("Ban player:")
    expect(mod_page.locator("#moderate")).to_contain_text("Banned.")
    expect(mod_page.get_by_role("button", name="Lift the ban")).to_be_visible()
    mod_page.screenshot(path="/tmp/mod-ban-profile-desktop.png", full_page=True)

    lines = watch_page.locator("#chat-lines")
    expect(lines).not_to_contain_text("chips", ignore_case=True)
    expect(lines.locator(".chat-line.is-removed")).to_have_count(2)
    assert horizontal_overflow(watch_page) == 0
    watch_page.screenshot(path="/tmp/mod-ban-lobby-390.png", full_page=True)
