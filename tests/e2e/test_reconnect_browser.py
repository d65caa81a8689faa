"""A server restart in the middle of a game (issue 9, item 12): the page says it
is reconnecting while the server is down, comes back on its own within a few
seconds' back-off, and carries on from the database."""
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.conftest import start_site, stop_site
from tests.support.browser import PHONE, sign_up, wait_for_table_page

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
