"""``serve --workers 2`` keeps the site up while a worker crashes: the dead
worker is started again after a backoff while the other serves on, and one
that keeps failing is given up with a line saying so, the other still serving.
The backoff is shortened (``PIGPARLOR_WORKER_BACKOFF_MS``) so the test is
quick; every wait is for a line of the supervisor's log or an HTTP answer."""
from __future__ import annotations

import os
import re
import secrets
import signal
import time
import urllib.request
from contextlib import contextmanager

from pigparlor.tables.management.commands.serve import FAILURES_TO_GIVE_UP
from tests.conftest import start_site, stop_site
from tests.scaleout.conftest import _forget_prefix


@contextmanager
def two_worker_site(scaleout_services, tmp_path):
    _, redis_url = scaleout_services
    prefix = f"pigparlor-test-{secrets.token_hex(4)}"
    site = start_site(tmp_path, {"REDIS_URL": redis_url, "REDIS_PREFIX": prefix,
                                 "PIGPARLOR_WORKER_BACKOFF_MS": "50"}, workers=2)
    try:
        yield site
    finally:
        stop_site(site)
        _forget_prefix(redis_url, prefix)


def log_match(site, pattern: str) -> re.Match:
    """The first match of ``pattern`` in the supervisor's log, once it is written
    (or the log so far, if the supervisor exits or a minute passes)."""
    deadline = time.monotonic() + 60
    while True:
        found = re.search(pattern, site.log_path.read_text())
        if found:
            return found
        assert site.process.poll() is None and time.monotonic() < deadline, site.log_path.read_text()[-3000:]
        time.sleep(0.05)


def answers(site) -> None:
    """A page, on a new connection: whichever worker accepts it answers."""
    with urllib.request.urlopen(f"{site.url}/accounts/login/", timeout=60) as response:
        assert response.status == 200


def kill_and_see_replacement(site, pid: int) -> int:
    os.kill(pid, signal.SIGKILL)
    return int(log_match(site, rf"worker (\d+) started \(replacing {pid}\)")[1])


def test_a_worker_killed_twice_as_it_starts_comes_back_while_the_other_serves(scaleout_services, tmp_path):
    with two_worker_site(scaleout_services, tmp_path) as site:
        first, other = map(int, log_match(site, r"with 2 workers \(pids (\d+) (\d+);").groups())
        answers(site)
        second = kill_and_see_replacement(site, first)
        answers(site)
        third = kill_and_see_replacement(site, second)
        answers(site)
        # With the healthy worker paused, only the newest one can take the connection.
        os.kill(other, signal.SIGSTOP)
        try:
            answers(site)
        finally:
            os.kill(other, signal.SIGCONT)
        assert site.process.poll() is None
        log = site.log_path.read_text()
        assert f"worker {third} exited" not in log and f"worker {other} exited" not in log


def test_a_worker_that_keeps_failing_is_given_up_and_the_other_serves_on(scaleout_services, tmp_path):
    with two_worker_site(scaleout_services, tmp_path) as site:
        failing, other = map(int, log_match(site, r"with 2 workers \(pids (\d+) (\d+);").groups())
        for _ in range(FAILURES_TO_GIVE_UP - 1):
            failing = kill_and_see_replacement(site, failing)
            answers(site)
        os.kill(failing, signal.SIGKILL)
        log_match(site, rf"worker {failing} exited \(-9\) [\d.]+ s after its start, {FAILURES_TO_GIVE_UP} failed "
                        r"starts within 300 s: giving it up \(the other workers serve on\)")
        answers(site)  # by the other worker, the only one left
        assert site.process.poll() is None, "the supervisor serves on with one worker"
        assert f"worker {other} exited" not in site.log_path.read_text()
        assert "started (replacing" not in site.log_path.read_text().split(f"worker {failing} exited")[-1]
