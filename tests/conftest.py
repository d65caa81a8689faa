"""Fixtures shared by the whole suite.

- ``live_site``: the real server, ``manage.py serve`` in a subprocess on
  127.0.0.1 and a free port, with its own temporary SQLite file and
  PIGPARLOR_BOT_DELAY_MS=0. It is the base URL (a ``str``, e.g.
  ``"http://127.0.0.1:41234"``) with extras: ``.ws_url`` (``ws://…``),
  ``.db_path``, ``.log_path`` (the server's output), ``.env``, and ``.manage(*args)`` which runs a management command
  against the same database (``live_site.manage("api_token", "ana", "--create")``
  returns its stdout). One server per test session. ``start_site(directory,
  extra_env)`` starts more (``extra_env`` may set ``DATABASE_URL``, ``REDIS_URL``…).
- Tests marked ``scaleout`` need PostgreSQL and Redis (tests/scaleout/conftest.py);
  ``PIGPARLOR_NO_SCALEOUT=1`` deselects them, except under CI.
- ``count_game``: registers the tiny test game of ``tests/tables/countgame.py``.
- Every test runs with zero bot think time and a fast password hasher.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def pytest_collection_modifyitems(config, items):
    """``PIGPARLOR_NO_SCALEOUT=1`` deselects the scale-out tests (no PostgreSQL or
    Redis at hand), visibly: pytest counts them as deselected. Under CI (``CI``
    set) nothing is deselected, so missing services fail the run."""
    if os.environ.get("CI") or os.environ.get("PIGPARLOR_NO_SCALEOUT", "") in ("", "0"):
        return
    scaleout = [item for item in items if item.get_closest_marker("scaleout") is not None]
    if scaleout:
        config.hook.pytest_deselected(items=scaleout)
        items[:] = [item for item in items if item.get_closest_marker("scaleout") is None]


@pytest.fixture(autouse=True)
def _fast_tests(settings):
    settings.PIGPARLOR_BOT_DELAY_MS = 0
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def count_game(settings):
    from pigparlor.tables.registry import Game, register, unregister
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
                              capture_output=True, text=True, timeout=60, check=True)
        return done.stdout.strip()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_site(directory: Path, extra_env: dict | None = None, port: int | None = None) -> LiveSite:
    """A ``serve`` on ``port`` (a free one if None) with its database in ``directory``:
    the same directory and port again restart the same site."""
    port = port or free_port()
    db_path = directory / "live.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db_path}", "PIGPARLOR_BOT_DELAY_MS": "0",
           # Bots move instantly here, so a client answering every frame outpaces the real limit.
           "PIGPARLOR_WS_BURST": "200", "PIGPARLOR_WS_RATE": "100",
           # One session-wide server: a test's user may leave tables running for the next test.
           "PIGPARLOR_MAX_UNFINISHED_TABLES": "1000", "PIGPARLOR_TABLES_PER_MINUTE": "1000",
           "DJANGO_SETTINGS_MODULE": "pigparlor.settings", "PYTHONUNBUFFERED": "1"}
    env.pop("REDIS_URL", None)  # the shell's Redis only when asked for (``extra_env``)
    env.update(extra_env or {})
    log = open(directory / "serve.log", "a")
    process = subprocess.Popen([sys.executable, str(ROOT / "manage.py"), "serve", "--host", "127.0.0.1",
                                "--port", str(port)], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"serve exited: {(directory / 'serve.log').read_text()[-2000:]}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                raise RuntimeError("serve did not start within 60 s") from None
            time.sleep(0.1)
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
