"""Live tables over real sockets: action-to-update latency, throughput, server load.

Starts ``manage.py serve`` on 127.0.0.1 with a fresh SQLite file (or uses one
already running with ``--url`` and the same ``DATABASE_URL``), creates N 4-seat
tables whose every seat is a JSON-protocol socket client (no bots), and plays
legal moves: one action every ``--pace`` seconds per table, or flat out (each
table acts again as soon as all four seats hold the previous update).

Latency = from sending an act to the moment all four seats of that table hold
the new version. Prints p50/p99, actions/s, errors, and the server process's
CPU (share of one core) and resident memory. Only ever talks to 127.0.0.1.

    .venv/bin/python bench/tables.py                       # N = 10 50 200 500, then flat out at 50
    .venv/bin/python bench/tables.py --tables 10 --seconds 10 --flat-out 10
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psutil
import websockets
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
SEATS = 4
STATE_PREFIX = '{"type":"state","version":'


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(directory: Path, extra_env: dict | None = None) -> tuple[subprocess.Popen, str, dict]:
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{directory / 'bench.sqlite3'}", "PIGPARLOR_BOT_DELAY_MS": "0",
           "DJANGO_DEBUG": "0", "DJANGO_SETTINGS_MODULE": "pigparlor.settings"}
    env.pop("REDIS_URL", None)
    env.update(extra_env or {})
    log = open(directory / "serve.log", "w")
    process = subprocess.Popen([sys.executable, str(ROOT / "manage.py"), "serve", "--port", str(port)],
                               cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    for _ in range(600):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return process, f"http://127.0.0.1:{port}", env
        except OSError:
            if process.poll() is not None:
                raise SystemExit(f"serve exited: {(directory / 'serve.log').read_text()[-2000:]}")
            time.sleep(0.1)
    raise SystemExit("serve did not start")


def make_tokens(count: int, env: dict) -> list[str]:
    """Fresh API tokens for bench users (through the ORM, on the server's database)."""
    os.environ.update({key: env[key] for key in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE") if key in env})
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from pigparlor.api.tokens import create_token

    User = get_user_model()
    existing = set(User.objects.filter(username__startswith="bench-").values_list("username", flat=True))
    User.objects.bulk_create(User(username=f"bench-{index}") for index in range(count)
                             if f"bench-{index}" not in existing)
    users = {user.username: user for user in User.objects.filter(username__startswith="bench-")}
    return [create_token(users[f"bench-{index}"]) for index in range(count)]


def post(base: str, path: str, token: str, body: dict) -> dict:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def open_tables(base: str, game: str, tokens: list[str]) -> list[int]:
    """One table per four tokens: the first creates it, the others join (it starts when full)."""
    groups = [tokens[index:index + SEATS] for index in range(0, len(tokens), SEATS)]

    def one(group):
        table_id = post(base, "/api/tables/", group[0], {"game": game, "seats": SEATS, "bots": 0})["id"]
        for token in group[1:]:
            post(base, f"/api/tables/{table_id}/join/", token, {})
        return table_id

    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(one, groups))


class Table:
    """Four seat sockets; one pacer sends each act and times its fan-out."""

    def __init__(self, table_id: int, tokens: list[str], rng: random.Random):
        self.table_id, self.tokens, self.rng = table_id, tokens, rng
        self.frames: list[str | None] = [None] * SEATS
        self.held = [0] * SEATS
        self.updated = asyncio.Event()
        self.sockets = []
        self.finished = False

    async def connect(self, ws_base: str, stats):
        for token in self.tokens:
            for attempt in range(5):
                try:
                    socket_ = await connect(f"{ws_base}/ws/api/tables/{self.table_id}/", max_size=2 ** 22,
                                            open_timeout=30, additional_headers={"Authorization": f"Bearer {token}"})
                    break
                except (OSError, asyncio.TimeoutError, websockets.exceptions.WebSocketException):
                    stats["reconnects"] += 1
                    await asyncio.sleep(0.5 * (attempt + 1))
            else:
                raise SystemExit(f"could not connect to table {self.table_id}")
            self.sockets.append(socket_)

    async def listen(self, seat: int, stats):
        # The client must not be the bottleneck: read the version off the front of
        # each frame ({"type":"state","version":N,...}, the server's key order) and
        # parse a frame only when the pacer acts on it.
        async for text in self.sockets[seat]:
            if text.startswith(STATE_PREFIX):
                self.frames[seat] = text
                self.held[seat] = int(text[len(STATE_PREFIX):text.index(",", len(STATE_PREFIX))])
                self.finished = self.finished or '"outcome":' in text
                self.updated.set()
            elif text.startswith('{"type":"error"'):
                stats["errors"] += 1
                self.updated.set()

    async def all_hold(self, version: int, timeout: float) -> bool:
        end = time.perf_counter() + timeout
        while min(self.held) < version:
            self.updated.clear()
            left = end - time.perf_counter()
            if left <= 0:
                return False
            try:
                await asyncio.wait_for(self.updated.wait(), left)
            except asyncio.TimeoutError:
                return False
        return True

    def pick_mover(self) -> tuple[int, dict | None]:
        """A seat with legal actions and its parsed state, or (-1, None)."""
        movers = [seat for seat, text in enumerate(self.frames) if text and '"legal":[]' not in text]
        if not movers:
            return -1, None
        seat = self.rng.choice(movers)
        frame = json.loads(self.frames[seat])
        return (seat, frame) if frame["legal"] else (-1, None)

    async def play(self, stats, pace: float, until: float):
        await asyncio.sleep(self.rng.random() * pace)  # spread the tables over the period
        while time.perf_counter() < until and not self.finished:
            started = time.perf_counter()
            seat, frame = self.pick_mover()
            if frame is not None:
                await self.sockets[seat].send(json.dumps(
                    {"type": "act", "version": frame["version"], "action": self.rng.choice(frame["legal"])}))
                if await self.all_hold(frame["version"] + 1, 10):
                    stats["latencies"].append(time.perf_counter() - started)
                else:
                    stats["timeouts"] += 1
            else:
                self.updated.clear()
                try:
                    await asyncio.wait_for(self.updated.wait(), 1)
                except asyncio.TimeoutError:
                    pass
            if pace:
                await asyncio.sleep(max(0.0, pace - (time.perf_counter() - started)))

    async def close(self):
        await asyncio.gather(*(socket_.close() for socket_ in self.sockets), return_exceptions=True)


async def run(base: str, server: psutil.Process, game: str, tokens: list[str], pace: float, seconds: float) -> dict:
    table_ids = await asyncio.to_thread(open_tables, base, game, tokens)
    rng = random.Random(len(table_ids))
    tables = [Table(table_id, tokens[index * SEATS:(index + 1) * SEATS], rng) for index, table_id in enumerate(table_ids)]
    ws_base = base.replace("http://", "ws://")
    stats = {"latencies": [], "errors": 0, "timeouts": 0, "reconnects": 0}
    for batch in range(0, len(tables), 10):
        await asyncio.gather(*(table.connect(ws_base, stats) for table in tables[batch:batch + 10]))
    listeners = [asyncio.ensure_future(table.listen(seat, stats)) for table in tables for seat in range(SEATS)]
    await asyncio.gather(*(table.all_hold(1, 30) for table in tables))
    client = psutil.Process()
    cpu_before, client_before, wall_before = server.cpu_times(), client.cpu_times(), time.perf_counter()
    await asyncio.gather(*(table.play(stats, pace, wall_before + seconds) for table in tables))
    wall = time.perf_counter() - wall_before
    cpu_after, client_after = server.cpu_times(), client.cpu_times()
    rss = server.memory_info().rss
    for listener in listeners:
        listener.cancel()
    await asyncio.gather(*(table.close() for table in tables))
    latencies = sorted(stats["latencies"])
    busy = (cpu_after.user + cpu_after.system) - (cpu_before.user + cpu_before.system)
    client_busy = (client_after.user + client_after.system) - (client_before.user + client_before.system)
    return {
        "tables": len(tables), "sockets": len(tables) * SEATS, "actions": len(latencies),
        "per_second": len(latencies) / wall,
        "p50": 1000 * statistics.median(latencies) if latencies else float("nan"),
        "p99": 1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))] if latencies else float("nan"),
        "errors": stats["errors"] + stats["timeouts"], "cpu": 100 * busy / wall, "rss_mb": rss / 2 ** 20,
        "client_cpu": 100 * client_busy / wall, "load": os.getloadavg()[0],
    }


def server_process(base: str) -> psutil.Process:
    port = int(base.rsplit(":", 1)[1].strip("/"))
    for connection in psutil.net_connections("tcp"):
        if connection.status == psutil.CONN_LISTEN and connection.laddr.port == port and connection.pid:
            return psutil.Process(connection.pid)
    raise SystemExit(f"no process listens on port {port}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 50, 200, 500])
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between actions per table")
    parser.add_argument("--seconds", type=float, default=30.0, help="measuring time per run")
    parser.add_argument("--flat-out", type=int, default=50, help="tables in the flat-out run (0 = none)")
    parser.add_argument("--game", default="pigpile")
    parser.add_argument("--url", help="a running serve on 127.0.0.1 (same DATABASE_URL as this process)")
    args = parser.parse_args()
    runs = [(count, args.pace) for count in args.tables] + ([(args.flat_out, 0.0)] if args.flat_out else [])
    with tempfile.TemporaryDirectory(prefix="pigparlor-bench-") as directory:
        if args.url:
            if not args.url.startswith("http://127.0.0.1:"):
                raise SystemExit("the bench only talks to 127.0.0.1")
            process, base, env = None, args.url.rstrip("/"), dict(os.environ)
        else:
            process, base, env = start_server(Path(directory))
        try:
            server = server_process(base)
            tokens = make_tokens(SEATS * max(count for count, _ in runs), env)
            print(f"# {args.game}, {SEATS} seats per table, every seat a JSON socket; server pid {server.pid}; "
                  f"{psutil.cpu_count()} cores")
            print("| tables | sockets | pace | actions | actions/s | p50 ms | p99 ms | errors | server CPU % "
                  "| server RSS MB | bench client CPU % | machine load (1 min) |")
            print("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
            for count, pace in runs:
                result = asyncio.run(run(base, server, args.game, tokens[:SEATS * count], pace, args.seconds))
                print(f"| {result['tables']} | {result['sockets']} | {f'{pace:g} s' if pace else 'flat out'} "
                      f"| {result['actions']} | {result['per_second']:.1f} | {result['p50']:.1f} | {result['p99']:.1f} "
                      f"| {result['errors']} | {result['cpu']:.0f} | {result['rss_mb']:.0f} "
                      f"| {result['client_cpu']:.0f} | {result['load']:.1f} |", flush=True)
        finally:
            if process is not None:
                process.terminate()
                try:
                    process.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    process.kill()


if __name__ == "__main__":
    main()
