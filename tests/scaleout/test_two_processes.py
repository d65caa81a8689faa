"""Scaled out for real: two ``manage.py serve`` processes share one PostgreSQL
database and one Redis channel layer; two API-token players sit at the same
Pig Pile table through different processes, two bots fill the other seats, and
both processes run their clock (so both race to fire the bots' moves). The same
game is played again on ``serve --workers 2`` (issue 14), the players' sockets
on its two different workers.

What must hold (design.md "Scale", "Tables: one door"):
- every action is applied once: the action log's versions are 2..N (version 1
  is the deal), no gap, no duplicate, and replaying it from the seed gives the
  committed state and outcome;
- each player hears every change made on either process: every state frame is
  exactly that seat's view at that version, versions only go up, a version gap
  is answered by asking for a snapshot, and no change is lost (a player left
  waiting would time out);
- both processes answer ``GET /api/tables/<id>/`` with the same finished outcome.
"""
from __future__ import annotations

import json
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import psycopg
import pytest
from websockets.sync.client import connect

from games.pigpile.bots import BOTS
from games.pigpile.engine import ENGINE
from tests.api.test_e2e_serve import http

pytestmark = pytest.mark.scaleout

# No frame for this long while the game runs means a broadcast was lost: bots
# move at once and every clock looks at the database at least once a second.
QUIET_SECONDS = 10
# A guard against a hung game, not a timing check: a game takes about 550
# actions, some 30 s on a quiet 2-core machine.
GAME_SECONDS = 300


@dataclass
class Heard:
    """What one player's socket received, in order."""

    seat: int | None = None
    frames: list[dict] = field(default_factory=list)
    gaps: list[tuple[int, int]] = field(default_factory=list)
    snapshots_asked: int = 0
    stale: int = 0
    silences: int = 0
    # (the last version heard before each silence, the version the snapshot then showed)
    silent_at: list[list[int | None]] = field(default_factory=list)


def open_table_socket(site, token: str, ws_path: str):
    return connect(f"{site.ws_url}{ws_path}", additional_headers={"Authorization": f"Bearer {token}"},
                   open_timeout=30)


def play(site, token: str, ws_path: str, rng: random.Random, first_frame: threading.Event, opened=None) -> Heard:
    """A player over the JSON protocol, playing like the sensible bot at each
    version it may act at; asks for a snapshot on a version gap (docs/api.md).
    ``opened``: a socket already open (and read from): it starts with a snapshot."""
    heard = Heard()
    acted_at = 0
    give_up = time.monotonic() + GAME_SECONDS
    with opened or open_table_socket(site, token, ws_path) as socket:
        if opened is not None:
            socket.send(json.dumps({"type": "snapshot"}))
        while time.monotonic() < give_up:
            try:
                frame = json.loads(socket.recv(timeout=QUIET_SECONDS))
            except TimeoutError:
                heard.silences += 1
                heard.silent_at.append([heard.frames[-1]["version"] if heard.frames else None, None])
                socket.send(json.dumps({"type": "snapshot"}))
                continue
            if frame["type"] == "error":
                assert frame["code"] == "stale", frame
                heard.stale += 1
                continue
            last = heard.frames[-1]["version"] if heard.frames else None
            if heard.silent_at and heard.silent_at[-1][1] is None:
                heard.silent_at[-1][1] = frame["version"]
            heard.frames.append(frame)
            heard.seat = frame["seat"]
            first_frame.set()
            if last is not None and frame["version"] > last + 1:
                heard.gaps.append((last, frame["version"]))
                heard.snapshots_asked += 1
                socket.send(json.dumps({"type": "snapshot"}))
            if "outcome" in frame:
                return heard
            if frame["legal"] and frame["version"] > acted_at:
                acted_at = frame["version"]
                action = BOTS["sensible"].choose(frame["view"], frame["legal"], rng)
                socket.send(json.dumps({"type": "act", "version": frame["version"], "action": action}))
    raise AssertionError(f"no outcome within {GAME_SECONDS} s; last frame {heard.frames[-1:]}")


def committed(database_url: str, table_id: int) -> tuple[dict, list[tuple]]:
    """The table row and its action log, straight from PostgreSQL."""
    with psycopg.connect(database_url) as db:
        columns = ("seats", "seed", "options", "version", "status", "state", "outcome", "started_at_ms")
        row = db.execute(f"SELECT {', '.join(columns)} FROM tables_table WHERE id = %s", (table_id,)).fetchone()
        log = db.execute("SELECT version, seat, action, at_ms, user_id FROM tables_actionlog "
                         "WHERE table_id = %s ORDER BY version, id", (table_id,)).fetchall()
    return dict(zip(columns, row)), log


def user_ids(database_url: str, *names: str) -> dict[str, int]:
    with psycopg.connect(database_url) as db:
        rows = db.execute("SELECT username, id FROM auth_user WHERE username = ANY(%s)", (list(names),)).fetchall()
    return dict(rows)


def connections(database_url: str, table_id: int) -> list[int]:
    with psycopg.connect(database_url) as db:
        rows = db.execute("SELECT connections FROM tables_seat WHERE table_id = %s ORDER BY index",
                          (table_id,)).fetchall()
    return [count for (count,) in rows]


def as_json(value):
    return json.loads(json.dumps(value))


def states_by_version(table: dict, log: list[tuple]) -> dict[int, object]:
    """Replay the log from the seed: the engine state at every version."""
    state = ENGINE.start(table["seats"], table["seed"], table["options"])
    states = {1: state}
    for version, seat, action, at_ms, _user in log:
        state = ENGINE.apply(state, seat, action, at_ms - table["started_at_ms"])
        states[version] = state
    return states


def presence_processes(database_url: str, table_id: int, username: str) -> list[str]:
    """The server processes holding ``username``'s sockets at the table."""
    with psycopg.connect(database_url) as db:
        rows = db.execute("SELECT p.process FROM tables_presence p JOIN auth_user u ON u.id = p.user_id "
                          "WHERE p.table_id = %s AND u.username = %s", (table_id, username)).fetchall()
    return [process for (process,) in rows]


def socket_on_another_worker(site, token: str, ws_path: str, database_url: str, table_id: int,
                             username: str, avoid: str):
    """Open sockets until one lands on a worker other than ``avoid`` (the kernel
    picks which worker accepts); the ones that landed on ``avoid`` are closed."""
    tried = []
    for _ in range(40):
        socket = open_table_socket(site, token, ws_path)
        json.loads(socket.recv(timeout=30))  # the first frame: the presence row is written
        if set(presence_processes(database_url, table_id, username)) - {avoid}:
            for other in tried:
                other.close()
            return socket
        tried.append(socket)
    raise AssertionError("40 sockets in a row landed on the same worker")


def test_two_players_on_two_processes_play_a_whole_pig_pile_table(two_sites, scaleout_database):
    site_a, site_b = two_sites
    assert site_a.process.pid != site_b.process.pid and site_a.url != site_b.url
    play_a_whole_table(site_a, site_b, scaleout_database, ana_name="ana", ben_name="ben")


def test_two_players_on_two_workers_play_a_whole_pig_pile_table(two_workers, workers_database):
    """``serve --workers 2``: one address, two processes; ana and ben on different ones."""
    play_a_whole_table(two_workers, two_workers, workers_database, ana_name="wanda", ben_name="wes",
                       on_another_worker=True)


def play_a_whole_table(site_a, site_b, scaleout_database, *, ana_name, ben_name, on_another_worker=False):
    """Ana creates a table on ``site_a`` and plays it, Ben joins and plays it on
    ``site_b`` (with ``on_another_worker``, on a worker other than Ana's); two bots
    fill the rest. Everything the module docstring promises is checked."""
    sites = {site_a, site_b}
    ana = site_a.manage("api_token", ana_name, "--create")
    ben = site_b.manage("api_token", ben_name, "--create")

    status, created = http(site_a, "POST", "/api/tables/", ana, {"game": "pigpile", "seats": 4, "bots": 2})
    assert status == 201, created
    table_id = created["id"]
    ana_ready, ben_ready = threading.Event(), threading.Event()
    with ThreadPoolExecutor(max_workers=2) as pool:
        ana_plays = pool.submit(play, site_a, ana, created["ws"], random.Random(1), ana_ready)
        assert ana_ready.wait(30), "ana's socket got no first frame"
        status, joined = http(site_b, "POST", f"/api/tables/{table_id}/join/", ben, {})
        assert status == 200 and joined["seat"] == 1, joined
        opened = None
        if on_another_worker:
            [ana_process] = presence_processes(scaleout_database, table_id, ana_name)
            opened = socket_on_another_worker(site_b, ben, joined["ws"], scaleout_database, table_id, ben_name,
                                              ana_process)
        ben_plays = pool.submit(play, site_b, ben, joined["ws"], random.Random(2), ben_ready, opened)
        try:
            heard = {"ana": ana_plays.result(), "ben": ben_plays.result()}
        except Exception as failure:
            logs = "\n".join(site.log_path.read_text()[-2000:] for site in sites)
            raise AssertionError(f"a player failed; the servers said:\n{logs}") from failure

    table, log = committed(scaleout_database, table_id)
    # Every action applied once: versions 2..N, each once (version 1 is the deal).
    assert table["status"] == "finished" and table["outcome"] is not None
    assert [row[0] for row in log] == list(range(2, table["version"] + 1))
    states = states_by_version(table, log)
    final = states[table["version"]]
    assert as_json(ENGINE.dump(final)) == table["state"]
    # The engine's result is the ranks and scores; "left" and "left_early" are the platform's (docs/ratings.md).
    assert ENGINE.outcome(final).as_json() == {key: table["outcome"][key] for key in ("ranks", "scores")}
    assert table["outcome"]["left"] == table["outcome"]["left_early"] == []

    # The humans' seats were played by the humans themselves, the bots' by the platform.
    ids = user_ids(scaleout_database, ana_name, ben_name)
    assert heard["ana"].seat == 0 and heard["ben"].seat == 1
    owners = {0: ids[ana_name], 1: ids[ben_name], 2: None, 3: None}
    assert all(user == owners[seat] for _version, seat, _action, _at, user in log if seat is not None)
    assert {seat for _version, seat, *_ in log} >= {0, 1, 2, 3}

    for name, player in heard.items():
        versions = [frame["version"] for frame in player.frames]
        # Ana's first frame is the open table; she hears the start from process B.
        assert name != "ana" or versions[0] == 0
        assert versions == sorted(versions) and versions[-1] == table["version"], (name, versions)
        if player.silences:
            logs = "\n".join(site.log_path.read_text()[-3000:] for site in sites)
            raise AssertionError(f"{name} waited {QUIET_SECONDS} s for a change that never came, "
                                 f"{player.silences} times (last version heard, then the snapshot's): "
                                 f"{player.silent_at}; the servers said:\n{logs}")
        assert player.snapshots_asked == len(player.gaps)
        assert player.frames[-1]["outcome"] == table["outcome"]
        for frame in player.frames:
            if frame["version"] == 0:
                assert frame["status"] == "open" and frame["view"] is None
                continue
            state = states[frame["version"]]
            assert frame["view"] == as_json(ENGINE.view(state, player.seat)), (name, frame["version"])
            assert frame["legal"] == as_json(ENGINE.legal_actions(state, player.seat)), (name, frame["version"])

    for site in sites:
        status, described = http(site, "GET", f"/api/tables/{table_id}/", ana)
        assert status == 200 and described["status"] == "finished", described
        assert described["outcome"] == table["outcome"] and described["version"] == table["version"]

    # Each process counted its own socket in the database and took it back on close.
    deadline = time.monotonic() + 10
    while connections(scaleout_database, table_id)[:2] != [0, 0] and time.monotonic() < deadline:
        time.sleep(0.1)  # a poll between reads of the fact (the seats' connection counts)
    assert connections(scaleout_database, table_id)[:2] == [0, 0]


def test_a_quiet_socket_outlives_redis_blocking_reads(two_sites):
    """A socket that hears nothing for longer than channels_redis' blocking pop
    (5 s) stays open and still hears the next change, made on the other process.
    With redis-py 8's default 5 s socket timeout its consumer crashed (1011)."""
    site_a, site_b = two_sites
    cy = site_a.manage("api_token", "cy", "--create")
    di = site_b.manage("api_token", "di", "--create")
    status, created = http(site_a, "POST", "/api/tables/", cy, {"game": "pigpile", "seats": 4, "bots": 2})
    assert status == 201, created
    with connect(f"{site_b.ws_url}{created['ws']}", additional_headers={"Authorization": f"Bearer {cy}"},
                 open_timeout=30) as socket:
        assert json.loads(socket.recv(timeout=30))["version"] == 0
        with pytest.raises(TimeoutError):
            socket.recv(timeout=8)
        status, joined = http(site_a, "POST", f"/api/tables/{created['id']}/join/", di, {})
        assert status == 200, joined
        frame = json.loads(socket.recv(timeout=30))
        assert frame["type"] == "state" and frame["status"] == "running" and frame["version"] >= 1
