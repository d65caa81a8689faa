"""Proof under faults (issue 9): two ``serve`` processes on PostgreSQL and a
Redis of the test's own; JSON players and bots play several Pig Pile tables
while one process is killed with ``kill -9`` and restarted, again and again,
and Redis itself is restarted.

Every fault is injected when a fact holds, never after a delay, so a slow or
busy machine cannot make the games outrun it:
- process A is killed once a player's socket is open on A, its game is not
  over, and its table has moved on since the last kill (``FaultPlan``);
- while A is down, the players hold their moves (bots and the clock may still
  move); once A is back the players whose home is A go back to it, play again,
  and the next kill waits for the same fact;
- Redis is restarted once a change's frame has crossed it (a player heard a
  broadcast after A came back), while the players keep playing.

What must hold:
- every table finishes;
- no action is lost or applied twice: each log's versions run 2..N without a
  gap, and replaying it from the seed gives the committed state and outcome;
- every state frame a player saw is exactly its seat's view of the replayed
  state at that version (nothing a client saw was lost or rewritten);
- afterwards no seat is "connected" without a live socket, and no presence
  row of the killed processes is left.
"""
from __future__ import annotations

import json
import random
import shutil
import signal
import socket as sockets
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import pytest
from websockets.exceptions import WebSocketException
from websockets.sync.client import connect

from games.pigpile.bots import BOTS
from games.pigpile.engine import ENGINE
from tests.api.test_e2e_serve import http
from tests.conftest import free_port, start_site, stop_site
from tests.scaleout.conftest import fresh_database
from tests.scaleout.test_two_processes import as_json, committed, states_by_version

pytestmark = pytest.mark.scaleout

TABLES = 3
KILLS = 3
# Versions a table moves between two kills: spreads the kills over the game.
MOVES_BETWEEN_KILLS = 4
# Guards against a hung run, not timing checks.
GAME_SECONDS = 300
QUIET_SECONDS = 5
# Short beats, expiry and grace, so a killed process's sockets are swept and an
# absent player's seat handed to a bot within the test's few seconds.
FAST_PRESENCE = {"PIGPARLOR_PRESENCE_BEAT_MS": "300", "PIGPARLOR_PRESENCE_EXPIRY_MS": "1500",
                 "PIGPARLOR_SEAT_GRACE_MS": "2000", "PIGPARLOR_BOT_DELAY_MS": "0"}


class OwnRedis:
    """A redis-server of the test's own on a free port, so restarting it
    disturbs nobody else's tests."""

    def __init__(self, directory: Path):
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail("the fault test needs redis-server on the PATH (Debian's redis-server package)",
                        pytrace=False)
        self.binary, self.directory, self.port = binary, directory, free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.directory)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while True:
            try:
                sockets.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)  # a poll: what is waited for is the port answering

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@pytest.fixture
def fault_database(scaleout_services):
    with fresh_database(scaleout_services[0], "pigparlor_fault") as url:
        yield url


class FaultPlan:
    """What the players tell the fault loop, under one lock: where each socket is
    open and what it last heard. The fault loop waits on these facts (``wait_for``)
    and kills while it holds the lock, so no player can change them in between."""

    def __init__(self):
        self.facts = threading.Condition()
        self.may_act = threading.Event()  # cleared while A is down: the players hold their moves
        self.may_act.set()
        self.rehome = False  # set once A is back: players whose home is A reconnect to it

    def changed(self) -> None:
        with self.facts:
            self.facts.notify_all()


@dataclass
class Player:
    """A program on the JSON protocol that survives its server dying: it
    reconnects (to its own process, or the other one while its own is down)
    and carries on from the snapshot every new socket gets."""

    name: str
    token: str
    ws_path: str
    homes: list  # the sites' base URLs to try, its own first
    rng: random.Random
    plan: FaultPlan
    frames: list[dict] = field(default_factory=list)
    seat: int | None = None
    reconnects: int = 0
    refusals: list[dict] = field(default_factory=list)
    on: str | None = None  # the site whose socket this player has open, once it heard a frame there
    heard_on_socket: int = 0  # frames heard on this socket beyond its first (broadcasts, not the snapshot)
    over: bool = False

    def hear(self, site: str | None, frame: dict | None) -> None:
        with self.plan.facts:
            if frame is None:
                self.on, self.heard_on_socket = None, 0
            else:
                self.heard_on_socket += 0 if self.on is None else 1
                self.on = site
                self.frames.append(frame)
                self.seat = frame["seat"]
                self.over = "outcome" in frame
            self.plan.facts.notify_all()

    def play(self, stop: threading.Event) -> None:
        give_up = time.monotonic() + GAME_SECONDS
        attempt = 0
        while time.monotonic() < give_up and not stop.is_set():
            site = self.homes[attempt % len(self.homes)]
            try:
                with connect(f"{site.ws_url}{self.ws_path}", open_timeout=5,
                             additional_headers={"Authorization": f"Bearer {self.token}"}) as socket:
                    attempt = 0
                    # A move sent on a socket whose process died may never have arrived: on a new
                    # socket the player answers the snapshot again (a stale answer is refused).
                    acted_at = 0
                    while time.monotonic() < give_up:
                        if self.plan.rehome and site.url != self.homes[0].url:
                            break  # its own process is back: go home (a balancer's choice, not a fault)
                        try:
                            frame = json.loads(socket.recv(timeout=QUIET_SECONDS))
                        except TimeoutError:
                            socket.send(json.dumps({"type": "snapshot"}))
                            continue
                        if frame["type"] == "error":
                            self.refusals.append(frame)
                            continue
                        if frame["type"] != "state":
                            continue
                        self.hear(site.url, frame)
                        if "outcome" in frame:
                            self.hear(None, None)
                            return
                        if frame["legal"] and frame["version"] > acted_at:
                            assert self.plan.may_act.wait(GAME_SECONDS), "A never came back"
                            acted_at = frame["version"]
                            action = BOTS["sensible"].choose(frame["view"], frame["legal"], self.rng)
                            socket.send(json.dumps({"type": "act", "version": frame["version"], "action": action}))
                self.hear(None, None)
            except (OSError, WebSocketException, TimeoutError):
                self.hear(None, None)
                self.reconnects += 1
                attempt += 1
                time.sleep(0.1 + self.rng.random() * 0.2)  # a reconnect's backoff, as a client's
        if not stop.is_set():
            raise AssertionError(f"{self.name}: no outcome within {GAME_SECONDS} s; last frame {self.frames[-1:]}")


def leftovers(database_url: str, table_ids: list[int]) -> tuple[list, list]:
    with psycopg.connect(database_url) as db:
        presence = db.execute("SELECT process, table_id FROM tables_presence").fetchall()
        connected = db.execute("SELECT table_id, index, connections FROM tables_seat "
                               "WHERE table_id = ANY(%s) AND connections > 0", (table_ids,)).fetchall()
    return presence, connected


@pytest.mark.long
def test_kill_nine_and_a_redis_restart_lose_nothing(scaleout_services, fault_database, tmp_path):
    redis = OwnRedis(tmp_path)
    redis.start()
    env = {"DATABASE_URL": fault_database, "REDIS_URL": redis.url, "REDIS_PREFIX": "fault", **FAST_PRESENCE}
    dirs = {name: tmp_path / f"serve-{name}" for name in "ab"}
    for directory in dirs.values():
        directory.mkdir()
    site_a, site_b = start_site(dirs["a"], env), start_site(dirs["b"], env)
    port_a = int(site_a.rsplit(":", 1)[1])
    sites = {"a": site_a, "b": site_b}
    stop = threading.Event()
    plan = FaultPlan()
    faults: list[str] = []
    try:
        players, table_ids = [], []
        for number in range(TABLES):
            host, guest = (site_a.manage("api_token", f"host{number}", "--create"),
                           site_a.manage("api_token", f"guest{number}", "--create"))
            # The longest turn timer: while A is down the players hold their moves, and the clock
            # must not play for them then (it would hand their seats to bots and end the games).
            status, created = http(site_b, "POST", "/api/tables/", host, {
                "game": "pigpile", "seats": 3, "bots": 1, "options": {"turn_seconds": 600}})
            assert status == 201, created
            status, joined = http(site_b, "POST", f"/api/tables/{created['id']}/join/", guest, {})
            assert status == 200, joined
            table_ids.append(created["id"])
            players += [Player(f"host{number}", host, created["ws"], [site_a, site_b], random.Random(number), plan),
                        Player(f"guest{number}", guest, created["ws"], [site_b, site_a], random.Random(-number),
                               plan)]
        table_of = {player.name: table_ids[int(player.name.removeprefix("host").removeprefix("guest"))]
                    for player in players}

        def table_versions() -> dict[int, int]:
            versions: dict[int, int] = {}
            for player in players:
                if player.frames:
                    table = table_of[player.name]
                    versions[table] = max(versions.get(table, 0), player.frames[-1]["version"])
            return versions

        at_last_kill: dict[int, int] = {}

        def wait_for(fact, what: str) -> None:
            """Holds the plan's lock on return, with ``fact()`` true (the caller acts, then releases)."""
            plan.facts.acquire()
            plan.facts.wait_for(lambda: fact() or stop.is_set() or all(player.over for player in players),
                                timeout=GAME_SECONDS)
            if not fact():
                plan.facts.release()
                seen = [(player.name, player.on, player.over, player.frames[-1]["version"] if player.frames else None,
                         player.reconnects) for player in players]
                raise AssertionError(f"{what} never held (faults so far: {faults}; the players: {seen}; "
                                     f"the tables at the last kill: {at_last_kill})")

        def fault_loop():
            """kill -9 process A while a player plays on it, bring it back, send its players home;
            restart Redis once a frame has crossed it."""

            def a_player_moved_on_a() -> bool:
                versions = table_versions()
                return any(player.on == sites["a"].url and not player.over
                           and versions[table_of[player.name]] >= at_last_kill.get(table_of[player.name], 0)
                           + MOVES_BETWEEN_KILLS for player in players)

            for kill in range(KILLS):
                wait_for(a_player_moved_on_a, f"kill {kill + 1}: a player on A whose table moved on")
                try:
                    plan.may_act.clear()
                    plan.rehome = False
                    sites["a"].process.send_signal(signal.SIGKILL)
                    at_last_kill.update(table_versions())
                finally:
                    plan.facts.release()
                sites["a"].process.wait()
                faults.append(f"kill -9 A #{kill + 1}")
                sites["a"] = start_site(dirs["a"], env, port=port_a)
                plan.rehome = True
                plan.may_act.set()
                plan.changed()
                if kill == 1:
                    wait_for(lambda: any(player.on == sites["a"].url and player.heard_on_socket for player in players),
                             "a broadcast heard from the restarted A (a frame that crossed Redis)")
                    plan.facts.release()
                    redis.stop()
                    faults.append("redis down")
                    redis.start()
                    faults.append("redis up")

        with ThreadPoolExecutor(max_workers=len(players) + 1) as pool:
            chaos = pool.submit(fault_loop)
            games = [pool.submit(player.play, stop) for player in players]
            try:
                chaos.result()
                for game in games:
                    game.result()
            except Exception as failure:
                logs = "\n".join(site.log_path.read_text()[-3000:] for site in sites.values())
                raise AssertionError(f"a player failed after {faults}; the servers said:\n{logs}") from failure
            finally:
                stop.set()
                plan.may_act.set()
                plan.changed()
        assert faults == [f"kill -9 A #{n}" for n in (1, 2)] + ["redis down", "redis up", "kill -9 A #3"], faults

        for table_id in table_ids:
            table, log = committed(fault_database, table_id)
            assert table["status"] == "finished" and table["outcome"] is not None
            assert [row[0] for row in log] == list(range(2, table["version"] + 1)), "a version lost or doubled"
            states = states_by_version(table, log)
            final = states[table["version"]]
            assert as_json(ENGINE.dump(final)) == table["state"]
            engine_outcome = {key: table["outcome"][key] for key in ("ranks", "scores")}
            assert ENGINE.outcome(final).as_json() == engine_outcome  # "left", "left_early" are the platform's
        seen = 0
        for player in players:
            table, log = committed(fault_database, table_of[player.name])
            states = states_by_version(table, log)
            for frame in player.frames:
                if frame["version"] >= 1:
                    state = states[frame["version"]]
                    assert frame["view"] == as_json(ENGINE.view(state, player.seat)), (player.name, frame["version"])
                    seen += 1
            assert player.frames[-1]["outcome"] == table["outcome"]
            assert all(refusal["code"] in ("stale", "illegal") for refusal in player.refusals), player.refusals
        assert seen > 100
        # Each kill was made while a player's socket was open on A (the fact it waited for): its socket broke.
        assert sum(player.reconnects for player in players) >= KILLS, "a kill reached no player"

        deadline = time.monotonic() + 15
        while leftovers(fault_database, table_ids) != ([], []) and time.monotonic() < deadline:
            time.sleep(0.2)  # a poll between reads of the fact (the presence rows)
        assert leftovers(fault_database, table_ids) == ([], []), "a seat stayed connected without a live socket"
    finally:
        stop.set()
        plan.may_act.set()
        for site in sites.values():
            stop_site(site)
        redis.stop()
