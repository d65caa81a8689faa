"""Report → moderator → live closure, in Chromium (issue 13, "Tests"): a player
reports another's chat line from the chat panel; a moderator opens the queue
in the admin, times the player out and closes the table with a reason; both
players' pages show the closure live; the mod log has both rows; the
timed-out player's next message is refused with the time left. Ben plays on a
phone (390 px) and the panel fits it."""
import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.support.browser import horizontal_overflow, sign_up
from tests.support.mfa import enrol_on_site

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}


def api(live_site, token, path, body):
    request = urllib.request.Request(f"{live_site}{path}", data=json.dumps(body).encode(), method="POST",
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(request))


@pytest.mark.long
def test_report_timeout_and_close_reach_the_players_live(live_site, context_factory):
    ana_page = context_factory().new_page()
    ben_page = context_factory(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    mod_page = context_factory().new_page()
    ana, ben, moderator = sign_up(ana_page, live_site), sign_up(ben_page, live_site), sign_up(mod_page, live_site)
    live_site.manage("moderator", moderator)
    mod_page.goto(f"{live_site}/")
    mod_page.locator("#moderate-link").click()  # the site menu's way to the tools: first, two-factor sign-in
    expect(mod_page.locator(".messages")).to_contain_text("Staff and moderators set up two-factor sign-in")
    enrol_on_site(live_site, moderator)
    mod_page.goto(f"{live_site}/")
    mod_page.locator("#moderate-link").click()
    expect(mod_page.locator("#content")).to_contain_text("Live rooms")
    created = api(live_site, live_site.manage("api_token", ana), "/api/tables/",
                  {"game": "pigpile", "seats": 4, "bots": 2, "options": {}})
    api(live_site, live_site.manage("api_token", ben), f"/api/tables/{created['id']}/join/", {})
    table_url = f"{live_site}/tables/{created['id']}/"
    for page in (ana_page, ben_page):
        page.goto(table_url)
        expect(page.locator("#chat-lines")).to_be_attached()
        expect(page.locator("#table-connection")).to_have_text("")  # the socket is open: no line is missed
    expect(ana_page.locator("#moderate-link")).to_have_count(0)

    # Ben says something rude; Ana sees it and reports it from his name in the chat.
    ben_page.get_by_role("button", name=re.compile(r"^Chat")).click()  # a phone folds the chat into a drawer
    ben_page.fill("#chat-text", "you all play like <b>truffle</b> hogs")
    ben_page.click("#chat-form button[type=submit]")
    line = ana_page.locator("#chat-lines .chat-line", has_text="truffle")
    expect(line).to_contain_text("you all play like <b>truffle</b> hogs")  # escaped, shown as typed
    assert horizontal_overflow(ben_page) == 0
    line.locator(".chat-who").click()
    dialog = ana_page.locator("#chat-player")
    expect(dialog).to_be_visible()
    dialog.get_by_label("Abuse in chat").check()
    dialog.get_by_label("Comment (optional)").fill("insults every hand")
    dialog.locator("button", has_text="Report").click()
    expect(ana_page.locator("#chat-notice")).to_have_text("Report received: a moderator will look at it.")

    # The moderator works the queue: time Ben out, then close the table.
    mod_page.goto(f"{live_site}/admin/moderation/report/")
    mod_page.locator("#result_list tbody tr", has_text=ben).locator("th a").first.click()
    expect(mod_page.locator("body")).to_contain_text("insults every hand")
    expect(mod_page.locator("body")).to_contain_text("truffle")
    mod_page.locator("a.button", has_text=f"Time out {ben}").click()
    mod_page.select_option("#id_minutes", "10")
    mod_page.fill("#id_reason", "insults in chat")
    mod_page.click("input[type=submit]")
    mod_page.locator("a.button", has_text="Open the table").click()
    mod_page.click("#close-table")
    mod_page.fill("#id_reason", "abusive chat")
    mod_page.click("input[type=submit]")

    for page in (ana_page, ben_page):
        expect(page.locator("#table-turn")).to_contain_text("closed by a moderator: abusive chat")
        expect(page.locator(".table-closed")).to_contain_text("closed by a moderator: abusive chat")
    expect(ben_page.locator("#chat-status")).to_contain_text("You are timed out of chat until")
    expect(ben_page.locator("#chat-status")).to_contain_text("min left")
    # The end time in the reader's own zone: the page localised it (its UTC fallback is gone).
    expect(ben_page.locator("#chat-status time[data-localized]")).to_have_count(1)
    expect(ben_page.locator("#chat-status")).not_to_contain_text("UTC")
    for page in (ana_page, ben_page):  # the closed table is read-only at once: nothing to press
        expect(page.locator("#pp-prompt")).to_have_text("Play has stopped: this table is closed.")
        expect(page.locator("#table-socket form[ws-send]:not(.chat-form):not(.chat-quick__form):not([data-role])")).to_have_count(0)

    mod_page.goto(f"{live_site}/admin/moderation/modaction/")
    rows = mod_page.locator("#result_list tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Close table")
    expect(rows.nth(0)).to_contain_text("abusive chat")
    expect(rows.nth(1)).to_contain_text("Chat timeout")
    expect(rows.nth(1)).to_contain_text(ben)

    ben_page.fill("#chat-text", "sorry?")
    ben_page.click("#chat-form button[type=submit]")
    error = ben_page.locator("#chat-error")
    expect(error).to_contain_text("timed you out of chat for")
    expect(error).to_contain_text("more minutes")
    expect(ana_page.locator("#chat-lines")).not_to_contain_text("sorry?")
    ben_page.screenshot(path="/tmp/mod-e2e-ben-390.png", full_page=True)
