"""The suite's own rules (style.md 15): a test waits on a fact, never on time.

A wait on time — ``time.sleep``, ``asyncio.sleep``, Playwright's ``wait_for_timeout``, a
socket read "until it stays quiet" (``drain``, ``receive_nothing``, ``settle=``) — passes on
an idle machine and fails under load. Each file may hold only the waits ``ALLOWED`` names:
time itself under test (Oink!'s reaction windows, expiry, slow-call logging), a poll loop
whose pause is not what it waits for, and the waits not yet turned into facts (``DEBT``,
which only shrinks: lower a count when you remove one). A new one fails here.
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent
# A socket's ``drain`` reads until quiet; ``sender.drain()`` (pigparlor/pwa) runs queued jobs: a fact.
WAIT_ON_TIME = re.compile(r"\btime\.sleep\(|\basyncio\.sleep\(|\bwait_for_timeout\(|\bsettle=|(?<!\.)\bdrain\(|\breceive_nothing\(")

# Time under test, or a pause inside a loop that waits for a fact (with its comment there).
ALLOWED = {
    "conftest.py": 1,                       # start_site: polls the port until serve listens
    "support/sockets.py": 1,                # receive()'s poll: a short read that loops until its fact
    "tables/test_layer.py": 2,              # the layer's message expiry is what is tested
    "tables/test_outbox.py": 2,             # slow-call logging times a slow call
    "games/oink/test_fairness_sockets.py": 1,  # Oink!'s reaction windows: real time under test
    "e2e/test_oink_browser.py": 2,          # Oink! in real time: the page is polled between reveals
    "scaleout/test_faults.py": 4,           # a process killed and Redis restarted: their timing is the test
    "scaleout/test_supervisor.py": 1,       # the supervisor's restart backoff is timed
    "tournaments/programs.py": 1,           # an outside program polls the JSON API as documented
    "e2e/test_replay_browser.py": 1,        # a paused replay stays put over time
    "scaleout/test_tournament_race.py": 1,  # polls PostgreSQL for the tournament's end
    "scaleout/test_two_processes.py": 1,    # polls PostgreSQL for the sockets' counts
    "tournaments/test_serve.py": 1,         # polls the JSON API for the tournament's status
    "scaleout/test_socket_caps.py": 1,      # polls PostgreSQL for the presence rows
    "e2e/test_push_browser.py": 2,          # polls for the service worker's registration and the shown notification
}

# Waits on time not yet turned into waits on facts: only ever lower these.
DEBT: dict[str, int] = {}  # paid off: every wait on time left is in ALLOWED


def waits_on_time() -> Counter:
    found: Counter = Counter()
    for path in TESTS.rglob("*.py"):
        if path == Path(__file__).resolve():
            continue
        count = len(WAIT_ON_TIME.findall(path.read_text()))
        if count:
            found[path.relative_to(TESTS).as_posix()] = count
    return found


def test_no_test_waits_on_time_beyond_the_allowed_cases():
    limits = Counter(ALLOWED) + Counter(DEBT)
    over = {path: (count, limits[path]) for path, count in waits_on_time().items() if count > limits[path]}
    assert not over, ("waits on time (sleep, wait_for_timeout, settle=, drain, receive_nothing) beyond what "
                      f"tests/test_suite_rules.py allows, as (found, allowed): {over}; wait on a fact instead "
                      "(tests/support: until, frames_until, answered; wait_for_function, expect)")


def test_the_debt_list_shrinks_with_the_debt():
    found = waits_on_time()
    stale = {path: (found[path], allowed) for path, allowed in DEBT.items()
             if found[path] < allowed + ALLOWED.get(path, 0)}
    assert not stale, f"fewer waits on time than DEBT allows, as (found, listed): {stale}: lower DEBT"
