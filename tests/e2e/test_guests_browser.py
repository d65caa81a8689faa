"""Playing before signing up, in a real browser at 390×844 (a touch phone) and 1280×800: a
visitor plays a whole game of each of the four games against bots as "Guest ####" without
signing up — on the phone from the home page's first tap, on the desktop from the game's
lobby with the fewest seats — and a guest who then signs up finds that game on their profile.

The games are driven to their end by the helpers the games' own browser tests use. Screenshots
go to ``$PIGPARLOR_SCREENSHOTS`` (tests/support/browser.py), named guest-<game>-<size>-start/end.png."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from games.core.registry import get_game
from tests.e2e.pigpile_player import play_until_finished
from tests.e2e.test_oink_browser import play as play_oink
from tests.e2e.test_piggypiggy_browser import FINAL as PIGGYPIGGY_OVER
from tests.e2e.test_piggypiggy_browser import play_one_game
from tests.e2e.test_snout_browser import play_to_the_end as play_snout
from tests.games.oink.helpers import near_the_end
from tests.games.pigpile.position import last_round
from tests.support.browser import DESKTOP, IPHONE, PASSWORD, fresh_name, horizontal_overflow, shoot, wait_for_table_page

pytestmark = pytest.mark.browser
GUEST = re.compile(r"^Guest \d{4}$")
FINAL = "#table-status h3.standings-title"  # plain CSS: moved_on reads it with querySelector


def oink(page) -> None:
    """Flip on our turn and slap every card that calls for a cry (the helper works it out with
    the engine's own function, as a player would by eye), to the end, in real time."""
    def flip():
        try:
            page.locator("#ok-prompt .ok-flip button").click(timeout=2_000)
        except PlaywrightError:
            pass  # the clock flipped first

    def slap(cry):
        try:
            page.locator(f'#ok-cries .ok-cry[data-cry="{cry}"]').click(timeout=2_000)
        except PlaywrightError:
            pass  # the window closed under the tap

    seen = play_oink(page, slap=slap, flip=flip, want_verdicts=0, to_the_end=True, limit_s=400)
    assert seen["flips"] >= 1


def pigpile(page) -> None:
    assert play_until_finished([page], limit_s=400) > 3


def piggypiggy(page) -> None:
    seen = play_one_game(page)
    assert seen["foods"] + seen["goats"] >= 1
    page.locator(PIGGYPIGGY_OVER).wait_for()


def snout(page) -> None:
    seen = play_snout(page, retap=False)
    assert seen["passes"] >= 1


PLAYERS = {"oink": oink, "pigpile": pigpile, "piggypiggy": piggypiggy, "snout": snout}


# The two long games start from a shorter game (as a chess test starts from a FEN): what this
# file shows is a guest's whole game from the first tap to the standings, not ninety Oink!
# flips or five Pig Pile rounds of forty-odd draws, which the games' own tests play in full.
SHORTER = {"oink": near_the_end(keep=2), "pigpile": last_round(draw=4)}


def guest_name(page) -> str:
    name = page.locator(".site-nav bdi").inner_text()
    assert GUEST.match(name), name
    return name


def play_from_home(page, base_url, slug: str) -> None:
    """The phone's way: the home page, then one tap on the game's Play button."""
    page.goto(f"{base_url}/")
    page.get_by_role("button", name=f"Play {get_game(slug).title}").tap()
    wait_for_table_page(page)


def play_from_the_lobby(page, base_url, slug: str) -> None:
    """The desktop's way: the game's lobby, the fewest seats, "Play now"."""
    page.goto(f"{base_url}/games/{slug}/")
    assert page.locator("#quick-play").get_by_text("Log in to play now").count() == 0
    page.select_option("#play-seats", str(get_game(slug).engine.min_seats))
    page.locator("#play-now").click()
    wait_for_table_page(page)


def check_the_end(page, name: str) -> None:
    page.locator(FINAL).wait_for()
    expect(page.locator("#table-turn")).to_have_text("Game over")
    standings = page.locator("#table-status .standings")
    assert name in standings.inner_text()
    assert standings.locator("th", has_text="Rating").count() == 0  # a guest's table is casual
    assert page.locator(".guest-note").count() == 1
    assert horizontal_overflow(page) == 0


@pytest.mark.long
@pytest.mark.parametrize("slug", PLAYERS)
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_visitor_plays_a_whole_game_as_a_guest_without_signing_up(live_site, context_factory, slug, size):
    if size == "phone":
        page = context_factory(viewport=IPHONE, is_mobile=True, has_touch=True).new_page()
    else:
        page = context_factory(viewport=DESKTOP).new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    (play_from_home if size == "phone" else play_from_the_lobby)(page, live_site, slug)
    name = guest_name(page)
    table_id = int(re.search(r"/tables/(\d+)/", page.url).group(1))
    seats = page.locator("#table-players li").count()
    shoot(page, f"guest-{slug}-{size}-start", near="#table-turn")
    if slug in SHORTER:
        live_site.edit_state(table_id, SHORTER[slug])
        # The edit sends no frame: a page left as it was would offer moves at the old version
        # (answered "stale") until the next frame, which at a turn-based table is the guest's own.
        page.reload()
        wait_for_table_page(page)

    PLAYERS[slug](page)

    check_the_end(page, name)
    assert seats == (4 if size == "phone" else get_game(slug).engine.min_seats)
    shoot(page, f"guest-{slug}-{size}-end", near="#table-status")
    assert f"/tables/{table_id}/" in page.url
    assert errors == []


def test_a_guest_who_signs_up_keeps_the_game_they_finished(live_site, context_factory):
    page = context_factory(viewport=IPHONE, is_mobile=True, has_touch=True).new_page()
    play_from_home(page, live_site, "snout")
    name = guest_name(page)
    snout(page)
    check_the_end(page, name)
    title = page.locator("h1 bdi").inner_text()

    page.locator(".site-nav").get_by_role("link", name="Sign up").tap()
    expect(page.locator(".auth-panel .guest-note")).to_contain_text(name)
    expect(page.locator("#email-note")).to_contain_text("Forgot your password?")
    shoot(page, "guest-sign-up-390")
    username = fresh_name("joined")  # "guest" and digits read as a guest's name (reserved)
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("main button[type=submit]").tap()
    wait_for_table_page(page)  # back where the sign-up started

    assert page.locator(".site-nav bdi").inner_text() == username
    assert page.locator(".guest-note").count() == 0
    page.goto(f"{live_site}/profile/")
    history = page.locator("#history + *")
    expect(history).to_contain_text(title)
    assert "Snout!" in page.locator("#games-played + *").inner_text()
    assert page.get_by_role("button", name="Create a token").count() == 1
