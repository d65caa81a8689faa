"""A whole Piggy Piggy game played by clicking on a 360 px phone against two bots: food plays,
goats through the goat flow (one of them by keyboard), the PG5 "add matching cards" picker when
it comes up, and ending step 1, until the final standings.

The table's seed is set while it waits for players (the host then starts it with bots), chosen
so that the newcomer is dealt a goat: some bot has a food stack by the newcomer's second turn
at the latest, so a goat is sure to be played."""
import itertools
import re
import time

import pytest

from games.piggypiggy.engine import ENGINE
from tests.support.browser import PHONE, horizontal_overflow, sign_up, version, wait_for_table_page

pytestmark = pytest.mark.browser
FINAL = "#pg-results h2"
MY_MOVE = "#pg-prompt.is-yours"
SEATS = 3


def a_seed_dealing_a_goat_to_seat_0() -> int:
    def goats(seed):
        state = ENGINE.start(SEATS, seed)
        return [card for card in state.hands[0] if state.the_deck.cards[card].is_goat]

    return next(seed for seed in itertools.count(1) if goats(seed))


def start_piggypiggy_table_with_bots(live_site, page, seed):
    """Create a table, set its seed while it waits, and start it with bots in the empty seats."""
    page.goto(f"{live_site}/games/piggypiggy/")
    page.select_option("select[name=seats]", str(SEATS))
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url("**/lobby/tables/*/")
    table_id = int(re.search(r"/lobby/tables/(\d+)/", page.url).group(1))
    live_site.manage("shell", "-c", "from pigparlor.tables.models import Table; "
                                    f"Table.objects.filter(pk={table_id}).update(seed={seed}, salts=[])")
    page.get_by_role("button", name=f"Start now with {SEATS - 1} bots").click()
    wait_for_table_page(page)  # the button's redirect and the room socket's may both navigate
    page.locator("#pg-hand").wait_for()


CHANGED = ("([before]) => Number(document.querySelector('#table-version').dataset.version) > before"
           " || document.querySelector('#table-error[data-code]') !== null")


def after(page, act):
    """Do ``act`` and wait until the page holds a newer version (or shows an error)."""
    before = version(page)
    act()
    page.wait_for_function(CHANGED, arg=[before])


def press_enter(page):
    """Enter on the focused control, once: the page then holds a newer version (a frame that
    replaces the control gives its twin the focus, site.js)."""
    after(page, lambda: page.keyboard.press("Enter"))


def play_goat(page, by_keyboard: bool):
    """The goat flow: tap a goat in the hand, then one of the cards that became buttons."""
    page.locator("#pg-hand .pg-goat-toggle").first.click()
    target = page.locator(".pg-target button").first
    target.wait_for(state="visible")
    if by_keyboard:
        assert target.evaluate("button => button === document.activeElement")
        press_enter(page)
    else:
        after(page, target.click)


def play_food(page, twice: bool):
    """Issue 15: a food play is tap to choose (nothing is sent), then tap again or "Play"."""
    food = page.locator("#pg-hand .pg-food").first
    before = version(page)
    food.click()
    assert food.get_attribute("aria-pressed") == "true" and version(page) == before
    commit = page.locator("#pg-hand .pg-commit:not([hidden]) .pg-play button")
    after(page, food.click if twice else commit.click)


def answer_the_prompt(page):
    """PG5's picker: leave one matching card out when there are several, then add the rest."""
    picks = page.locator("#pg-prompt .pg-pick")
    if picks.count() > 1:
        picks.first.click()
        assert picks.first.get_attribute("aria-pressed") == "false"
    after(page, page.locator("#pg-prompt .pg-add button").click)


def play_one_game(page) -> dict:
    """Click through one game: goats whenever one may be played, then the biggest food, then end step 1."""
    seen = {"goats": 0, "foods": 0, "prompts": 0, "turns": 0}
    deadline = time.monotonic() + 90
    while True:
        assert time.monotonic() < deadline, f"no final standings after {seen}"
        page.wait_for_selector(f"{MY_MOVE}, {FINAL}")
        if page.locator(FINAL).count():
            return seen
        if page.locator("#pg-prompt .pg-add").count():
            answer_the_prompt(page)
            seen["prompts"] += 1
        elif page.locator("#pg-hand .pg-goat-toggle").count():
            play_goat(page, by_keyboard=seen["goats"] == 0)
            seen["goats"] += 1
            assert "played a goat on" in page.locator("#table-log").inner_text()
        elif page.locator("#pg-hand .pg-food").count():
            play_food(page, twice=seen["foods"] % 2 == 0)
            seen["foods"] += 1
        else:
            assert page.locator("#pg-steps [aria-current=step]").inner_text().endswith("Play")
            after(page, page.locator("#pg-prompt .pg-end button").click)
            seen["turns"] += 1


def test_a_newcomer_plays_piggypiggy_with_goats_on_a_phone_to_the_final_standings(live_site, context_factory):
    page = context_factory(viewport=PHONE).new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    name = sign_up(page, live_site)
    start_piggypiggy_table_with_bots(live_site, page, a_seed_dealing_a_goat_to_seat_0())
    assert page.locator("#pg-hand .card__art use[href$='#food-goat']").count() >= 1
    assert page.locator("#pg-pigs .pg-pig").count() == 5
    assert horizontal_overflow(page) == 0

    seen = play_one_game(page)

    assert seen["goats"] >= 1 and seen["foods"] >= 1 and seen["turns"] >= 1

    assert page.locator("#table-turn").inner_text().strip() == "Game over"
    assert page.locator("#pg-results table, #table-socket table.data:not(.standings)").count() == 0  # one results table
    assert name in page.locator(".standings").inner_text()
    assert page.locator(".standings tbody tr").count() == SEATS
    assert page.locator("#pg-prompt form, .pg-goat-toggle").count() == 0
    assert horizontal_overflow(page) == 0
    assert page.locator("#table-error[data-code]").count() == 0  # no click was stale or refused
    assert errors == []
