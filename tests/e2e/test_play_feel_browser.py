"""How a game feels to play, the platform's half, as players do it in Chromium: watching bots play (each
move stays on screen, the log shows the newest line and keeps a reader's place, the seat
that moved is marked with its move), watching without an account, coming back to your
tables, the ending and "Play again", turn alerts, the desktop table, contrast and the
dark theme. Screenshots of every game at 390x844 and 1280x800 go to PIGPARLOR_SCREENSHOTS
(default /tmp/pigparlor-screenshots)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.conftest import ROOT, start_site, stop_site
from tests.e2e.contrast import low_contrast
from tests.games.oink.helpers import near_the_end
from tests.support.browser import (
    DESKTOP,
    IPHONE,
    create_table,
    horizontal_overflow,
    leave,
    moved_on,
    shoot,
    sign_up,
    wait_for_first_frame,
    wait_for_table_page,
    wait_until_over,
)

pytestmark = pytest.mark.browser
GAMES = ("pigpile", "oink", "piggypiggy", "snout")

# Each time a frame's change is on the page (the page fires htmx:wsAfterMessage right after
# swapping it in, for frames it held back too), note when (the page's own clock) and the
# version now shown: what a person sees change, in order.
# When each version came on the page: noted first of all listeners (capture on the document,
# right after the swap), so a frame's time is never later than the page's own (table.js counts
# the showing time from its listener, which may run a moment later under load).
RECORD_FRAMES = """window.shownFrames = [];
document.addEventListener("htmx:wsAfterMessage", function () {
  var marker = document.getElementById("table-version");
  var version = Number(marker.dataset.version);
  var last = window.shownFrames[window.shownFrames.length - 1];
  if (!last || last[1] !== version) { window.shownFrames.push([performance.now(), version]); }
}, true);"""


def default_settings() -> dict:
    """The bot think time and the page's minimum showing time a site gets when nothing overrides them."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PIGPARLOR_")}
    code = ("import json; from pigparlor import settings; "
            "print(json.dumps([settings.PIGPARLOR_BOT_DELAY_MS, settings.PIGPARLOR_MIN_SHOW_MS]))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    think, show = map(int, out.stdout.strip().strip("[]").split(","))
    return {"think_ms": think, "show_ms": show}


@pytest.fixture(scope="module")
def paced_site():
    """A server with the shipped bot think time and the page's shipped pacing, and a seat
    grace of 2 s (a player who goes away gets a stand-in bot soon)."""
    defaults = default_settings()
    with tempfile.TemporaryDirectory(prefix="pigparlor-paced-") as directory:
        site = start_site(Path(directory), {"PIGPARLOR_BOT_DELAY_MS": str(defaults["think_ms"]),
                                            "PIGPARLOR_MIN_SHOW_MS": str(defaults["show_ms"]),
                                            "PIGPARLOR_SEAT_GRACE_MS": "2000"})
        site.defaults = defaults
        try:
            yield site
        finally:
            stop_site(site)


def frames(page) -> list[list[float]]:
    return page.evaluate("() => window.shownFrames || []")


# ---- following the game, and watching it -----------------------------------------------

@pytest.mark.xdist_group("paced_site")  # one worker: the module's paced server starts once
def test_watching_bots_each_move_stays_on_screen_and_the_log_shows_the_newest(paced_site, context_factory):
    host = context_factory(viewport=DESKTOP).new_page()
    sign_up(host, paced_site)
    table_id = create_table(host, paced_site, "pigpile")
    leave(host, table_id)  # bots play every seat now (the host's page stays open, watching)

    watcher_context = context_factory(viewport=IPHONE, is_mobile=True, has_touch=True)
    watcher_context.add_init_script(RECORD_FRAMES)
    watcher = watcher_context.new_page()
    watcher.goto(f"{paced_site}/tables/{table_id}/")  # no account
    expect(watcher.locator("#table-turn .watching")).to_have_text("You are watching")
    expect(host.locator("#table-players .watchers")).to_have_text("1 watching")  # the players see it
    assert watcher.locator("#table-alerts").count() == 0 and watcher.locator("form[ws-send] button").count() == 0

    watcher.wait_for_function("() => (window.shownFrames || []).length >= 8", timeout=90_000)
    shown = frames(watcher)
    gaps = [later[0] - earlier[0] for earlier, later in zip(shown, shown[1:])]
    minimum = paced_site.defaults["show_ms"]
    assert paced_site.defaults["think_ms"] >= minimum >= 600
    # Timers never fire early; 2 ms covers the clocks' rounding.
    assert min(gaps) >= minimum - 2, (minimum, gaps)
    assert [version for _, version in shown] == sorted(version for _, version in shown)

    # The newest line first, and the seat that moved last marked with that move on the board.
    numbers = watcher.locator("#table-log li").evaluate_all("items => items.map(item => Number(item.dataset.n))")
    assert numbers == sorted(numbers, reverse=True)
    # Read in one evaluation (one task of the page), so that no frame lands between
    # reading the players' row and the board: a seat may move twice running (Hog Wash!).
    marked = watcher.evaluate("""() => {
        const mover = document.querySelector('#table-players .moved-last');
        if (!mover) { return null; }
        const seat = mover.dataset.seat;
        const last = mover.querySelector('.player__last');
        const board = document.querySelector(`#pp-others [data-seat="${seat}"].is-last-mover`);
        const badge = board && board.querySelector('.last-move');
        return {last: last && last.textContent, board: board !== null, badge: badge && badge.textContent}; }""")
    if marked is not None and marked["board"]:  # the host's seat is "Your table" for the host, an opponent here
        assert marked["badge"] == marked["last"], marked

    # A reader who scrolled down the log keeps their place as new lines arrive.
    # Measured once the log overflows by that much, with the fonts in and the newest line's
    # pop-in over (a moving line's box is not where it rests), in the same task as the scroll.
    anchor = watcher.evaluate("""async () => {
        await document.fonts.ready;
        const log = document.querySelector('#table-log');
        const settled = () => log.scrollHeight - log.clientHeight >= 60 && [...log.children].every(
            li => li.getAnimations().every(animation => animation.playState === 'finished'));
        for (let tries = 0; !settled(); tries++) {
            if (tries > 1200) { return null; }
            await new Promise(resolve => setTimeout(resolve, 50));
        }
        log.scrollTop = 60;
        const top = log.getBoundingClientRect().top;
        const item = [...log.children].find(li => li.getBoundingClientRect().bottom > top + 1);
        return {n: item.dataset.n, offset: item.getBoundingClientRect().top - top,
                newest: Number(log.querySelector('li').dataset.n)}; }""")
    assert anchor is not None, "the log never overflowed by 60 px with its lines at rest"
    watcher.wait_for_function("(top) => Number(document.querySelector('#table-log li').dataset.n) > top",
                              arg=anchor["newest"], timeout=30_000)
    offset = watcher.evaluate("""(n) => { const log = document.querySelector('#table-log');
        const item = log.querySelector(`li[data-n="${n}"]`);
        return item ? item.getBoundingClientRect().top - log.getBoundingClientRect().top : null; }""", anchor["n"])
    assert offset is not None and abs(offset - anchor["offset"]) <= 2, (anchor, offset)
    watcher.locator("#table-log").evaluate("log => { log.scrollTop = 0; }")
    shoot(watcher, "watching-pigpile-390")


# ---- your tables, and a bot that played for you -----------------------------------------

@pytest.mark.xdist_group("paced_site")  # one worker: the module's paced server starts once
def test_coming_back_to_your_table_from_the_home_page(paced_site, context_factory):
    page = context_factory(viewport=IPHONE, is_mobile=True, has_touch=True).new_page()
    sign_up(page, paced_site)
    table_id = create_table(page, paced_site, "snout")
    page.goto(f"{paced_site}/")  # away from the table: once the seat grace is over a bot plays for you
    mine = page.locator(f'#my-tables-heading ~ ul [data-table="{table_id}"]')
    expect(mine).to_contain_text("Playing")
    # Until the stand-in has moved for you, as the table's page shows anyone watching it live
    # (a visitor without an account: the player's own visit would be the one told of the bot's moves).
    watcher = context_factory().new_page()
    watcher.goto(f"{paced_site}/tables/{table_id}/")
    watcher.wait_for_function("() => document.body.innerHTML.includes('<b><bdi>Bot for ')", timeout=60_000)
    mine.get_by_role("link", name=re.compile("^Back to ")).click()
    wait_for_table_page(page)
    notice = page.locator(".bot-notice")
    expect(notice).to_have_text(re.compile(r"^A bot played \d+ moves? for you while you were away\.$"))
    # The seat is back once the page's socket is open (its first frame): until then the bot
    # still plays it, and a reload that quick has a new move to tell of (seen on a loaded box).
    wait_for_first_frame(page)
    page.reload()
    assert page.locator(".bot-notice").count() == 0  # said once
    shoot(page, "back-at-the-table-snout-390")


# ---- the ending, and Play again --------------------------------------------------------

@pytest.mark.long
def test_the_ending_and_play_again_with_two_players(live_site, context_factory):
    ana = context_factory(viewport=DESKTOP).new_page()
    bea = context_factory(viewport=IPHONE, is_mobile=True, has_touch=True).new_page()
    ana_name, bea_name = sign_up(ana, live_site), sign_up(bea, live_site)
    table_id = create_table(ana, live_site, "pigpile", seats=3, bots=1)
    bea.goto(f"{live_site}/lobby/tables/{table_id}/")
    bea.get_by_role("button", name="Take a seat").click()
    wait_for_table_page(bea)
    wait_for_table_page(ana)
    for page in (ana, bea):
        leave(page, table_id)  # bots finish the game
    for page in (ana, bea):
        wait_until_over(page, live_site, table_id)
        page.goto(f"{live_site}/tables/{table_id}/")
        expect(page.locator("#table-turn")).to_have_text("Game over")
        headline = page.locator("#table-headline").inner_text()
        assert re.fullmatch(r".+ (wins|share the win) with \d+ pigs?", headline), headline
        winner = page.locator("#table-status .standings tbody tr").first
        assert winner.locator(".rank").inner_text().startswith("1st")
        assert winner.locator("th").inner_text().split(" ")[0] in headline
        assert page.locator("#table-status .standings tbody tr").count() == 3
        assert page.get_by_text("Final standings", exact=True).count() == 1  # once
        expect(page.locator("#table-status .rating-change").first).to_contain_text("→")
        assert page.get_by_role("link", name="Back to the lobby").first.get_attribute("href") == "/games/pigpile/"
        assert page.get_by_role("link", name="New table").get_attribute("href") == "/games/pigpile/new/"
        assert horizontal_overflow(page) == 0
    shoot(ana, "ending-pigpile-1280")
    shoot(bea, "ending-pigpile-390")

    ana.get_by_role("button", name="Play again").click()
    ana.wait_for_url(re.compile(r"/lobby/tables/\d+/$"))
    rematch_id = int(re.search(r"/tables/(\d+)/", ana.url).group(1))
    assert rematch_id != table_id
    expect(ana.locator(".seat-list")).to_contain_text(f"{bea_name} is still deciding")
    expect(bea.locator("#table-status .rematch-note")).to_have_text("2 of 3 seats are in")  # live, over the socket
    bea.get_by_role("button", name="Play again").click()
    for page in (ana, bea):
        wait_for_table_page(page)
        assert page.url.endswith(f"/tables/{rematch_id}/")
        expect(page.locator("#table-players")).to_contain_text(ana_name)
        expect(page.locator("#table-players")).to_contain_text(bea_name)


@pytest.mark.long
def test_oink_ends_without_leftovers(live_site, context_factory):
    page = context_factory(viewport=IPHONE, is_mobile=True, has_touch=True).new_page()
    sign_up(page, live_site)
    page.goto(f"{live_site}/games/oink/")
    page.select_option("select[name=seats]", "2")
    page.fill("input[name=bots]", "1")
    page.fill("input[name=opt_reveal_gap_ms]", "500")  # the quickest Oink! the rules allow
    page.get_by_role("button", name="Create table").click()
    wait_for_table_page(page)
    table_id = int(re.search(r"/tables/(\d+)/", page.url).group(1))
    live_site.edit_state(table_id, near_the_end())  # the ending is what this test looks at
    leave(page, table_id)
    wait_until_over(page, live_site, table_id)
    page.goto(f"{live_site}/tables/{table_id}/")
    expect(page.locator("#table-headline")).to_have_text(re.compile(r" (wins|share the win) with \d+ cards?$"))
    assert page.locator(".ok-seat__slap").count() == 0  # no stale "slapped!"
    assert page.locator("#ok-pile .card--empty").count() == 0  # no empty dashed card
    assert page.locator(".seat-notice__form").count() == 0  # nothing to take back at a finished table
    assert page.locator("#table-status .standings tbody tr").count() == 2
    assert "Game over" in page.locator("#ok-prompt").inner_text()
    assert page.locator("#ok-cries .ok-cry").count() == 0  # no slap buttons left on a finished table
    assert horizontal_overflow(page) == 0
    shoot(page, "ending-oink-390")


# ---- turn alerts -----------------------------------------------------------------------

# Stand-ins the test can read: sounds made, notifications shown, vibrations; and a page
# the test can hide (headless Chromium never is).
ALERT_PROBES = """
window.alertProbe = {tones: 0, notes: [], buzzes: 0, hidden: false};
Object.defineProperty(Document.prototype, "hidden", {get() { return window.alertProbe.hidden; }});
const realOscillator = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () { window.alertProbe.tones += 1; return realOscillator.call(this); };
window.Notification = class { constructor(title, options) { window.alertProbe.notes.push([title + ": " + options.body, document.title]); } };
window.Notification.permission = "default";
window.Notification.requestPermission = () => { window.Notification.permission = "granted"; return Promise.resolve("granted"); };
navigator.vibrate = () => { window.alertProbe.buzzes += 1; return true; };
"""


STILL = "() => document.getAnimations().every(animation => animation.playState !== 'running')"


def probe(page) -> dict:
    return page.evaluate("() => window.alertProbe")


def test_turn_alerts_title_sound_notification_and_vibration(live_site, context_factory):
    context = context_factory(viewport=IPHONE, is_mobile=True, has_touch=True)
    context.add_init_script(ALERT_PROBES)
    page = context.new_page()
    sign_up(page, live_site)
    create_table(page, live_site, "snout")
    page.locator("#sn-hand .sn-pass").wait_for()  # everyone picks three to pass: your move
    expect(page).to_have_title(re.compile(r"^\(Your turn\) "))
    sound = page.get_by_role("button", name="Sound on your turn")
    expect(sound).to_have_attribute("aria-pressed", "false")  # off by default
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "true")
    assert probe(page)["tones"] >= 1  # a sample when turned on
    page.reload()
    expect(page.get_by_role("button", name="Sound on your turn")).to_have_attribute("aria-pressed", "true")  # remembered
    notify = page.get_by_role("button", name="Notify me on my turn")
    notify.click()
    expect(notify).to_have_attribute("aria-pressed", "true")

    page.evaluate("() => { window.alertProbe.hidden = true; window.alertProbe.tones = 0; }")
    page.locator("#sn-hand .sn-pass button").click()
    deadline = time.monotonic() + 120
    not_yours_seen = False
    while not probe(page)["notes"]:
        assert time.monotonic() < deadline, "the move never came back to this seat"
        # Read together: a frame may land between two separate reads.
        yours, title, shown = page.evaluate("() => [document.getElementById('table-turn').dataset.yourMove,"
                                            " document.title, Number(document.getElementById('table-version').dataset.version)]")
        if yours == "false":
            not_yours_seen = True
            assert not title.startswith("(Your turn)")
        elif not_yours_seen:
            continue  # it is ours: the alerts fire for this frame
        else:
            button = page.locator("#sn-prompt button, #sn-hand .sn-pass button").first
            if button.count():
                button.click()
        moved_on(page, shown, also="#table-turn[data-your-move=true]" if not_yours_seen else None)
    found = probe(page)
    note, title = found["notes"][0]
    assert note.startswith("Your turn at Pig Parlor: ")
    assert title.startswith("(Your turn) ")  # the title said so when the alert went out
    assert found["tones"] >= 1 and found["buzzes"] >= 1


# ---- the desktop layout, and screenshots of every game ---------------------------------

def boxes(page) -> list[dict]:
    """Where the turn line, the log and the players are, read at one moment (frames keep
    replacing these elements while bots play)."""
    return page.evaluate("""() => ['#table-turn', '#table-log', '#table-players'].map(selector => {
        const box = document.querySelector(selector).getBoundingClientRect();
        return {x: box.x, y: box.y, width: box.width, height: box.height}; })""")


@pytest.mark.parametrize("game", GAMES)
def test_every_game_phone_and_desktop_layout(live_site, context_factory, game):
    page = context_factory(viewport=DESKTOP).new_page()
    sign_up(page, live_site)
    create_table(page, live_site, game)
    page.locator("#table-log li").first.wait_for()
    board, log, players = boxes(page)
    assert log["x"] >= board["x"] + board["width"]  # the log has a column of its own on the right
    assert players["y"] < board["y"]  # everyone around the top
    assert log["height"] >= 200
    assert horizontal_overflow(page) == 0
    shoot(page, f"{game}-1280")
    page.set_viewport_size(IPHONE)
    board, log, _ = boxes(page)  # read after the resize: the layout is worked out for the read
    assert abs(log["x"] - board["x"]) < 2  # one column on a phone, as before
    assert horizontal_overflow(page) == 0
    shoot(page, f"{game}-390")


@pytest.mark.long
def test_snout_score_sheet_fits_a_phone_after_five_rounds(live_site, context_factory):
    """Five or six rounds fit a 390 px phone whole; a longer game's sheet scrolls sideways."""
    page = context_factory(viewport=IPHONE, is_mobile=True, has_touch=True).new_page()
    sign_up(page, live_site)
    for _ in range(15):  # bots' games last three to eight rounds (six tries all missed once); each takes a second or two
        table_id = create_table(page, live_site, "snout")
        leave(page, table_id)
        wait_until_over(page, live_site, table_id)
        page.goto(f"{live_site}/tables/{table_id}/")
        if 5 <= page.locator("#sn-sheet thead th").count() - 2 <= 6:
            break
    rounds = page.locator("#sn-sheet thead th").count() - 2
    assert 5 <= rounds <= 6
    sheet = page.locator("#sn-sheet .table-wrap")
    clipped = sheet.evaluate("""wrap => { const table = wrap.querySelector('table');
        return table.getBoundingClientRect().right - wrap.getBoundingClientRect().right; }""")
    widths = sheet.evaluate("wrap => [...wrap.querySelectorAll('tr:first-child > *, tbody tr:first-child > *')]"
                            ".map(cell => Math.round(cell.getBoundingClientRect().width) + ':' + cell.textContent.trim())")
    assert clipped <= 1, f"the score sheet is {clipped}px wider than the phone shows: {widths}"
    assert horizontal_overflow(page) == 0
    shoot(page, "ending-snout-390")


# ---- contrast, the dark theme, focus order ---------------------------------------------

def tab_order(page, steps: int = 25) -> list[str]:
    order = []
    for _ in range(steps):
        page.keyboard.press("Tab")
        order.append(page.evaluate("""() => { const e = document.activeElement;
            return e.tagName + '#' + (e.id || '') + ':' + (e.getAttribute('aria-label') || e.textContent.trim().slice(0, 20)); }"""))
    return order


def test_contrast_in_light_and_dark_and_the_same_focus_order(live_site, context_factory):
    host = context_factory(viewport=DESKTOP).new_page()
    sign_up(host, live_site)
    tables = {}
    for game in GAMES:
        tables[game] = create_table(host, live_site, game)
    orders = {}
    signed_in = None
    for scheme in ("light", "dark"):
        context = context_factory(viewport=DESKTOP, color_scheme=scheme, reduced_motion="reduce",
                                  storage_state=signed_in)
        page = context.new_page()
        if signed_in is None:
            sign_up(page, live_site)
            signed_in = context.storage_state()
        assert page.evaluate("() => matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
        for path in ["/", "/games/pigpile/", *(f"/tables/{table_id}/" for table_id in tables.values())]:
            page.goto(f"{live_site}{path}")
            page.wait_for_load_state()
            # A part swapped in at that very moment is mid-animation: read once nothing animates,
            # and only what fails twice counts.
            page.wait_for_function(STILL)
            first = set(low_contrast(page))
            page.wait_for_function(STILL)
            failures = first & set(low_contrast(page))
            assert not failures, f"{scheme} {path}:\n" + "\n".join(sorted(failures))
        # A frame swapped in while tabbing moves the focus: the order counts once two walks agree.
        walks = []
        while len(walks) < 2 or walks[-1] != walks[-2]:
            assert len(walks) < 4, walks
            page.goto(f"{live_site}/tables/{tables['snout']}/")
            page.locator("#table-log li").first.wait_for()
            expect(page.locator("#table-connection")).to_have_text("")
            walks.append(tab_order(page))
        # The log is a tab stop only while it overflows (Chrome's keyboard-focusable
        # scrollers), and the table's log may grow between the two walks (its timers play
        # on; seen once, the dark walk had the log and the light one not): compare without it.
        orders[scheme] = [stop for stop in walks[-1] if not stop.startswith("OL#table-log:")]
        if scheme == "dark":
            shoot(page, "snout-dark-1280")
    shared = min(len(orders["light"]), len(orders["dark"]))
    assert shared >= 20 and orders["light"][:shared] == orders["dark"][:shared]
