"""Tournament players as outside programs on the JSON protocol (docs/api.md):
each polls ``/api/tournaments/<id>/me/`` and, whenever it is ``playing``,
connects to its table's socket and plays random legal actions to the end."""
from __future__ import annotations

import json
import random
import secrets
import threading
import time
from datetime import UTC, datetime, timedelta

from websockets.sync.client import connect

from tests.api.test_e2e_serve import http

TOKENS = """
from django.contrib.auth import get_user_model
from pigparlor.api.tokens import create_token
User = get_user_model()
staff = User.objects.create_user(username="{prefix}staff", is_staff=True)
print(create_token(staff))
for n in range({count}):
    print(create_token(User.objects.create_user(username=f"{prefix}{{n:02d}}")))
"""


def make_accounts(site, count: int) -> tuple[str, list[tuple[str, str]]]:
    """A staff token and ``count`` players' (username, token), made in one ``manage.py shell``."""
    prefix = f"t{secrets.token_hex(3)}-"
    lines = site.manage("shell", "-c", TOKENS.format(prefix=prefix, count=count)).splitlines()[-(count + 1):]
    return lines[0], [(f"{prefix}{n:02d}", token) for n, token in enumerate(lines[1:])]

TOKEN_FOR = """
from django.contrib.auth import get_user_model
from pigparlor.api.tokens import create_token
print(create_token(get_user_model().objects.get(username={username!r})))
"""
START_SOON = """
from datetime import timedelta
from django.utils import timezone
from pigparlor.tournaments.models import Tournament
Tournament.objects.filter(pk={pk}).update(starts_at=timezone.now() + timedelta(seconds=2))
"""


def token_for(site, username: str) -> str:
    """An API token for an account made through the pages."""
    return site.manage("shell", "-c", TOKEN_FOR.format(username=username)).splitlines()[-1]


def play_from_the_start(site, tournament_id: int, players: list[tuple[str, str]], *, held: str | None = None,
                        hold: threading.Event | None = None) -> list[Program]:
    """A program for each (username, token), ``held``'s waiting on ``hold``; then the
    start is moved 2 s ahead and the server's clock starts the tournament."""
    programs = [Program(site, tournament_id, username, token, seed, hold=hold if username == held else None)
                for seed, (username, token) in enumerate(players)]
    for program in programs:
        program.start()
    site.manage("shell", "-c", START_SOON.format(pk=tournament_id))
    return programs


def iso_in(seconds: float) -> str:
    return (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat().replace("+00:00", "Z")


class Program(threading.Thread):
    """One player. ``never_connect`` never opens a table socket; ``leave_after``
    leaves (``POST /api/tables/<id>/leave/``) after that many of its own moves
    in its first game and never plays again. Given ``hold``, it makes no move before that
    event is set (a test that looks at the table first: the programs play fast)."""

    def __init__(self, site, tournament_id: int, username: str, token: str, seed: int, *,
                 leave_after: int | None = None, deadline_s: float = 1800,
                 hold: threading.Event | None = None):
        super().__init__(daemon=True)
        self.site, self.tournament_id, self.username, self.token = site, tournament_id, username, token
        self.rng = random.Random(seed)
        self.leave_after = leave_after
        self.hold = hold
        self.left_table: int | None = None
        self.deadline = time.monotonic() + deadline_s
        self.tables: list[int] = []
        self.final_status: str | None = None
        self.error: BaseException | None = None

    def run(self):
        try:
            self._run()
        except BaseException as failure:  # reported by the test
            self.error = failure

    def _run(self):
        while time.monotonic() < self.deadline:
            status, me = http(self.site, "GET", f"/api/tournaments/{self.tournament_id}/me/", self.token)
            assert status == 200, me
            if me["status"] in ("out", "done"):
                self.final_status = me["status"]
                return
            if me["status"] == "playing" and me["table"] not in self.tables and self.left_table is None:
                self.tables.append(me["table"])
                self.play(me["table"])
                continue
            time.sleep(1.0)  # a gentle poll: sixteen programs share one busy server
        raise AssertionError(f"{self.username} gave up waiting")

    def play(self, table_id: int) -> None:
        moves = 0
        headers = {"Authorization": f"Bearer {self.token}"}
        with connect(f"{self.site.ws_url}/ws/api/tables/{table_id}/", additional_headers=headers,
                     open_timeout=60) as socket:
            while True:
                frame = json.loads(socket.recv(timeout=120))
                if frame["type"] == "ping":
                    socket.send(json.dumps({"type": "pong", "id": frame["id"]}))
                    continue
                if frame["type"] == "error":
                    assert frame["code"] == "stale", frame
                    continue
                if "outcome" in frame or frame.get("status") == "finished":
                    return
                if frame["type"] == "state" and frame["legal"]:
                    if self.hold is not None and not self.hold.wait(timeout=120):
                        raise AssertionError(f"{self.username} was held for 120 s")
                    if self.leave_after is not None and moves >= self.leave_after:
                        status, _ = http(self.site, "POST", f"/api/tables/{table_id}/leave/", self.token)
                        assert status == 200
                        self.left_table = table_id
                        return
                    socket.send(json.dumps({"type": "act", "version": frame["version"],
                                            "action": self.rng.choice(frame["legal"])}))
                    moves += 1


def finish(programs: list[Program], site) -> None:
    for program in programs:
        program.join(timeout=max(1, program.deadline - time.monotonic()))
    failures = [f"{p.username}: {p.error!r}" for p in programs if p.error is not None or p.is_alive()]
    assert not failures, "\n".join(failures) + "\n" + site.log_path.read_text()[-3000:]
