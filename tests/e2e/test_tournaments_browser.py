"""The phone browser test of issue 12: on a 360 px phone a player registers
and checks in on the tournament's page, is sent to their table at the start
(and sees "your table is ready" on another page), and the bracket updates
after the game without a reload. The other players, and the player's own
moves, are programs on the JSON protocol (tests/tournaments/programs.py).

Time is driven, not waited on: the tournament is made to start in 5 minutes
(check-in is open in the last 10), and once everyone has checked in its
``starts_at`` is moved to 2 seconds from now; the server's clock does the rest.
Set PIGPARLOR_SCREENSHOTS=<dir> to keep screenshots of each step.
"""
import re
import threading

from playwright.sync_api import expect

from tests.api.test_e2e_serve import http
from tests.support.browser import PHONE, horizontal_overflow, shoot, sign_up, wait_for_table_page
from tests.tournaments.programs import finish, iso_in, make_accounts, play_from_the_start, token_for


def test_a_phone_player_registers_checks_in_is_sent_to_the_table_and_sees_the_bracket_move(
        live_site, context_factory):
    staff, others = make_accounts(live_site, 3)
    phone = context_factory(viewport=PHONE, is_mobile=True, has_touch=True)
    page = phone.new_page()
    me = sign_up(page, live_site)
    status, created = http(live_site, "POST", "/api/tournaments/", staff, {
        "name": "Phone cup", "starts_at": iso_in(300), "capacity": {"min": 4, "max": 4}, "rated": True,
        "stages": [{"game": "piggypiggy", "format": "elimination", "table_size": 2, "advance": 1}]})
    assert status == 201, created
    tournament_id = created["id"]
    detail_path = f"/tournaments/{tournament_id}/"

    # The list, from the site's navigation: upcoming, with a live countdown.
    page.get_by_role("link", name="Tournaments").click()
    card = page.locator(f'.t-card[data-tournament="{tournament_id}"]')
    expect(card.locator(".t-countdown")).to_have_text(re.compile(r"in [45]:\d\d"))
    assert horizontal_overflow(page) == 0
    shoot(page, "tourneyui-list-phone")
    card.get_by_role("link", name="Phone cup").click()
    expect(page).to_have_url(f"{live_site}{detail_path}")

    # Register, then check in: real taps on the forms.
    page.get_by_role("button", name="Register").tap()
    expect(page.locator(".messages")).to_contain_text("You are registered")
    page.get_by_role("button", name="Check in").tap()
    expect(page.locator("#t-me")).to_contain_text("You are in. At the start this page takes you to your table.")
    expect(page.locator("#t-board .t-players")).to_contain_text("1 checked in")
    assert horizontal_overflow(page) == 0
    shoot(page, "tourneyui-checked-in-phone")

    for _username, token in others:
        assert http(live_site, "POST", f"/api/tournaments/{tournament_id}/register/", token)[0] == 200
        assert http(live_site, "POST", f"/api/tournaments/{tournament_id}/checkin/", token)[0] == 200
    # The page heard every check-in without a reload.
    expect(page.locator("#t-board .t-players")).to_contain_text("4 checked in")
    expect(page.locator("#t-announce")).to_have_text("4 registered, 4 checked in.")

    # Another page of the same player, elsewhere on the site, and a phone spectator on the bracket.
    elsewhere = phone.new_page()
    elsewhere.goto(f"{live_site}/")
    watcher = context_factory(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    watcher.goto(f"{live_site}{detail_path}")
    watcher.evaluate("() => { window.stillTheSamePage = true; }")

    my_token = token_for(live_site, me)
    # The player's own moves wait until the banner was seen: the programs play fast, and
    # a table already over shows no banner (a full run once found it so).
    looked = threading.Event()
    programs = play_from_the_start(live_site, tournament_id, [*others, (me, my_token)], held=me, hold=looked)

    # At the start the tournament page takes the player to their table...
    wait_for_table_page(page)
    first_table = int(re.search(r"/tables/(\d+)/$", page.url).group(1))
    status, mine = http(live_site, "GET", f"/api/tournaments/{tournament_id}/me/", my_token)
    assert status == 200 and mine["table"] == first_table, mine
    shoot(page, "tourneyui-table-phone")
    # ...and any other page of theirs shows the banner with the way there.
    banner = elsewhere.locator("#table-ready .ready-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Your table is ready")
    expect(banner.get_by_role("link", name="Go to your table")).to_have_attribute("href", f"/tables/{first_table}/")
    shoot(elsewhere, "tourneyui-banner-phone")
    # The table's own page does not nag about itself.
    expect(page.locator(f'.ready-banner[data-table-path="/tables/{first_table}/"]')).to_have_count(0)
    looked.set()

    # The spectator's bracket follows the games: round 1's results and who went on, then the final.
    round_one = watcher.locator(".t-round").first
    expect(round_one).to_contain_text("Round 1", timeout=120_000)
    expect(round_one.locator("h4 .badge")).to_have_text("done", timeout=300_000)
    expect(round_one.locator(".tag--ok")).to_have_count(2)
    expect(round_one.locator(".tag--out")).to_have_count(2)
    expect(watcher.locator("#t-standings-heading")).to_have_text("Final standings", timeout=300_000)
    assert watcher.evaluate("() => window.stillTheSamePage") is True
    assert horizontal_overflow(watcher) == 0
    shoot(watcher, "tourneyui-finished-phone")
    finish(programs, live_site)

    status, result = http(live_site, "GET", f"/api/tournaments/{tournament_id}/", my_token)
    assert status == 200 and result["status"] == "finished"
    place = next(row["place"] for row in result["standings"] if row["username"] == me)
    assert [row["place"] for row in result["standings"]] == [1, 2, 3, 3]
    page.goto(f"{live_site}{detail_path}")
    words = {1: "1st", 2: "2nd", 3: "3rd"}[place]
    expect(page.locator("#t-me")).to_contain_text(f"You placed {words}.")
    # The first table's result is in the bracket: its winner went on.
    table_card = page.locator(f'.t-table[data-table="{first_table}"]')
    expect(table_card.locator(".t-table__status")).to_have_text("finished")
    expect(table_card.locator(".t-seat.went-on")).to_have_count(1)
    page.goto(f"{live_site}/profile/")
    expect(page.locator("#tournament-history + .table-wrap")).to_contain_text(f"{words} of 4")
