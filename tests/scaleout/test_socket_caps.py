"""The socket caps hold across server processes, and a session's end closes its
sockets in every process: two ``serve`` processes on one PostgreSQL database
and one Redis, caps lowered to 3 (``PIGPARLOR_MAX_SOCKETS_PER_USER``,
``PIGPARLOR_MAX_SOCKETS_PER_ADDRESS``), sockets opened on both at once. The
sign-up limit (allauth's, in the database cache) counts both processes together."""
from __future__ import annotations

import re
import secrets
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path

import psycopg
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.api.test_e2e_serve import http
from tests.conftest import start_site, stop_site
from tests.scaleout.conftest import _forget_prefix

pytestmark = pytest.mark.scaleout
CAP, ATTEMPTS = 3, 8

SESSION = """
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
user = get_user_model().objects.get(username={name!r})
session = SessionStore()
session.update({{SESSION_KEY: str(user.pk), BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
                HASH_SESSION_KEY: user.get_session_auth_hash()}})
session.create()
print(session.session_key)
"""
NEW_PASSWORD = """
from django.contrib.auth import get_user_model
user = get_user_model().objects.get(username={name!r})
user.set_password("another-long-pig-pass-7")
user.save()
"""


@pytest.fixture(scope="module")
def capped_sites(scaleout_services, scaleout_database, tmp_path_factory):
    _, redis_url = scaleout_services
    prefix = f"pigparlor-test-{secrets.token_hex(4)}"
    env = {"DATABASE_URL": scaleout_database, "REDIS_URL": redis_url, "REDIS_PREFIX": prefix,
           "PIGPARLOR_MAX_SOCKETS_PER_USER": str(CAP), "PIGPARLOR_MAX_SOCKETS_PER_ADDRESS": str(CAP)}
    sites = []
    try:
        for name in ("a", "b"):
            sites.append(start_site(Path(tmp_path_factory.mktemp(f"capped-{name}")), env))
        yield tuple(sites)
    finally:
        for site in sites:
            stop_site(site)
        _forget_prefix(redis_url, prefix)


def player(sites) -> tuple[str, str, str]:
    """A new player: their name, an API token and a logged-in browser session's key."""
    name = f"capped-{secrets.token_hex(3)}"
    token = sites[0].manage("api_token", name, "--create")
    session_key = sites[0].manage("shell", "-c", SESSION.format(name=name)).splitlines()[-1]
    return name, token, session_key


def browser_socket(site, path: str, session_key: str | None = None):
    headers = {"Cookie": f"sessionid={session_key}"} if session_key else {}
    return connect(f"{site.ws_url}{path}", origin=site.url, additional_headers=headers, open_timeout=30)


def rows(database_url, kind: str, username: str | None = None) -> int:
    with psycopg.connect(database_url) as connection:
        if username is None:
            return connection.execute("SELECT count(*) FROM tables_presence WHERE kind = %s AND user_id IS NULL",
                                      [kind]).fetchone()[0]
        return connection.execute("SELECT count(*) FROM tables_presence p JOIN auth_user u ON u.id = p.user_id "
                                  "WHERE p.kind = %s AND u.username = %s", [kind, username]).fetchone()[0]


def until_rows(database_url, kind, username, wanted) -> None:
    """Wait for the database to hold ``wanted`` rows (a socket's end reaches it after its close)."""
    deadline = time.monotonic() + 30
    while rows(database_url, kind, username) != wanted:
        assert time.monotonic() < deadline, f"{kind} rows of {username} never became {wanted}"
        time.sleep(0.05)  # a poll: the rows are the fact waited for


def outcome(socket) -> str:
    """"accepted" (the socket's first frame is its page's content) or "refused" (it
    is told it is over the cap and closed with 4429)."""
    try:
        first = socket.recv(timeout=30)
    except ConnectionClosed as closed:
        raise AssertionError(f"closed before its first frame: {closed.rcvd} {closed.sent}") from closed
    if "connections open already" not in first:
        return "accepted"
    assert closed_with(socket) == 4429
    return "refused"


def closed_with(socket) -> int:
    """The code a socket is closed with, after whatever frames it got first."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            socket.recv(timeout=30)
    return closed.value.rcvd.code


def open_at_once(stack, sites, path, session_key=None) -> list:
    """``ATTEMPTS`` sockets opened together, alternately on each process (closed with ``stack``)."""
    with ThreadPoolExecutor(max_workers=ATTEMPTS) as pool:
        sockets = list(pool.map(lambda n: browser_socket(sites[n % 2], path, session_key), range(ATTEMPTS)))
    return [stack.enter_context(socket) for socket in sockets]


def test_one_accounts_lobby_sockets_opened_at_once_on_two_processes_stop_at_the_cap(capped_sites, scaleout_database):
    name, _, session_key = player(capped_sites)
    with ExitStack() as stack:
        sockets = open_at_once(stack, capped_sites, "/ws/lobby/pigpile/", session_key)
        assert sorted(outcome(socket) for socket in sockets) == ["accepted"] * CAP + ["refused"] * (ATTEMPTS - CAP)
        assert rows(scaleout_database, "lobby", name) == CAP


def test_a_visitor_addresss_table_sockets_opened_at_once_on_two_processes_stop_at_the_cap(capped_sites):
    _, token, _ = player(capped_sites)
    status, table = http(capped_sites[0], "POST", "/api/tables/", token, {"game": "pigpile", "seats": 4})
    assert status == 201
    with ExitStack() as stack:
        sockets = open_at_once(stack, capped_sites, table["ws"].replace("/api/", "/"))
        assert sorted(outcome(socket) for socket in sockets) == ["accepted"] * CAP + ["refused"] * (ATTEMPTS - CAP)


def test_player_sockets_count_across_processes_and_a_password_change_closes_them_on_both(
        capped_sites, scaleout_database):
    name, _, session_key = player(capped_sites)
    a, b = capped_sites
    with ExitStack() as stack:
        kept = []
        for site in (a, b, a):
            kept.append(stack.enter_context(browser_socket(site, "/ws/player/", session_key)))
            until_rows(scaleout_database, "player", name, len(kept))
        with browser_socket(b, "/ws/player/", session_key) as fourth:
            assert closed_with(fourth) == 4429
        kept.pop(0).close()
        until_rows(scaleout_database, "player", name, CAP - 1)
        kept.append(stack.enter_context(browser_socket(b, "/ws/player/", session_key)))
        until_rows(scaleout_database, "player", name, CAP)

        a.manage("shell", "-c", NEW_PASSWORD.format(name=name))  # another process: a management command
        for socket in kept:
            assert closed_with(socket) == 4401
        until_rows(scaleout_database, "player", name, 0)


def sign_up_post(site, csrf: str) -> int:
    """A sign-up form whose passwords differ: refused by the form (200), but allauth
    counts every sign-up POST from an address, 20 a minute."""
    body = urllib.parse.urlencode({"csrfmiddlewaretoken": csrf, "username": f"nobody-{secrets.token_hex(3)}",
                                   "password1": "a-long-pig-pass-1", "password2": "another-pig-pass-2"}).encode()
    request = urllib.request.Request(f"{site.url}/accounts/signup/", data=body,
                                     headers={"Cookie": f"csrftoken={csrf}"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as refusal:
        return refusal.code


def test_the_sign_up_limit_counts_both_processes_together(capped_sites):
    with urllib.request.urlopen(f"{capped_sites[0].url}/accounts/signup/", timeout=30) as page:
        csrf = re.search(r"csrftoken=([A-Za-z0-9]+)", page.headers["Set-Cookie"]).group(1)
    answers = [sign_up_post(capped_sites[n % 2], csrf) for n in range(20)]
    assert answers == [200] * 20
    assert [sign_up_post(site, csrf) for site in capped_sites] == [429, 429]
