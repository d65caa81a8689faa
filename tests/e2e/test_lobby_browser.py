"""The lobby in a browser: a table created from the form, the live listing, the waiting room."""
import pytest

from tests.support.browser import (
    PHONE,
    note_arrivals,
    post_as_htmx,
    press_down,
    sign_up,
    wait_for_first_frame,
    wait_for_table_page,
)

pytestmark = pytest.mark.browser


def test_create_a_table_and_a_friend_joins_from_the_live_listing(live_site, context_factory):
    host = context_factory(viewport=PHONE).new_page()
    guest = context_factory().new_page()
    sign_up(host, live_site)
    friend = sign_up(guest, live_site)
    guest.goto(f"{live_site}/games/pigpile/")
    guest.wait_for_function("() => document.querySelector('#open-tables') !== null")

    host.goto(f"{live_site}/games/pigpile/")
    host.select_option("select[name=seats]", "3")
    host.fill("input[name=bots]", "1")
    host.fill("input[name=title]", "Mud & <Friends>")
    host.check("input[name=opt_greased_pig_start]")
    host.get_by_role("button", name="Create table").click()
    host.wait_for_url("**/lobby/tables/*/")
    assert host.get_by_role("heading", name="Mud & <Friends>").is_visible()
    assert host.get_by_role("button", name="Start now with 1 bot").is_visible()

    row = guest.locator(".table-list__item", has_text="Mud & <Friends>")
    row.wait_for()
    assert "2 of 3 seated" in row.inner_text()
    assert guest.locator("#lobby-announce").inner_text().startswith("1 open table")
    row.get_by_role("button", name="Join").click()
    wait_for_table_page(guest)
    wait_for_table_page(host)
    assert guest.url == host.url
    assert friend in guest.content()


def test_host_starts_early_with_bots(live_site, page):
    sign_up(page, live_site)
    page.goto(f"{live_site}/games/pigpile/")
    page.select_option("select[name=seats]", "4")
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url("**/lobby/tables/*/")
    wait_for_first_frame(page)  # the room's first frame replaces the button (a click then was lost once)
    page.get_by_role("button", name="Start now with 3 bots").click()
    wait_for_table_page(page)


def test_private_table_invite_link(live_site, context_factory):
    host = context_factory().new_page()
    guest = context_factory().new_page()
    sign_up(host, live_site)
    guest_name = sign_up(guest, live_site)
    host.goto(f"{live_site}/games/pigpile/")
    host.select_option("select[name=seats]", "3")
    host.fill("input[name=title]", "Secret sty")
    host.check("input[name=private]")
    host.get_by_role("button", name="Create table").click()
    host.wait_for_url("**/lobby/tables/*/")
    invite = host.locator("#invite-link").input_value()
    assert "/invite/" in invite

    guest.goto(f"{live_site}/games/pigpile/")
    assert guest.locator(".table-list__item", has_text="Secret sty").count() == 0
    guest.goto(invite)
    guest.get_by_role("button", name="Take a seat").click()
    host.locator(".seat-list__seat", has_text=guest_name).wait_for()
    assert host.locator("#room-announce").inner_text() == "2 of 3 seats taken."


LOBBY_AREA = '[ws-connect^="/ws/lobby/"]'
# The lobby socket's frames shown (the page has the player's socket too).
LOBBY_FRAMES = """document.addEventListener("DOMContentLoaded", function () {
  window.__lobbyShown = 0;
  document.querySelector('AREA').addEventListener("htmx:wsAfterMessage", function () { window.__lobbyShown++; });
});""".replace("AREA", LOBBY_AREA)


def test_a_listing_frame_that_arrives_while_join_is_pressed_waits_for_the_tap(live_site, context_factory):
    """site.js: a listing frame that came between the finger going down on "Join" and up
    replaced the button, the up landed on its twin and the tap was lost (two players
    joining at once). A live area's frames now wait for the press to end (1 s at most)."""
    host, rival = context_factory().new_page(), context_factory().new_page()
    guest_context = context_factory(viewport=PHONE, is_mobile=True, has_touch=True)
    guest_context.add_init_script(LOBBY_FRAMES)
    guest = guest_context.new_page()
    sign_up(host, live_site)
    sign_up(rival, live_site)
    guest_name = sign_up(guest, live_site)
    host.goto(f"{live_site}/games/pigpile/")
    host.select_option("select[name=seats]", "4")
    host.fill("input[name=title]", "Busy sty")
    host.get_by_role("button", name="Create table").click()
    host.wait_for_url("**/lobby/tables/*/")
    table_path = host.url.split(live_site, 1)[1]  # /lobby/tables/N/, the waiting room

    rival.goto(f"{live_site}/games/pigpile/")
    guest.goto(f"{live_site}/games/pigpile/")
    guest.wait_for_function("() => window.__lobbyShown > 0")  # the listing as the socket sends it
    press_down(guest, guest.get_by_role("button", name="Join Busy sty"))
    note_arrivals(guest, LOBBY_AREA, "#lobby-listing")
    # The rival joins first: every lobby page gets the listing anew ("2 of 4 seated").
    assert post_as_htmx(rival, f"{table_path}join/") in (200, 204)
    guest.wait_for_function("() => window.__arrived > 0")
    assert guest.locator("#lobby-listing[data-mark=before]").count() == 1  # the frame waits
    guest.mouse.up()
    guest.wait_for_url(f"**{table_path}")  # the tap landed: the guest is in the waiting room
    host.locator(".seat-list__seat", has_text=guest_name).wait_for()
    assert host.locator("#room-announce").inner_text() == "3 of 4 seats taken."
