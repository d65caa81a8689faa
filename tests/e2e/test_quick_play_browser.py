"""Quick play in browsers: two players press "Play now" and land at the same
rated table; a player alone who chose a 10 s wait is seated with bots."""
import re

import pytest

from tests.support.browser import PHONE, sign_up, wait_for_table_page

pytestmark = pytest.mark.browser


def play_now(page, base_url, game: str, seats: int, wait: str) -> None:
    page.goto(f"{base_url}/games/{game}/")
    page.select_option("#quick-seats", str(seats))
    page.select_option("#quick-wait", wait)
    page.click("#play-now")


def test_two_players_press_play_now_and_sit_at_the_same_table(live_site, context_factory):
    ana = context_factory(viewport=PHONE).new_page()
    ben = context_factory().new_page()
    names = [sign_up(ana, live_site), sign_up(ben, live_site)]
    play_now(ana, live_site, "piggypiggy", 2, "humans")
    ana.locator("#quick-play", has_text="People only").wait_for()
    play_now(ben, live_site, "piggypiggy", 2, "humans")
    wait_for_table_page(ana)
    wait_for_table_page(ben)
    assert ana.url == ben.url
    players = ana.locator("#table-players").inner_text()
    assert all(name in players for name in names) and "bot" not in players


def test_a_player_alone_gets_bots_after_the_wait_they_chose(live_site, page):
    sign_up(page, live_site)
    play_now(page, live_site, "snout", 3, "10")
    waiting = page.locator("#quick-play", has_text="Bots fill the table in")
    waiting.wait_for()
    assert re.search(r"Looking for 2 players near your 1500 \(±\d+\)", waiting.inner_text())
    page.wait_for_url(re.compile(r"/tables/\d+/$"), timeout=30_000)
    wait_for_table_page(page)
    assert page.locator("#table-players .player").count() == 3
    assert page.locator("#table-players", has_text="bot").count() == 1
