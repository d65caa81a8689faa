"""Pig Pile played by clicking, as the issue asks: a newcomer against three bots, and two
friends (one on a phone) with two bots who play live while one reloads mid-game. Each
table starts from a short game (the last round, with a short draw pile: the position is set
up as a chess test starts from a FEN), is played by clicking to the final standings — or,
should it run long, left to the bots — and ends there (whole games of five full rounds are
played over the JSON protocol, tests/api)."""
import re

import pytest

from tests.e2e.pigpile_player import FINAL, finished, play_until_finished
from tests.games.pigpile.position import last_round
from tests.support.browser import horizontal_overflow, leave, sign_up, version, wait_for_table_page, wait_until_over

pytestmark = pytest.mark.browser
IPHONE = {"width": 390, "height": 844}


def create_pigpile_table(page, base_url, seats, bots):
    page.goto(f"{base_url}/games/pigpile/")
    page.select_option("select[name=seats]", str(seats))
    page.fill("input[name=bots]", str(bots))
    page.get_by_role("button", name="Create table").click()


# The draw pile the last round keeps: enough turns for the clicks these tests count (over ten
# by the newcomer; twelve by the friends before the reload, which two clicking players reach
# with none: 34-40 clicks in trial runs), a few seconds of play instead of five rounds.
NEWCOMER_DRAW, FRIENDS_DRAW = 16, 0


def short_game(live_site, table_id, pages, draw) -> None:
    """The table just dealt becomes the game's last round with a ``draw``-card draw pile. The
    edit sends no frame, so each page is reloaded to show it (a page left as it was would
    offer moves at the old version, answered "stale", until some frame came)."""
    live_site.edit_state(table_id, last_round(draw=draw))
    for page in pages:
        page.reload()
        page.locator("#pp-hand").wait_for()


@pytest.mark.long
def test_newcomer_plays_pigpile_against_three_bots_to_the_final_standings(live_site, context_factory):
    page = context_factory(viewport={"width": 360, "height": 740}).new_page()
    name = sign_up(page, live_site)
    create_pigpile_table(page, live_site, seats=4, bots=3)
    wait_for_table_page(page)
    page.locator("#pp-hand").wait_for()
    assert horizontal_overflow(page) == 0
    table_id = int(re.search(r"/tables/(\d+)/", page.url).group(1))
    short_game(live_site, table_id, [page], NEWCOMER_DRAW)

    # The game by clicking (every kind of turn comes up: face-up choice, plays, picking up
    # the pile) to the final standings; should it run long, the bots finish it and the
    # newcomer comes back to the final standings.
    clicks = play_until_finished([page], stop_after=80)
    if not finished(page):
        leave(page, table_id)
        wait_until_over(page, live_site, table_id)
        page.goto(f"{live_site}/tables/{table_id}/")
        page.locator(FINAL).wait_for()

    assert clicks > 10
    standings = page.locator("#table-status .standings tbody tr")
    assert standings.count() == 4
    assert name in page.locator("#table-status .standings").inner_text()
    assert horizontal_overflow(page) == 0
    page.goto(f"{live_site}/profile/")
    assert "Pig Pile" in page.locator("#games-played + *").inner_text()


def test_two_friends_and_two_bots_play_live_and_one_reloads_mid_game(live_site, context_factory):
    ana = context_factory().new_page()
    bea = context_factory(viewport=IPHONE, is_mobile=True, has_touch=True).new_page()
    ana_name = sign_up(ana, live_site)
    bea_name = sign_up(bea, live_site)

    create_pigpile_table(ana, live_site, seats=4, bots=2)
    ana.wait_for_url("**/lobby/tables/*/")
    room = ana.url
    bea.goto(room)
    bea.get_by_role("button", name="Take a seat").click()
    wait_for_table_page(bea)
    wait_for_table_page(ana)
    assert ana.url == bea.url
    table_id = int(re.search(r"/tables/(\d+)/", ana.url).group(1))
    short_game(live_site, table_id, [ana, bea], FRIENDS_DRAW)

    seen_live = {"ana": False, "bea": False}
    reloaded = {"done": False}

    def watch(page, clicks):
        """After a click, the other player's page must reach the same version without reloading."""
        other = bea if page is ana else ana
        mine = version(page)
        other.wait_for_function(
            "([v]) => Number(document.querySelector('#table-version').dataset.version) >= v", arg=[mine])
        seen_live["bea" if other is bea else "ana"] = True
        if clicks >= 12 and not reloaded["done"]:
            reloaded["done"] = True
            bea.reload()
            bea.locator("#pp-hand").wait_for()

    # Live play well past the reload.
    play_until_finished([ana, bea], on_click=watch, stop_after=40)

    assert reloaded["done"], "the game ended before the reload"
    assert seen_live == {"ana": True, "bea": True}
    if not all(finished(page) for page in (ana, bea)):
        # Both leave: bots take their seats and finish; the standings still name them.
        for page in (ana, bea):
            leave(page, table_id)
        bea.goto("about:blank")
        wait_until_over(ana, live_site, table_id)
        for page in (ana, bea):
            page.goto(f"{live_site}/tables/{table_id}/")
    for page in (ana, bea):
        page.locator(FINAL).wait_for()
        text = page.locator("#table-status .standings").inner_text()
        assert ana_name in text and bea_name in text
    log = bea.locator("#table-log").inner_text()
    assert ana_name in log
    assert horizontal_overflow(bea) == 0
