"""Issue 9 item 11 in Chromium: every kind of page loads under the Content Security Policy with no
violation, and the sockets it allows ('self') still connect. (Every other browser test checks the
policy too, through ``context_factory``; this one makes sure each page is visited.)"""
import json

import pytest

from games.core.registry import all_games
from tests.support.browser import PASSWORD, create_table_by_api, fresh_name, sign_up, wait_for_table_page
from tests.support.mfa import enrol_on_site, totp_code

pytestmark = pytest.mark.browser
GAMES = {game.slug: game.engine.min_seats for game in all_games()}


def visit(page, url: str, csp_violations: list[str]) -> None:
    before = len(csp_violations)
    response = page.goto(url)
    assert response.ok, f"{url}: {response.status}"
    page.wait_for_load_state("load")
    assert csp_violations[before:] == [], url


def socket_connected(page, status_selector: str) -> None:
    page.wait_for_function(f"() => document.querySelector({json.dumps(status_selector)}).textContent === ''")


def test_public_pages_load_without_violations(live_site, page, csp_violations):
    for path in ["/", "/accounts/login/", "/accounts/signup/", "/offline/", "/admin/login/",
                 *(f"/games/{slug}/" for slug in GAMES), *(f"/games/{slug}/rules/" for slug in GAMES)]:
        visit(page, f"{live_site}{path}", csp_violations)
    assert page.goto(f"{live_site}/no-such-page/").status == 404
    page.wait_for_load_state("load")
    assert csp_violations == []


def test_signed_in_pages_and_a_live_table_of_each_game_load_without_violations(live_site, page, csp_violations):
    name = sign_up(page, live_site)
    token = live_site.manage("api_token", name, "--create")
    visit(page, f"{live_site}/profile/", csp_violations)
    for slug, seats in GAMES.items():
        visit(page, f"{live_site}/games/{slug}/", csp_violations)
        page.locator("#open-tables").wait_for(state="attached")
        table_id = create_table_by_api(live_site, token, slug, seats, seats - 1)
        visit(page, f"{live_site}/tables/{table_id}/", csp_violations)
        socket_connected(page, "#table-connection")
        page.locator("#table-log li").first.wait_for()
    waiting = create_table_by_api(live_site, token, "pigpile", 4, 1)
    visit(page, f"{live_site}/lobby/tables/{waiting}/", csp_violations)
    page.get_by_role("button", name="Start now with 2 bots").click()
    wait_for_table_page(page)  # site.js follows the room socket's "the cards are dealt" link
    assert page.url == f"{live_site}/tables/{waiting}/"
    socket_connected(page, "#table-connection")
    assert csp_violations == []


def test_admin_pages_load_without_violations(live_site, page, csp_violations):
    boss = fresh_name("boss")
    live_site.manage("shell", "-c", "from django.contrib.auth import get_user_model; "
                     f"get_user_model().objects.create_superuser({boss!r}, password={PASSWORD!r})")
    secret = enrol_on_site(live_site, boss)  # the admin lets staff in only with a second factor
    # The admin's log-in page is the site's, then the code from the authenticator app.
    visit(page, f"{live_site}/admin/login/", csp_violations)
    page.fill("input[name=login]", boss)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_site}/accounts/2fa/authenticate/")
    page.fill("input[name=code]", totp_code(secret))
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_site}/admin/")
    user_id = live_site.manage("shell", "-c", "from django.contrib.auth import get_user_model; "
                               f"print(get_user_model().objects.get(username={boss!r}).pk)")
    for path in ["/admin/", "/admin/auth/user/", f"/admin/auth/user/{user_id}/change/", "/admin/auth/user/add/",
                 "/admin/tables/table/", "/admin/axes/accessattempt/", "/admin/password_change/"]:
        visit(page, f"{live_site}{path}", csp_violations)
    assert csp_violations == []
