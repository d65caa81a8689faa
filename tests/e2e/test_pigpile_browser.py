"""Whole Pig Pile games played by clicking, as the issue asks: a newcomer against three
bots, and two friends (one on a phone) with two bots, one of whom reloads mid-game."""
import pytest

from tests.e2e.conftest import horizontal_overflow, sign_up, wait_for_table_page
from tests.e2e.pigpile_player import FINAL, play_until_finished, version

pytestmark = pytest.mark.browser
IPHONE = {"width": 390, "height": 844}


def create_pigpile_table(page, base_url, seats, bots):
    page.goto(f"{base_url}/games/pigpile/")
    page.select_option("select[name=seats]", str(seats))
    page.fill("input[name=bots]", str(bots))
    page.get_by_role("button", name="Create table").click()


def test_newcomer_plays_pigpile_against_three_bots_to_the_final_standings(live_site, context_factory):
    page = context_factory(viewport={"width": 360, "height": 740}).new_page()
    name = sign_up(page, live_site)
    create_pigpile_table(page, live_site, seats=4, bots=3)
    wait_for_table_page(page)
    page.locator("#pp-hand").wait_for()
    assert horizontal_overflow(page) == 0

    clicks = play_until_finished([page])

    assert clicks > 10
    standings = page.locator(".pp-standings li")
    assert standings.count() == 4
    assert name in page.locator(".pp-standings").inner_text()
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

    play_until_finished([ana, bea], on_click=watch)

    assert reloaded["done"], "the game ended before the reload"
    assert seen_live == {"ana": True, "bea": True}
    for page in (ana, bea):
        assert page.locator(FINAL).is_visible()
        text = page.locator(".pp-standings").inner_text()
        assert ana_name in text and bea_name in text
    log = bea.locator("#table-log").inner_text()
    assert ana_name in log
    assert horizontal_overflow(bea) == 0
