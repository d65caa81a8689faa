"""A server restart in the middle of a game (issue 9, item 12): the page says it
is reconnecting while the server is down, comes back on its own within a few
seconds' back-off, and carries on from the database. A socket the server
closed for good (the session ended, a cap) says so instead of "reconnecting"."""
import sqlite3
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.conftest import start_site, stop_site
from tests.support.browser import PHONE, sign_up, wait_for_table_page

SIGNED_OUT = "You are signed out here: this page no longer updates. Log in and reload it."

pytestmark = pytest.mark.browser


def test_the_table_page_reconnects_after_the_server_restarts(context_factory):
    with tempfile.TemporaryDirectory(prefix="pigparlor-restart-") as directory:
        site = start_site(Path(directory))
        try:
            page = context_factory(viewport=PHONE).new_page()
            sign_up(page, site)
            page.goto(f"{site}/games/pigpile/")
            page.select_option("select[name=seats]", "3")
            page.get_by_role("button", name="Create table").click()
            page.wait_for_url("**/lobby/tables/*/")
            page.get_by_role("button", name="Start now with 2 bots").click()
            wait_for_table_page(page)
            status = page.locator("#table-connection")
            expect(status).to_have_text("")
            delays = page.evaluate("[0, 1, 2, 3, 6, 20].map(n => htmx.config.wsReconnectDelay(n))")
            assert all(0 < delay <= 3000 for delay in delays), delays
            version = page.locator("#table-version").get_attribute("data-version")

            stop_site(site)
            expect(status).to_have_text("Connection lost — reconnecting…")
            site = start_site(Path(directory), port=int(site.rsplit(":", 1)[1]))
            expect(status).to_have_text("", timeout=20_000)
            page.wait_for_function(f"() => Number(document.getElementById('table-version').dataset.version) >= {version}")
            assert page.locator("#table-page.is-offline").count() == 0
        finally:
            stop_site(site)


# Each socket area the page opens (htmx's ws extension), by address: a fact in the page.
NOTE_OPENED = """document.addEventListener("htmx:wsOpen", function (event) {
  window.__opened = (window.__opened || []).concat([event.detail.elt.getAttribute("ws-connect") || ""]); });"""


def player_sockets(site, username: str) -> int:
    with sqlite3.connect(site.db_path, timeout=30) as db:
        return db.execute("SELECT count(*) FROM tables_presence p JOIN auth_user u ON u.id = p.user_id "
                          "WHERE p.kind = 'player' AND u.username = ?", (username,)).fetchone()[0]


def test_a_page_whose_session_ended_in_another_tab_says_so(live_site, context_factory):
    context = context_factory(viewport=PHONE)
    context.add_init_script(NOTE_OPENED)
    page = context.new_page()
    name = sign_up(page, live_site)
    page.goto(f"{live_site}/games/pigpile/")
    # The page's player socket is open: the server wrote its presence row before accepting it.
    page.wait_for_function("() => (window.__opened || []).some(url => url.includes('/ws/player/'))")
    assert player_sockets(live_site, name) == 1
    other = context.new_page()
    other.goto(f"{live_site}/")
    with other.expect_navigation():  # the header's Log out form (behind a menu on a phone)
        other.evaluate("document.querySelector('.site-nav__logout form').submit()")
    expect(page.locator(".socket-banner")).to_have_text(SIGNED_OUT)
    assert page.locator(".socket-banner").get_attribute("role") == "status"
