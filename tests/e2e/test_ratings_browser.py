"""Ratings on a phone (360 px): a newcomer plays a rated Snout! game against
bots, sees their change and why on the results screen (the bots' ratings are
fixed), finds the game in their profile's rating chart and history, and — after
20 rated games, seeded here through the rating service — on the Snout!
leaderboard, their name linking to their page."""
import re

import pytest

from tests.e2e.test_snout_browser import check_the_end, play_to_the_end, start_a_game
from tests.support.browser import PHONE, horizontal_overflow, sign_up

pytestmark = pytest.mark.browser

# Rated 3-seat tables against the Sensible and the Random bot, rated through the
# service until the player is established (20 rated games): a few evenings of play.
SEED = """
from django.contrib.auth import get_user_model
from django.utils import timezone
from pigparlor.ratings.models import Rating
from pigparlor.ratings.service import rate_table
from pigparlor.tables.models import FINISHED, Seat, Table
me = get_user_model().objects.get(username="{name}")
for n in range(400):
    if Rating.objects.get(user=me, game="snout").games >= 20:
        break
    table = Table.objects.create(game="snout", seats=3, status=FINISHED, rated=True, seed=n, version=2,
                                 finished_at=timezone.now(),
                                 outcome={{"ranks": [1 + n % 2, 2 - n % 2, 3], "scores": [0, 0, 0], "left": []}})
    Seat.objects.create(table=table, index=0, user=me)
    Seat.objects.create(table=table, index=1, bot_kind="sensible")
    Seat.objects.create(table=table, index=2, bot_kind="random")
    rate_table(table.pk)
"""


def test_a_newcomer_sees_their_rating_move_then_joins_the_leaderboard(live_site, context_factory):
    page = context_factory(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    name = sign_up(page, live_site)

    start_a_game(page, live_site, seats=3, early_snout=True)
    play_to_the_end(page, retap=False)
    check_the_end(page, name, 3)
    changes = page.locator("#table-status .rating-change")
    changes.first.wait_for()
    assert changes.count() == 1  # the player's; each bot's rating is fixed
    assert page.locator("#table-status .rating-fixed").count() == 2
    mine = page.locator("#table-status .standings tbody tr", has_text=name).locator(".rating-change").inner_text()
    assert re.fullmatch(r"1500\? → \d{4}\? \([+−]\d+\)", mine), mine
    why = page.locator("#table-status .rating-reasons li.is-you").inner_text()
    assert re.fullmatch(r"You [+−]\d+: (shared )?\d(st|nd|rd) of 3, (above|behind|level with) .*", why), why
    assert page.locator("#table-players a.player-name", has_text=name).count() == 1
    assert horizontal_overflow(page) == 0

    page.goto(f"{live_site}/profile/")
    card = page.locator('#ratings .rating-card[data-game="snout"]')
    assert "1 rated game" in card.inner_text() and "provisional" in card.inner_text()
    chart = card.locator("svg")
    assert chart.locator("polyline").count() == 1
    assert chart.bounding_box()["width"] >= 300  # legible: nearly the phone's width
    assert horizontal_overflow(page) == 0

    live_site.manage("shell", "-c", SEED.format(name=name))
    page.goto(f"{live_site}/games/snout/")
    page.get_by_role("link", name="Leaderboard").click()
    row = page.locator("#leaderboard tr", has_text=name)
    assert row.count() == 1 and "you" in row.inner_text()
    assert horizontal_overflow(page) == 0
    row.get_by_role("link", name=name).click()
    page.wait_for_url(f"{live_site}/profile/")
    card = page.locator('#ratings .rating-card[data-game="snout"]')
    assert "on the leaderboard" in card.inner_text()
    assert card.locator("polyline.is-provisional").count() == 1  # dashed up to the game it was established
    assert re.search(r"over \d+ rated games", card.locator("svg").get_attribute("aria-label"))
    card.get_by_role("link", name="history").click()
    page.wait_for_url(f"{live_site}/players/{name}/ratings/snout/")
    assert page.locator("#rating-history li").count() == 20
    assert horizontal_overflow(page) == 0
    assert errors == []
