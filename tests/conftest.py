"""Fixtures shared by the whole suite.

- ``live_site``: the real server, ``manage.py serve`` in a subprocess on
  127.0.0.1 and a free port, with its own temporary SQLite file and
  PIGPARLOR_BOT_DELAY_MS=0 and PIGPARLOR_MIN_SHOW_MS=0. It is the base URL (a ``str``, e.g.
  ``"http://127.0.0.1:41234"``) with extras: ``.ws_url`` (``ws://…``),
  ``.db_path``, ``.log_path`` (the server's output), ``.env``, and ``.manage(*args)`` which runs a management command
  against the same database (``live_site.manage("api_token", "ana", "--create")``
  returns its stdout). One server per test session. ``start_site(directory,
  extra_env)`` starts more (``extra_env`` may set ``DATABASE_URL``, ``REDIS_URL``…).
- Tests marked ``server`` start a server process: every test that uses ``live_site``, or whose
  module imports ``start_site``, is marked here (``make test-quick`` leaves them out).
- Tests marked ``scaleout`` need PostgreSQL and Redis (tests/scaleout/conftest.py);
  ``PIGPARLOR_NO_SCALEOUT=1`` deselects them, except under CI.
- ``count_game``: registers the tiny test game of ``tests/tables/countgame.py``.
- Every test runs with zero bot think time and a fast password hasher.
"""
from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

# A browser test's expect() waits for its fact up to 15 s (Playwright's default is 5 s): on a
# busy machine a live update can take seconds. The same for every test, whatever ran before
# (set_options is global to the process).
expect.set_options(timeout=15_000)

ROOT = Path(__file__).resolve().parent.parent


def pytest_collection_modifyitems(config, items):
    """Tests marked ``long`` start first, so the two xdist workers end together
    (xdist hands tests out in this order).

    ``PIGPARLOR_NO_SCALEOUT=1`` deselects the scale-out tests (no PostgreSQL or
    Redis at hand), visibly: pytest counts them as deselected. Under CI (``CI``
    set) nothing is deselected, so missing services fail the run."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)  # stable
    for item in items:
        module = getattr(item, "module", None)
        if "live_site" in getattr(item, "fixturenames", ()) or getattr(module, "start_site", None) is start_site:
            item.add_marker("server")
    if os.environ.get("CI") or os.environ.get("PIGPARLOR_NO_SCALEOUT", "") in ("", "0"):
        return
    scaleout = [item for item in items if item.get_closest_marker("scaleout") is not None]
    if scaleout:
        config.hook.pytest_deselected(items=scaleout)
        items[:] = [item for item in items if item.get_closest_marker("scaleout") is None]


SUITE_GOAL_SECONDS = 600  # make test on an idle 2-core machine (issue: tests that wait on facts)


def pytest_configure(config):
    config._pigparlor_started = time.monotonic()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """The run's own wall time, on the line before pytest's counts, with the machine's load
    (a time measured beside a busy neighbour says so)."""
    if hasattr(config, "workerinput"):  # an xdist worker: the controller prints it
        return
    seconds = time.monotonic() - config._pigparlor_started
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    verdict = "within" if seconds <= SUITE_GOAL_SECONDS else "OVER"
    terminalreporter.write_line(f"suite time: {seconds:.0f} s ({seconds / 60:.1f} min), {verdict} the "
                                f"{SUITE_GOAL_SECONDS // 60}-minute goal; load average now {load}")


@pytest.fixture(scope="session", autouse=True)
def _static_files_collected():
    """Pages name static files by their hashed names, from the manifest that ``serve``
    collects (pigparlor/static_files.py): a fresh clone's tests collect it first."""
    from pigparlor import static_files

    static_files.collect()


@pytest.fixture(autouse=True)
def _no_stale_running_loop(request):
    """A test outside the browser tests starts with no event loop marked as running on
    this thread. Playwright's sync API marks its loop running while it is in use
    (tests/e2e/conftest.py scopes it to a module); a mark left behind would make
    Django refuse the ORM ("async context") and pytest-asyncio refuse to start."""
    import asyncio

    if request.node.get_closest_marker("browser") is None:
        stale = asyncio._get_running_loop()
        if stale is not None and not stale.is_running():
            asyncio._set_running_loop(None)
    yield


@pytest.fixture(autouse=True)
def _fast_tests(settings):
    settings.PIGPARLOR_BOT_DELAY_MS = 0
    settings.PIGPARLOR_MIN_SHOW_MS = 0
    settings.PIGPARLOR_LOBBY_REFRESH_MS = 0  # render at once (tests/lobby/test_sockets.py tests the coalescing)
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def ana(db):
    """A player (password ``tests.support.tables.PASSWORD``)."""
    from tests.support.tables import make_user

    return make_user("ana")


@pytest.fixture
def bea(db):
    from tests.support.tables import make_user

    return make_user("bea")


@pytest.fixture
def count_game(settings):
    from games.core.registry import Game, register, unregister
    from tests.tables.countgame import BOTS, ENGINE

    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [*settings.TEMPLATES[0]["DIRS"],
                                                             ROOT / "tests" / "tables" / "templates"]}]
    game = Game(engine=ENGINE, bots=BOTS, table_template="countgame/table.html", blurb="Count to ten.")
    register(game)
    yield game
    unregister(game.slug)


class LiveSite(str):
    """The base URL of a running ``serve``, with what tests need to reach it."""

    url: str
    ws_url: str
    db_path: Path
    log_path: Path
    env: dict
    process: subprocess.Popen

    def manage(self, *args: str) -> str:
        done = subprocess.run([sys.executable, str(ROOT / "manage.py"), *args], cwd=ROOT, env=self.env,
                              capture_output=True, text=True, timeout=STARTUP_SECONDS, check=True)
        return done.stdout.strip()

    def edit_state(self, table_id: int, change) -> None:
        """Set up a test's position at a running table, as a chess test starts from a FEN:
        ``change(state)`` edits the stored state (a dict) in place. The version moves on,
        so the server's clock and bots act on the new state. No frame is sent: a page already
        open still shows the old version (its next move is refused as stale) until the next
        change's frame or a reload, so set the position up before the page opens, or reload it."""
        with sqlite3.connect(self.db_path, timeout=30, isolation_level=None) as db:
            db.execute("BEGIN IMMEDIATE")
            (raw,) = db.execute("SELECT state FROM tables_table WHERE id = ?", (table_id,)).fetchone()
            state = json.loads(raw)
            change(state)
            db.execute("UPDATE tables_table SET state = ?, version = version + 1 WHERE id = ?",
                       (json.dumps(state), table_id))
            db.execute("COMMIT")


# A fact with a deadline: the port answers. Generous, as serve took over 3 minutes to start
# beside a busy neighbour on 2 cores.
STARTUP_SECONDS = 300


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


_MIGRATED: list[Path] = []  # this process's migrated SQLite database, made on first use


def migrated_sqlite() -> Path:
    """A migrated SQLite database file to copy: a new site starts from a copy (``serve``'s own
    migrate then has nothing to do) instead of running every migration again, seconds of CPU."""
    if not _MIGRATED:
        path = Path(tempfile.mkdtemp(prefix="pigparlor-migrated-")) / "migrated.sqlite3"
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{path}", "DJANGO_SETTINGS_MODULE": "pigparlor.settings"}
        subprocess.run([sys.executable, str(ROOT / "manage.py"), "migrate", "--verbosity", "0"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=STARTUP_SECONDS, check=True)
        _MIGRATED.append(path)
    return _MIGRATED[0]


def copy_sqlite(source: Path, target: Path) -> None:
    """A consistent copy through SQLite's backup API (the source may be in WAL mode)."""
    with sqlite3.connect(source) as reading, sqlite3.connect(target) as writing:
        reading.backup(writing)


def start_site(directory: Path, extra_env: dict | None = None, port: int | None = None,
               workers: int = 1) -> LiveSite:
    """A ``serve`` on ``port`` (a free one if None) with its database in ``directory``:
    the same directory and port again restart the same site. ``workers`` > 1 runs
    ``serve --workers N`` (``extra_env`` must give it a ``REDIS_URL``)."""
    port = port or free_port()
    db_path = directory / "live.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db_path}", "PIGPARLOR_BOT_DELAY_MS": "0",
           # Frames show as they come (the page's pacing, static/js/table.js, is tested on its own).
           "PIGPARLOR_MIN_SHOW_MS": "0",
           # Bots move instantly here, so a client answering every frame outpaces the real limit.
           "PIGPARLOR_WS_BURST": "200", "PIGPARLOR_WS_RATE": "100",
           # One session-wide server: a test's user may leave tables running for the next test.
           "PIGPARLOR_MAX_UNFINISHED_TABLES": "1000", "PIGPARLOR_TABLES_PER_MINUTE": "1000",
           # Every browser test's visitor is a guest from 127.0.0.1 (pigparlor/accounts/guests.py).
           "PIGPARLOR_GUESTS_PER_ADDRESS": "1000",
           "PIGPARLOR_MAX_OPEN_SEATS": "1000",
           "DJANGO_SETTINGS_MODULE": "pigparlor.settings", "PYTHONUNBUFFERED": "1"}
    env.pop("REDIS_URL", None)  # the shell's Redis only when asked for (``extra_env``)
    env.update(extra_env or {})
    if env["DATABASE_URL"] == f"sqlite:///{db_path}" and not db_path.exists():
        copy_sqlite(migrated_sqlite(), db_path)
    log = open(directory / "serve.log", "a")
    command = [sys.executable, str(ROOT / "manage.py"), "serve", "--host", "127.0.0.1", "--port", str(port)]
    if workers > 1:
        command += ["--workers", str(workers)]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + STARTUP_SECONDS
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"serve exited: {(directory / 'serve.log').read_text()[-2000:]}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                raise RuntimeError(f"serve did not start within {STARTUP_SECONDS} s") from None
            time.sleep(0.1)  # a poll: what is waited for is the port answering
    site = LiveSite(f"http://127.0.0.1:{port}")
    site.url, site.ws_url, site.db_path, site.env, site.process = str(site), f"ws://127.0.0.1:{port}", db_path, env, process
    site.log_path = directory / "serve.log"
    return site


def stop_site(site: LiveSite) -> None:
    site.process.terminate()
    try:
        site.process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        site.process.kill()
        site.process.wait()


@pytest.fixture(scope="session")
def live_site():
    with tempfile.TemporaryDirectory(prefix="pigparlor-live-") as directory:
        site = start_site(Path(directory))
        try:
            yield site
        finally:
            stop_site(site)


@pytest.fixture(autouse=True)
def _stop_the_tables_a_live_test_left(request):
    """A test on the session's ``live_site`` leaves its tables running: bots then play
    them to the end (at zero think time, as fast as the server's CPU goes) while
    later tests run, a background load that slowed the whole suite. Once the test is
    over, its own running tables (not tournaments') are stopped in the database; the
    clock only wakes running tables."""
    if "live_site" not in request.fixturenames:
        yield
        return
    path = request.getfixturevalue("live_site").db_path
    with sqlite3.connect(path, timeout=30) as db:
        first = db.execute("SELECT COALESCE(MAX(id), 0) FROM tables_table").fetchone()[0]
    yield
    with sqlite3.connect(path, timeout=30) as db:
        db.execute("UPDATE tables_table SET status = 'aborted', wake_at_ms = NULL WHERE id > ? AND status = 'running'"
                   " AND id NOT IN (SELECT table_id FROM tournaments_tournamenttable WHERE table_id IS NOT NULL)",
                   (first,))


@pytest.fixture(autouse=True)
def _fresh_table_caches():
    """Rolled-back tests reuse table ids; the per-process render caches must not
    carry one test's tables into the next."""
    from pigparlor.tables import rendering

    for cache in (rendering.SNAPSHOTS, rendering.SEATS, rendering.HTML, rendering.JSON):
        cache.items.clear()


# CI runs the same hypothesis examples every time, so a red run can be replayed exactly.
from hypothesis import settings as hypothesis_settings  # noqa: E402

hypothesis_settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")
