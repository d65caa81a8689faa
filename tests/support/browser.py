"""Playwright helpers every browser test shares (the fixtures, ``page``, ``context_factory``,
``browser``, stay in tests/e2e/conftest.py).

Reading the page: state is read in one ``page.evaluate`` or waited for with
``wait_for_function``/``expect`` (a frame can land between two reads). ``comes_true`` is the
one way to ask whether something comes true without failing the test.
"""
from __future__ import annotations

import itertools
import os
import re
import tempfile
import uuid
from pathlib import Path

PHONE = {"width": 360, "height": 740}
IPHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
PASSWORD = "snouts-and-trotters-42"
TABLE_PAGE = re.compile(r"(?<!lobby)/tables/\d+/$")
SHOTS = Path(os.environ.get("PIGPARLOR_SCREENSHOTS", Path(tempfile.gettempdir()) / "pigparlor-screenshots"))
_names = itertools.count()


def wait_for_first_frame(page) -> None:
    """Until the page's socket has swapped in its first frame, which redraws what the page
    was served with: a click in that moment can land on a control being replaced."""
    page.wait_for_function("() => (window.__socketFrames || 0) > 0")


def fresh_name(prefix: str = "pig") -> str:
    return f"{prefix}{next(_names)}{uuid.uuid4().hex[:6]}"


def sign_up(page, base_url: str, username: str | None = None) -> str:
    username = username or fresh_name()
    page.goto(f"{base_url}/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base_url}/")
    return username


def horizontal_overflow(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def wait_for_table_page(page) -> None:
    """Wait until the page shows a live table. Polls the address rather than waiting for
    one navigation: leaving the waiting room may navigate twice (the button's redirect
    and the room socket's "the cards are dealt"), and the first one is then aborted."""
    from playwright.sync_api import expect

    expect(page).to_have_url(TABLE_PAGE, timeout=30_000)  # a busy machine: seconds, never a fixed sleep
    page.wait_for_load_state()


def post_as_htmx(page, path: str) -> int:
    """POST ``path`` from ``page`` as its htmx buttons do (with the page's CSRF header): the status."""
    return page.evaluate("""async (path) => {
        const csrf = JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRFToken'];
        const answer = await fetch(path, {method: 'POST', headers: {'X-CSRFToken': csrf, 'HX-Request': 'true'}});
        return answer.status; }""", path)


def leave(page, table_id: int) -> None:
    """Leave the table for good, as the table's Leave button does (a bot plays the seat to
    the end), once this page's table socket is open."""
    page.wait_for_function("() => { const status = document.getElementById('table-connection');"
                           " return !status || status.textContent === ''; }")
    assert post_as_htmx(page, f"/lobby/tables/{table_id}/leave/") in (200, 204)


def press_down(page, control) -> None:
    """The mouse down on the middle of ``control``, left down. Frames may replace the control
    while it is found (its box is asked again then)."""
    from playwright.sync_api import Error as PlaywrightError

    box = None
    for attempt in range(5):
        try:
            control.scroll_into_view_if_needed(timeout=5_000)
            # In the viewport, where the mouse goes; None when a frame swapped it out between the
            # two calls and its twin is not laid out yet: ask again.
            box = control.bounding_box(timeout=5_000)
        except PlaywrightError:
            if attempt == 4:
                raise
        if box is not None:
            break
    assert box is not None, "the control never had a box on the page"
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()


def note_arrivals(page, area: str, part: str) -> None:
    """From now on count the frames that reach the socket area ``area`` (``window.__arrived``,
    counted before any hold), and mark the element ``part``: one swapped in since has no mark."""
    page.evaluate("""([area, part]) => { window.__arrived = 0;
        document.querySelector(area).addEventListener('htmx:wsBeforeMessage', () => window.__arrived++);
        document.querySelector(part).dataset.mark = 'before'; }""", [area, part])


def wait_until_over(page, base_url, table_id: int, limit_s: float = 240) -> None:
    """Leave the table page and wait until the bots have
    finished the game, as a visitor without an account watching the (public) table sees it."""
    page.goto("about:blank")
    watcher = page.context.browser.new_context()
    try:
        view = watcher.new_page()
        view.goto(f"{base_url}/tables/{table_id}/")
        view.locator("#table-turn", has_text="Game over").wait_for(timeout=limit_s * 1000)
    finally:
        watcher.close()


def comes_true(page, script: str, arg=None, timeout_ms: int = 15_000) -> bool:
    """Whether ``script(arg)`` (a function's source) comes true in the page within ``timeout_ms``."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        page.wait_for_function(script, arg=arg, timeout=timeout_ms)
    except PlaywrightError:
        return False
    return True


def version(page) -> int:
    """The table version the page shows."""
    return int(page.locator("#table-version").get_attribute("data-version") or 0)


MOVED_ON = """([before, also]) => Number(document.querySelector('#table-version').dataset.version) > before
    || (also !== null && document.querySelector(also) !== null)"""


def moved_on(page, before: int, also: str | None = None, timeout_ms: int = 15_000) -> bool:
    """Whether the page comes to show a version after ``before`` (or an element ``also``):
    what a loop that found nothing to do waits for before it looks again."""
    return comes_true(page, MOVED_ON, [before, also], timeout_ms)


def wait_for_moves(page, base_url: str, table_id: int, moves: int, timeout_ms: int = 120_000) -> None:
    """Until ``moves`` more versions of the (public) table have been played, as a visitor
    without an account watching it sees them (a page of this player's would take the seat)."""
    watcher = page.context.browser.new_context()
    try:
        view = watcher.new_page()
        view.goto(f"{base_url}/tables/{table_id}/")
        start = version(view)
        view.wait_for_function("([target]) => Number(document.querySelector('#table-version').dataset.version)"
                               " >= target", arg=[start + moves], timeout=timeout_ms)
    finally:
        watcher.close()


def create_table(page, base_url: str, game: str, seats: int = 4, bots: int = 3, *, level: str | None = None,
                 ticks=()) -> int:
    """The lobby's create form, as a player fills it in: the table's id, once the page shows
    the table (every seat filled) or its waiting room."""
    page.goto(f"{base_url}/games/{game}/")
    page.select_option("select[name=seats]", str(seats))
    page.fill("input[name=bots]", str(bots))
    for name in ticks:
        page.check(f"input[name={name}]")
    if level:
        page.select_option("select[name=bot_level]", label=level)
    page.get_by_role("button", name="Create table").click()
    if bots == seats - 1:
        wait_for_table_page(page)
    else:
        page.wait_for_url(re.compile(r"/lobby/tables/\d+/$"))
    return int(re.search(r"/tables/(\d+)/", page.url).group(1))


def create_table_by_api(site, token: str, game: str, seats: int, bots: int, **fields) -> int:
    """A table made through the JSON API (docs/api.md) with ``token``: its id."""
    import json
    import urllib.request

    request = urllib.request.Request(f"{site}/api/tables/", method="POST", headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        data=json.dumps({"game": game, "seats": seats, "bots": bots, **fields}).encode())
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())["id"]


def shoot(page, name: str, near: str | None = None) -> None:
    """A screenshot under SHOTS (PIGPARLOR_SCREENSHOTS): the whole page on a desktop; on a touch
    phone the screen as the player sees it, scrolled to ``near`` (Chromium's full-page capture
    drops the touch emulation, showing desktop-only hints)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    touch = page.evaluate("() => matchMedia('(hover: none)').matches")
    if touch and near:
        page.evaluate("(near) => document.querySelector(near)?.scrollIntoView({block: 'center'})", near)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=not touch)


# A frame that replaces ``selector``'s part by its twin (the same controls, one attribute
# more, so the table page does not skip it as unchanged), swapped in at once as the socket
# would: what happens when a frame is not held (Oink!, a press past the hold).
REPLACE_PART = """(selector) => {
  const part = document.querySelector(selector);
  const twin = part.cloneNode(true);
  twin.setAttribute('hx-swap-oob', 'true');
  twin.dataset.twin = String(Number(part.dataset.twin || 0) + 1);
  window.pigParlorPress.swap(part.closest('[ws-connect]'), twin.outerHTML, null);
  return document.querySelector(selector) !== part;
}"""


def replace_part(page, selector: str) -> None:
    """Replace the part ``selector`` with its twin now, as a frame that lands mid-press does."""
    assert page.evaluate(REPLACE_PART, selector), f"{selector} was not replaced"
