"""A newcomer's way in: taps and seconds from the home page to their first move, as a guest.

    .venv/bin/python bench/guest_first_move.py [--port 8141] [--runs 3] [--game snout]

Starts ``manage.py serve`` on 127.0.0.1 with a fresh SQLite file and the site's real
defaults (bots think 700 ms, each change stays on screen 600 ms), then, for each game, a
fresh visitor in Debian's Chromium at 390×844 (touch) opens the home page, taps the game's
"Play" button and makes the first move the page offers with the fewest taps:

- Oink!: the flip, once it is their flip (1 tap);
- Pig Pile: "Lay my strongest three: …" (1 tap; choosing three by hand is 4);
- Piggy Piggy: a food card, then the same card again to play it (2 taps), on their turn;
- Snout!: "Pass these 3 to …" with the three the page chose for them (1 tap).

The clock runs from the home page's navigation to the new version that carries the move
(the browser's own start-up is not counted). A tap refused as stale (the page was still
showing other seats' earlier moves) is tapped again and counted. Prints taps and seconds per
run and each game's median. Measures only; never fails on a time (issue: ≤ 3 taps and ≤ 10 s).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
PHONE = {"width": 390, "height": 844}
TITLES = {"oink": "Oink!", "pigpile": "Pig Pile", "piggypiggy": "Piggy Piggy", "snout": "Snout!"}
MOVED = ("([before]) => Number(document.querySelector('#table-version').dataset.version) > before"
         " || document.querySelector('#table-error[data-code]') !== null")


def serve(env: dict, port: int, log: Path) -> subprocess.Popen:
    """A fresh database, then ``serve`` (bench/audit.py's, which waits until it answers)."""
    from audit import serve as start  # bench/ is this script's own directory

    subprocess.run([sys.executable, str(ROOT / "manage.py"), "migrate", "--no-input", "-v", "0"], cwd=ROOT, env=env,
                   check=True)
    return start(env, port, log)


def version(page) -> int:
    return int(page.locator("#table-version").get_attribute("data-version") or 0)


def offered(page, slug: str):
    """The control of this seat's first move, once the page offers it, and the taps before it."""
    if slug == "oink":
        return page.locator("#ok-prompt .ok-flip button"), []
    if slug == "pigpile":
        return page.locator("#pp-prompt .pp-strongest button"), []
    if slug == "piggypiggy":
        page.locator("#pg-prompt.is-yours").wait_for(timeout=60_000)
        food = page.locator("#pg-hand .pg-food").first
        return food, [food]  # tap to choose, tap again to play
    return page.locator("#sn-hand .sn-pass button"), []


def first_move(page, slug: str) -> int:
    """Wait until the page offers this seat a move and make it; returns the taps it took.
    A refusal as stale (the page still showed an older version, as it paces other seats'
    moves) is answered as a player would: tap again once the page has caught up."""
    taps = 0
    for _ in range(3):
        control, before_taps = offered(page, slug)
        control.wait_for(timeout=60_000)
        for tap in before_taps:
            tap.tap()
            taps += 1
        before = version(page)
        page.evaluate("document.querySelector('#table-error').removeAttribute('data-code')")
        control.tap()
        taps += 1
        page.wait_for_function(MOVED, arg=[before], timeout=30_000)
        code = page.locator("#table-error").get_attribute("data-code")
        if code is None:
            return taps
        assert code == "stale", page.locator("#table-error").inner_text()
        page.wait_for_function("([before]) => Number(document.querySelector('#table-version').dataset.version)"
                               " > before", arg=[before], timeout=30_000)
    raise AssertionError("three taps were refused as stale")


def one_run(browser, base: str, slug: str) -> tuple[int, float, float]:
    """A fresh visitor: (taps, seconds to the table page, seconds to the first move)."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        start = time.perf_counter()
        page.goto(f"{base}/")
        page.get_by_role("button", name=f"Play {TITLES[slug]}").tap()
        page.wait_for_url("**/tables/*/")
        page.locator("#table-socket").wait_for()
        seated = time.perf_counter() - start
        taps = 1 + first_move(page, slug)
        return taps, seated, time.perf_counter() - start
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8141)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--game", action="append", choices=sorted(TITLES), help="only these games (repeatable)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="pigparlor-first-move-") as directory:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{directory}/bench.sqlite3",
               "DJANGO_SETTINGS_MODULE": "pigparlor.settings", "PYTHONUNBUFFERED": "1"}
        env.pop("REDIS_URL", None)
        for name in ("PIGPARLOR_BOT_DELAY_MS", "PIGPARLOR_MIN_SHOW_MS"):
            env.pop(name, None)  # the site's real defaults
        server = serve(env, args.port, Path(directory) / "serve.log")
        base = f"http://127.0.0.1:{args.port}"
        print(f"load average before: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")
        print(f"{'game':<12} {'run':>3} {'taps':>5} {'to table s':>11} {'to first move s':>16}")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
                for slug in args.game or TITLES:
                    runs = []
                    for run in range(args.runs):
                        taps, seated, moved = one_run(browser, base, slug)
                        runs.append((taps, seated, moved))
                        print(f"{slug:<12} {run + 1:>3} {taps:>5} {seated:>11.2f} {moved:>16.2f}")
                    print(f"{slug:<12} {'p50':>3} {statistics.median(r[0] for r in runs):>5} "
                          f"{statistics.median(r[1] for r in runs):>11.2f} {statistics.median(r[2] for r in runs):>16.2f}")
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(f"load average after: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")


if __name__ == "__main__":
    main()
