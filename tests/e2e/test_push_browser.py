"""The installed app in Chromium: a pushed payload shown by the service worker and opening its page,
the permission prompt only on the button, the install button, the iOS hint, sharing an invite link."""
from __future__ import annotations

import json

import pytest
import requests
from playwright.sync_api import expect

from tests.support.browser import sign_up

pytestmark = pytest.mark.browser


def running_table(live_site, username) -> int:
    """A running Pig Pile table of ``username`` against a bot, made through the JSON API."""
    token = live_site.manage("api_token", username)
    answer = requests.post(f"{live_site}/api/tables/", json={"game": "pigpile", "seats": 3, "bots": 2},
                           headers={"Authorization": f"Bearer {token}"}, timeout=30)
    assert answer.status_code == 201, answer.text
    return answer.json()["id"]


def registration_id(page, session, live_site) -> str:
    found = {}
    session.on("ServiceWorker.workerRegistrationUpdated",
               lambda event: found.update({r["scopeURL"]: r["registrationId"] for r in event["registrations"]}))
    session.send("ServiceWorker.enable")
    for _ in range(100):
        if f"{live_site}/" in found:
            return found[f"{live_site}/"]
        page.wait_for_timeout(50)  # lets Playwright deliver the session's events
    raise AssertionError(f"no service worker registration for {live_site}/: {found}")


SHOWN = """async () => (await (await navigator.serviceWorker.ready).getNotifications())
    .map(n => ({title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url}))"""


def test_a_pushed_notification_is_shown_and_opens_its_table(live_site, context_factory):
    context = context_factory(viewport={"width": 390, "height": 844}, permissions=["notifications"])
    page = context.new_page()
    username = sign_up(page, live_site)
    table_id = running_table(live_site, username)
    page.goto(f"{live_site}/your-tables/")
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()
    assert page.evaluate("Boolean(navigator.serviceWorker.controller)")
    session = context.new_cdp_session(page)
    payload = {"kind": "turn", "title": "Your turn — Pig Pile", "body": f"Table {table_id} is waiting on you.",
               "url": f"/tables/{table_id}/", "tag": f"turn-{table_id}", "badge": 1}
    registration = registration_id(page, session, live_site)
    shown = []
    # On a loaded machine (a full run on two cores) a push delivered by the dev tools
    # was once not shown within 5 s: deliver again then (the same tag replaces, never adds).
    for _attempt in range(3):
        session.send("ServiceWorker.deliverPushMessage", {
            "origin": live_site, "registrationId": registration, "data": json.dumps(payload)})
        for _ in range(100):
            shown = page.evaluate(SHOWN)
            if shown:
                break
            page.wait_for_timeout(50)
        if shown:
            break
    assert shown == [{"title": "Your turn — Pig Pile", "body": f"Table {table_id} is waiting on you.",
                      "tag": f"turn-{table_id}", "url": f"{live_site}/tables/{table_id}/"}]
    # Headless Chromium has no notification to click: the worker gets the click event it would send.
    worker = context.service_workers[0]
    worker.evaluate("""async () => {
        const [notification] = await self.registration.getNotifications();
        self.dispatchEvent(new NotificationEvent("notificationclick", {notification}));
    }""")
    expect(page).to_have_url(f"{live_site}/tables/{table_id}/")
    page.screenshot(path="/tmp/push-clicked-390.png")
    assert page.evaluate(SHOWN) == [], "the clicked notification is closed"


def test_the_permission_prompt_waits_for_the_button(live_site, context_factory):
    context = context_factory(viewport={"width": 390, "height": 844})
    context.add_init_script("""window.__asked = 0;
        Notification.requestPermission = () => { window.__asked += 1; return Promise.resolve("denied"); };""")
    page = context.new_page()
    sign_up(page, live_site)
    page.goto(f"{live_site}/profile/")
    expect(page.locator("#push-status")).to_have_text("Notifications are off for this device.")
    assert page.evaluate("window.__asked") == 0, "no prompt on arrival"
    page.screenshot(path="/tmp/push-profile-390.png", full_page=True)
    page.get_by_role("button", name="Turn on for this device").click()
    expect(page.locator("#push-status")).to_contain_text("Notifications are still off")
    assert page.evaluate("window.__asked") == 1


OFFER = """() => {
    const offer = new Event("beforeinstallprompt", {cancelable: true});
    offer.prompt = () => { window.__prompted = true; return Promise.resolve(); };
    offer.userChoice = Promise.resolve({outcome: "accepted"});
    window.dispatchEvent(offer);
}"""


def test_the_install_button_uses_the_browsers_prompt(live_site, context_factory):
    page = context_factory().new_page()
    page.goto(f"{live_site}/")
    install = page.get_by_role("button", name="Install app")
    expect(install).to_be_hidden()
    page.evaluate(OFFER)
    expect(install).to_be_visible()
    page.screenshot(path="/tmp/push-install-offer-1280.png")
    install.click()
    assert page.evaluate("window.__prompted") is True
    expect(install).to_be_hidden()
    # "Not now" is remembered on this device: the next offer stays quiet.
    page.reload()
    page.evaluate(OFFER)
    expect(install).to_be_visible()
    page.get_by_role("button", name="Not now").click()
    expect(install).to_be_hidden()
    page.reload()
    page.evaluate(OFFER)
    expect(install).to_be_hidden()


def test_ios_safari_gets_the_add_to_home_screen_hint(live_site, context_factory):
    iphone = ("Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 "
              "(KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1")
    page = context_factory(viewport={"width": 390, "height": 844}, user_agent=iphone).new_page()
    page.goto(f"{live_site}/")
    hint = page.locator("[data-ios-install]")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("Add to Home Screen")
    page.screenshot(path="/tmp/push-ios-hint-390.png")
    hint.get_by_role("button", name="Close").click()
    expect(hint).to_be_hidden()
    page.reload()
    expect(hint).to_be_hidden()


def private_room(page, live_site) -> None:
    page.goto(f"{live_site}/games/pigpile/new/")
    page.check("input[name=private]")
    page.click("main form button[type=submit]")
    page.wait_for_url("**/lobby/tables/*/")


def test_an_invite_link_is_shared_where_the_browser_can(live_site, context_factory):
    context = context_factory(viewport={"width": 390, "height": 844})
    context.add_init_script("""navigator.share = (data) => { window.__shared = data; return Promise.resolve(); };""")
    page = context.new_page()
    sign_up(page, live_site)
    private_room(page, live_site)
    share = page.get_by_role("button", name="Share")
    share.click()
    shared = page.evaluate("window.__shared")
    assert shared["url"] == page.input_value("#invite-link") and "/invite/" in shared["url"]
    page.screenshot(path="/tmp/push-room-390.png", full_page=True)


def test_an_invite_link_is_copied_where_it_cannot(live_site, context_factory):
    context = context_factory(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    sign_up(page, live_site)
    private_room(page, live_site)
    assert page.evaluate("'share' in navigator") is False
    page.get_by_role("button", name="Copy").click()
    expect(page.get_by_role("button", name="Copied")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == page.input_value("#invite-link")
