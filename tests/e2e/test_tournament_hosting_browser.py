"""A plain player hosts a 6-player Swiss from the pages on a phone: creates
it with the form (a stage added and removed on the way, a bad table size
refused first), registers and checks in with real taps, and plays it to the
end with five others; the tables lead back to the tournament, and the
finished page reads 1st / 2nd / 3rd with the points explained.

The other five are accounts made directly (tests/tournaments/programs.py):
they register and check in over the JSON API, and every player's moves,
the host's too, are programs on the JSON protocol, to play fast. Time is
driven, not waited on: the form sets the start 5 minutes ahead (check-in
open), and once everyone has checked in ``starts_at`` is moved 2 seconds
ahead; the server's clock does the rest.
"""
import re
import threading

from playwright.sync_api import expect

from pigparlor.tournaments.pages import ordinal
from tests.api.test_e2e_serve import http
from tests.e2e.test_tournaments_browser import shoot
from tests.support.browser import PHONE, horizontal_overflow, sign_up, wait_for_table_page
from tests.tournaments.programs import finish, make_accounts, play_from_the_start, token_for

NAME = "Porch Swiss"


def label(words: str) -> re.Pattern:
    """A field's label as the form writes it ("Name:")."""
    return re.compile(rf"^{re.escape(words)}:?$")
IN_FIVE_MINUTES = """() => { const at = new Date(Date.now() + 5 * 60 * 1000);
  const pad = (n) => String(n).padStart(2, "0");
  return at.getFullYear() + "-" + pad(at.getMonth() + 1) + "-" + pad(at.getDate()) + "T" + pad(at.getHours())
    + ":" + pad(at.getMinutes()); }"""


def test_a_player_creates_fills_and_finishes_a_six_player_swiss_through_the_pages(live_site, context_factory):
    _, others = make_accounts(live_site, 5)
    phone = context_factory(viewport=PHONE, is_mobile=True, has_touch=True)
    page = phone.new_page()
    host = sign_up(page, live_site)

    # From the list to the form.
    page.get_by_role("link", name="Tournaments").click()
    page.get_by_role("link", name="Create a tournament").tap()
    expect(page).to_have_url(f"{live_site}/tournaments/new/")
    expect(page.locator("input[name=time_zone]")).not_to_have_value("")  # the reader's zone, from the script
    page.get_by_label(label("Name")).fill(NAME)
    page.get_by_label(label("Starts")).fill(page.evaluate(IN_FIVE_MINUTES))
    page.get_by_label(label("At least")).fill("6")
    page.get_by_label(label("At most")).fill("6")
    # A second stage, then changed minds: both show the form again and create nothing.
    page.get_by_role("button", name="Add a stage").tap()
    expect(page.locator("#t-stage-2")).to_be_visible()
    page.get_by_role("button", name="Remove stage 2").tap()
    expect(page.locator("#t-stage-2")).to_have_count(0)
    expect(page.get_by_label(label("Name"))).to_have_value(NAME)
    stage = page.locator("#t-stage-1")
    stage.get_by_label(label("Game")).select_option(label="Piggy Piggy")
    stage.get_by_role("radio", name=re.compile(r"^Swiss")).check()
    stage.get_by_label(label("Players per table")).fill("7")
    stage.get_by_label(label("Rounds (Swiss)")).fill("3")
    page.get_by_role("button", name="Create the tournament").tap()
    expect(stage.locator(".t-error")).to_have_text("Stage 1: Piggy Piggy cannot seat 7: it takes 2 to 6 players")
    assert horizontal_overflow(page) == 0
    shoot(page, "create-refused-phone")
    stage.get_by_label(label("Players per table")).fill("2")
    page.get_by_role("button", name="Create the tournament").tap()

    expect(page.locator(".messages")).to_contain_text("Your tournament is open for registration")
    tournament_id = int(re.search(r"/tournaments/(\d+)/$", page.url).group(1))
    detail = f"{live_site}/tournaments/{tournament_id}/"
    expect(page.locator("#t-me")).to_contain_text("You host this tournament")
    expect(page.locator("#t-board .t-status-line")).to_contain_text("casual · 6–6 players")
    page.get_by_role("button", name="Register").tap()
    expect(page.locator(".messages")).to_contain_text("You are registered")
    page.get_by_role("button", name="Check in").tap()
    expect(page.locator("#t-me")).to_contain_text("You are in.")
    for _username, token in others:
        assert http(live_site, "POST", f"/api/tournaments/{tournament_id}/register/", token)[0] == 200
        assert http(live_site, "POST", f"/api/tournaments/{tournament_id}/checkin/", token)[0] == 200
    expect(page.locator("#t-announce")).to_have_text("6 registered, 6 checked in.")
    shoot(page, "hosted-full-phone")

    watcher = context_factory(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    watcher.goto(detail)
    my_token = token_for(live_site, host)
    looked = threading.Event()  # the host's first moves wait until the page is at the table
    programs = play_from_the_start(live_site, tournament_id, [*others, (host, my_token)], held=host, hold=looked)

    # The start sends the host to their first table; when it is over, it leads back.
    wait_for_table_page(page)
    looked.set()
    back = page.get_by_role("link", name=f"Back to {NAME}")
    expect(back).to_be_visible(timeout=300_000)
    expect(page.get_by_role("button", name="Play again")).to_have_count(0)
    shoot(page, "table-over-phone")
    with page.expect_navigation(url=detail):
        back.tap()

    # The bracket and standings follow on the watcher's page to the end.
    expect(watcher.locator("#t-standings-heading")).to_have_text("Final standings", timeout=600_000)
    finish(programs, live_site)
    status, result = http(live_site, "GET", f"/api/tournaments/{tournament_id}/", my_token)
    assert status == 200 and result["status"] == "finished" and len(result["standings"]) == 6

    page.goto(detail)
    board = page.locator("#t-board")
    rounds = board.locator(".t-round h4")
    expect(rounds).to_have_count(3)
    for number in (1, 2, 3):
        expect(rounds.nth(number - 1)).to_contain_text(f"Round {number} of 3 · 3 tables of 2")
    expect(board.locator(".tag--ok", has_text="goes on")).to_have_count(0)
    standings = board.locator(".t-standing")
    expect(standings).to_have_count(6)
    expect(standings.first.locator("td").first).to_have_text("1st")
    expect(board.locator(".t-medal")).not_to_have_count(0)
    expect(standings.first.locator(".t-points__rounds").first).to_have_text(
        re.compile(r"^(1st|2nd)( \(left\))?(, (1st|2nd)( \(left\))?){2}$"))
    expect(board.locator(".t-points-note")).to_contain_text(
        "each table gives 1st 1 · 2nd 0 at a full table of 2")
    place = next(row["place"] for row in result["standings"] if row["username"] == host)
    expect(page.locator("#t-me")).to_contain_text(f"You placed {ordinal(place)}.")
    assert horizontal_overflow(page) == 0
    shoot(page, "hosted-finished-phone")
