"""Learning at the table, in a real browser.

- A first game with hints of each game, started from the game's lobby page and played
  to its aim by doing only what the hints say: tap what is highlighted, in order.
- The "How to play" panel on a live table at a phone's and a laptop's size, by keyboard:
  it opens, says what the player can do now with the game's own card pictures, leaves
  the hand in view on the phone, and closes with Escape, giving the focus back.
"""
import re

import pytest

from tests.support.browser import horizontal_overflow, sign_up, wait_for_first_frame, wait_for_table_page

pytestmark = pytest.mark.browser
IPHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
MOVES = 120
"""Far more taps than any lesson needs (Pig Pile's first round is the longest, about 35 moves)."""

HINT = """() => { const hint = document.getElementById('table-hint');
  const marker = document.getElementById('table-version');
  if (!hint) { return null; }
  return {learned: hint.classList.contains('is-learned'), targets: JSON.parse(hint.dataset.targets || '[]'),
          text: (hint.querySelector('.table-hint__say') || {}).textContent || '',
          version: Number(marker.dataset.version),
          hinted: document.querySelectorAll('#table-socket .is-hinted').length,
          described: document.querySelectorAll('#table-socket .is-hinted[aria-describedby="table-hint-say"]').length}; }"""


def start_lesson(page, base_url, slug: str) -> None:
    page.goto(f"{base_url}/games/{slug}/")
    page.get_by_role("button", name="Play a first game with hints").click()
    wait_for_table_page(page)
    page.locator("#table-hint").wait_for()
    wait_for_first_frame(page)


def follow_the_hints(page) -> list[str]:
    """Tap what each hint highlights, in order, until the lesson's aim is reached; the hints followed."""
    followed = []
    for _ in range(MOVES):
        # A hint with something to tap, or the aim reached (the bots' turns in between).
        state = page.wait_for_function(
            f"() => {{ const s = ({HINT})(); return s && (s.learned || s.targets.length) ? s : null; }}",
            timeout=60_000).json_value()
        if state["learned"]:
            return followed
        assert state["hinted"] >= 1, f"nothing on the page is highlighted for {state['text']!r}"
        assert state["described"] >= 1  # a screen reader hears the hint on what it highlights
        followed.append(state["text"])
        for selector in state["targets"]:
            target = page.locator(selector).first
            if target.get_attribute("aria-pressed") == "true":
                continue  # already chosen (a preset pass, a card tapped before)
            target.click()
        page.wait_for_function("(v) => Number(document.getElementById('table-version').dataset.version) > v",
                               arg=state["version"], timeout=30_000)
    raise AssertionError(f"the lesson did not reach its aim in {MOVES} moves")


@pytest.mark.long
@pytest.mark.parametrize("slug, first_words", [
    ("pigpile", "Tap 8 (Hog Wash), 9 and Hog Wild"),
    ("oink", "Your turn: tap Flip"),
    ("snout", "Pass a Spotty Body, a Trotter and the Leaning Jowler"),
    ("piggypiggy", "Play your fries"),
])
def test_a_first_game_with_hints_reaches_its_aim_by_doing_what_the_hints_say(live_site, context_factory, slug,
                                                                            first_words):
    page = context_factory(viewport=IPHONE).new_page()
    sign_up(page, live_site)
    start_lesson(page, live_site, slug)
    assert page.locator("#table-hint .table-hint__say").inner_text().startswith(first_words)  # the fixed deal
    followed = follow_the_hints(page)

    assert followed and followed[0].startswith(first_words)
    hint = page.locator("#table-hint")
    assert "Lesson done" in hint.inner_text() and "start a real table" in hint.inner_text()
    assert horizontal_overflow(page) == 0
    # The lesson is a table like any other: unrated, the learner in seat 0 against bots.
    table_id = int(re.search(r"/tables/(\d+)/", page.url).group(1))
    assert f"/tables/{table_id}/" in page.url
    assert "bot" in page.locator("#table-players").inner_text()


@pytest.mark.parametrize("viewport", [IPHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_how_to_play_panel_opens_and_closes_by_keyboard_on_a_live_table(live_site, context_factory, viewport):
    page = context_factory(viewport=viewport).new_page()
    sign_up(page, live_site)
    page.goto(f"{live_site}/games/pigpile/")
    page.select_option("select[name=seats]", "3")
    page.fill("input[name=bots]", "2")
    page.get_by_role("button", name="Create table").click()  # every seat taken: it starts at once
    wait_for_table_page(page)
    wait_for_first_frame(page)
    # A player's first table of a game offers the first game with hints.
    assert page.get_by_role("button", name="Play a first game with hints").is_visible()

    opener = page.locator(".table-header [data-howto-open]")
    opener.focus()
    page.keyboard.press("Enter")
    panel = page.get_by_role("dialog", name="How to play Pig Pile")
    panel.wait_for()
    state = page.evaluate("""() => { const d = document.getElementById('howto'), r = d.getBoundingClientRect();
      const hand = document.getElementById('pp-hand').getBoundingClientRect();
      return {open: d.open, focusInside: d.contains(document.activeElement), bottom: r.bottom, width: r.width,
              expanded: document.querySelector('.table-header [data-howto-open]').getAttribute('aria-expanded'),
              now: document.querySelector('#howto #table-now').textContent.trim(),
              pictures: d.querySelectorAll('.card-legend .card[data-game="pigpile"]').length,
              handTop: hand.top, viewport: window.innerHeight}; }""")
    assert state["open"] and state["focusInside"] and state["expanded"] == "true"
    assert state["now"].startswith("Choose three of your seven cards")  # the phase the table is in
    assert state["pictures"] >= 6  # the cards drawn with the game's own card partial
    if viewport is IPHONE:
        assert state["bottom"] <= 0.6 * state["viewport"]  # the lower part of the screen stays the table's
    else:
        assert state["width"] <= 0.35 * viewport["width"]  # a drawer at the side, the board beside it

    # The board stays usable while the panel is open: tap a card of the hand (on the phone,
    # scrolled to the bottom of the screen, below the panel).
    page.locator("#pp-hand .pp-toggle").first.evaluate("(card) => card.scrollIntoView({block: 'end'})")
    page.locator("#pp-hand .pp-toggle").first.click()
    assert page.locator("#pp-hand .pp-toggle").first.get_attribute("aria-pressed") == "true"

    panel.locator("[data-howto-close]").focus()
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.getElementById('howto').open")
    focus = page.evaluate("""() => ({back: document.activeElement === document.querySelector('.table-header [data-howto-open]'),
      expanded: document.querySelector('.table-header [data-howto-open]').getAttribute('aria-expanded')})""")
    assert focus == {"back": True, "expanded": "false"}
    assert horizontal_overflow(page) == 0
