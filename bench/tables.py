"""Live tables over real sockets: action-to-update latency, throughput, CPU per action, memory.

Starts ``manage.py serve`` on 127.0.0.1 (``--workers N`` processes; a fresh
SQLite file unless ``DATABASE_URL`` is set, the in-memory channel layer unless
``REDIS_URL`` is set: both are passed through), or uses one already running
with ``--url`` and the same ``DATABASE_URL``. It creates N 4-seat tables whose
every seat is a socket client (no bots) and plays legal moves: one action every
``--pace`` seconds per table, or flat out (each table acts again as soon as all
four seats hold the previous update).

Seats speak ``--transport json`` (the JSON API protocol, bearer tokens) or
``html`` (the browser's socket: a signed-in session, same-origin, receiving the
htmx out-of-band fragments; the client keeps the fragments by id as htmx does
and sends the action forms' fields, as ``ws-send`` does).

Latency = from sending an act to the moment all four seats of that table hold
the new version. Prints p50/p99, actions/s, errors, the server's CPU (all its
processes; share of one core) and **CPU ms per action** (server CPU time over
the measuring window / actions: robust to a busy machine), and its resident
memory when the sockets are open (start), after the run (end), and per socket.
``--anchor`` runs the same tables, pace and seats against a bare Channels
fan-out (bench/anchor.py) in the same invocation and prints our p50/p99 over
the anchor's. ``--profile DIR`` records each measuring window with py-spy.
Only ever talks to 127.0.0.1.

    .venv/bin/python bench/tables.py                       # N = 10 50 200 500, then flat out at 50
    .venv/bin/python bench/tables.py --tables 200 --seconds 15 --flat-out 10 --anchor
    .venv/bin/python bench/tables.py --transport html --tables 50 --flat-out 10
"""
from __future__ import annotations

import argparse
import asyncio
import html
import json
import os
import random
import re
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
sys.path.insert(0, str(ROOT))
SEATS = 4
STATE_PREFIX = '{"type":"state","version":'
ACTION_FIELD = re.compile(r'name="action" value="([^"]*)"')
FACE_UP_TOGGLE = re.compile(r'class="pp-toggle"[^>]*data-value="(\d+)" data-order="(\d+)"')
VERSION_MARK = re.compile(r'id="table-version"[^>]*data-version="(\d+)"')


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, log_path: Path) -> None:
    for _ in range(1200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            if process.poll() is not None:
                raise SystemExit(f"server exited: {log_path.read_text()[-2000:]}") from None
            time.sleep(0.1)
    raise SystemExit("server did not start")


def server_env(directory: Path) -> dict:
    env = {**os.environ, "PIGPARLOR_BOT_DELAY_MS": "0", "DJANGO_DEBUG": "0",
           "DJANGO_SETTINGS_MODULE": "pigparlor.settings",
           # The bench's seats act as fast as the server answers: lift the per-socket rate limit.
           "PIGPARLOR_WS_BURST": "1000", "PIGPARLOR_WS_RATE": "1000",
           "PIGPARLOR_MAX_UNFINISHED_TABLES": "100000", "PIGPARLOR_TABLES_PER_MINUTE": "100000",
           "PIGPARLOR_MAX_OPEN_SEATS": "100000",
           # An earlier row's tables stay idle after their sockets close: no bot takes an absent
           # player's seat (and plays it flat out through the clock) while later rows measure.
           "PIGPARLOR_SEAT_GRACE_MS": str(7 * 24 * 3600 * 1000)}
    env.setdefault("DATABASE_URL", f"sqlite:///{directory / 'bench.sqlite3'}")
    return env


def start_server(directory: Path, workers: int = 1, extra_env: dict | None = None
                 ) -> tuple[subprocess.Popen, str, dict]:
    port = free_port()
    env = {**server_env(directory), **(extra_env or {})}
    log_path = directory / "serve.log"
    command = [sys.executable, str(ROOT / "manage.py"), "serve", "--port", str(port)]
    if workers > 1:
        command += ["--workers", str(workers)]
    process = subprocess.Popen(command,
                               cwd=ROOT, env=env, stdout=open(log_path, "w"), stderr=subprocess.STDOUT)
    wait_for_port(port, process, log_path)
    return process, f"http://127.0.0.1:{port}", env


def report_server_errors(log_path: Path, keep: Path | None) -> None:
    """The server's tracebacks, on stderr: a bench error (an HTTP 500) says why."""
    if not log_path.exists():
        return
    text = log_path.read_text(errors="replace")
    if keep is not None:
        keep.write_text(text)
    tracebacks = text.count("Traceback (most recent call last)")
    if tracebacks:
        first = text.index("Traceback (most recent call last)")
        print(f"\n# the server logged {tracebacks} traceback(s); the first:\n{text[max(0, first - 300):first + 3000]}",
              file=sys.stderr)


def start_anchor(directory: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    log_path = directory / "anchor.log"
    process = subprocess.Popen([sys.executable, str(ROOT / "bench" / "anchor.py"), "--port", str(port)], cwd=ROOT,
                               env={key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"},
                               stdout=open(log_path, "w"), stderr=subprocess.STDOUT)
    wait_for_port(port, process, log_path)
    return process, f"http://127.0.0.1:{port}"


def make_players(count: int, env: dict) -> list[tuple[str, str]]:
    """``count`` bench users, each with a fresh API token and a signed-in session
    key (through the ORM, on the server's database)."""
    os.environ.update({key: env[key] for key in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE") if key in env})
    import django

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore

    from pigparlor.api.tokens import create_token

    User = get_user_model()
    existing = set(User.objects.filter(username__startswith="bench-").values_list("username", flat=True))
    User.objects.bulk_create(User(username=f"bench-{index}") for index in range(count)
                             if f"bench-{index}" not in existing)
    users = {user.username: user for user in User.objects.filter(username__startswith="bench-")}
    players = []
    for index in range(count):
        user = users[f"bench-{index}"]
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        players.append((create_token(user), session.session_key))
    return players


def post(base: str, path: str, token: str, body: dict) -> dict:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def open_tables(base: str, game: str, tokens: list[str]) -> list[int]:
    """One table per four tokens: the first creates it, the others join (it starts when full)."""
    groups = [tokens[index:index + SEATS] for index in range(0, len(tokens), SEATS)]

    def one(group):
        # The longest turn timer: a quiet seat is not timed out while the bench measures.
        table_id = post(base, "/api/tables/", group[0], {"game": game, "seats": SEATS, "bots": 0,
                                                         "options": {"turn_seconds": 600}})["id"]
        for token in group[1:]:
            post(base, f"/api/tables/{table_id}/join/", token, {})
        return table_id

    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(one, groups))


class Seat:
    """One seat's socket in one transport: what it holds, and what it may send."""

    version = 0
    legal: list = ()
    finished = False

    def __init__(self, transport: str):
        self.transport = transport
        self.parts: dict[str, str] = {}
        self.frame: str | None = None

    def read(self, text: str) -> tuple[bool, int]:
        """Take one frame; returns (it carried a version, errors in it)."""
        if self.transport == "html":
            return self.read_html(text)
        if text.startswith(STATE_PREFIX):
            # Read the version off the front ({"type":"state","version":N,...}, the server's
            # key order); the whole frame is parsed only when the pacer acts on it.
            self.frame = text
            self.version = int(text[len(STATE_PREFIX):text.index(",", len(STATE_PREFIX))])
            self.finished = self.finished or '"outcome":' in text
            return True, 0
        return False, int(text.startswith('{"type":"error"'))

    def read_html(self, text: str) -> tuple[bool, int]:
        from pigparlor.tables.fragments import split_top_level

        self.parts.update(split_top_level(text))
        errors = text.count('class="table-error" role="alert" data-code=')  # a refusal, not the empty slot
        mark = VERSION_MARK.search(text)
        if mark is None:
            return False, errors
        self.version = int(mark.group(1))
        self.finished = self.finished or "Final standings" in text
        return True, errors

    def choices(self) -> list:
        if self.transport == "html":
            found = [html.unescape(match) for part in self.parts.values() for match in ACTION_FIELD.findall(part)]
            if "" in found:  # Pig Pile's face-up choice: the page's script fills the field from three taps
                toggles = sorted((int(order), int(value)) for part in self.parts.values()
                                 for value, order in FACE_UP_TOGGLE.findall(part))
                found = [json.dumps({"type": "faceup", "ranks": [value for _, value in toggles[:3]]})]
            return found
        if self.frame is None or '"legal":[]' in self.frame:
            return []
        return json.loads(self.frame)["legal"]

    def act(self, choice) -> str:
        if self.transport == "html":
            return json.dumps({"version": str(self.version), "action": choice, "HEADERS": {"HX-Request": "true"}})
        return json.dumps({"type": "act", "version": self.version, "action": choice})


class Table:
    """Four seat sockets; one pacer sends each act and times its fan-out."""

    def __init__(self, table_id: int, players: list[tuple[str, str]], rng: random.Random, transport: str):
        self.table_id, self.players, self.rng, self.transport = table_id, players, rng, transport
        self.seats = [Seat(transport) for _ in range(SEATS)]
        self.updated = asyncio.Event()
        self.sockets = []

    @property
    def finished(self) -> bool:
        return any(seat.finished for seat in self.seats)

    def address(self, ws_base: str, token: str, session_key: str) -> tuple[str, dict, str | None]:
        """The socket's URL, headers and Origin (browser sockets must be same-origin)."""
        if self.transport == "html":
            return (f"{ws_base}/ws/tables/{self.table_id}/", {"Cookie": f"sessionid={session_key}"},
                    ws_base.replace("ws://", "http://"))
        if self.transport == "anchor":
            return f"{ws_base}/ws/anchor/{self.table_id}/", {}, None
        return f"{ws_base}/ws/api/tables/{self.table_id}/", {"Authorization": f"Bearer {token}"}, None

    async def connect(self, ws_base: str, stats):
        for token, session_key in self.players:
            url, headers, origin = self.address(ws_base, token, session_key)
            for attempt in range(5):
                try:
                    socket_ = await connect(url, max_size=2 ** 22, open_timeout=30, additional_headers=headers,
                                            origin=origin)
                    break
                except (TimeoutError, OSError, websockets.exceptions.WebSocketException):
                    stats["reconnects"] += 1
                    await asyncio.sleep(0.5 * (attempt + 1))
            else:
                raise SystemExit(f"could not connect to table {self.table_id}")
            self.sockets.append(socket_)

    async def listen(self, index: int, stats):
        async for text in self.sockets[index]:
            versioned, errors = self.seats[index].read(text)
            stats["errors"] += errors
            if versioned or errors:
                self.updated.set()

    async def all_hold(self, version: int, timeout: float) -> bool:
        end = time.perf_counter() + timeout
        while min(seat.version for seat in self.seats) < version:
            self.updated.clear()
            left = end - time.perf_counter()
            if left <= 0:
                return False
            try:
                await asyncio.wait_for(self.updated.wait(), left)
            except TimeoutError:
                return False
        return True

    def pick_mover(self) -> tuple[int, list]:
        """A seat with legal actions and its choices, or (-1, [])."""
        order = list(range(SEATS))
        self.rng.shuffle(order)
        for index in order:
            choices = self.seats[index].choices()
            if choices:
                return index, choices
        return -1, []

    async def play(self, stats, pace: float, until: float):
        await asyncio.sleep(self.rng.random() * pace)  # spread the tables over the period
        while time.perf_counter() < until and not self.finished:
            started = time.perf_counter()
            index, choices = self.pick_mover()
            if choices:
                seat = self.seats[index]
                version = seat.version
                await self.sockets[index].send(seat.act(self.rng.choice(choices)))
                if await self.all_hold(version + 1, 10):
                    stats["latencies"].append(time.perf_counter() - started)
                else:
                    stats["timeouts"] += 1
            else:
                self.updated.clear()
                try:
                    await asyncio.wait_for(self.updated.wait(), 1)
                except TimeoutError:
                    pass
            if pace:
                await asyncio.sleep(max(0.0, pace - (time.perf_counter() - started)))

    async def close(self):
        await asyncio.gather(*(socket_.close() for socket_ in self.sockets), return_exceptions=True)


class Server:
    """The server's processes (a ``serve`` parent and its workers), measured together."""

    def __init__(self, root: psutil.Process):
        self.root = root

    def processes(self) -> list[psutil.Process]:
        return [self.root, *self.root.children(recursive=True)]

    def cpu_seconds(self) -> float:
        total = 0.0
        for process in self.processes():
            try:
                times = process.cpu_times()
                total += times.user + times.system
            except psutil.NoSuchProcess:
                pass
        return total

    def rss(self) -> int:
        return sum(process.memory_info().rss for process in self.processes())


# Sample only the thread holding the GIL (``--profile-gil``): one process runs one
# thread of Python at a time, so this is where its CPU goes; without it a thread
# waiting for the GIL (after a socket write, say) counts as busy where it waits.
PROFILE_GIL = False


def profiler(server: Server, seconds: float, path: Path | None) -> subprocess.Popen | None:
    if path is None:
        return None
    spy = Path(sys.executable).with_name("py-spy")
    return subprocess.Popen([str(spy), "record", "--pid", str(server.root.pid), "--subprocesses", "--nonblocking",
                             *(["--gil"] if PROFILE_GIL else []),
                             "--duration", str(max(1, int(seconds))), "--format", "raw", "-o", str(path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


async def run(base: str, server: Server, game: str, players, pace: float, seconds: float, transport: str,
              profile: Path | None = None) -> dict:
    if transport == "anchor":
        table_ids = list(range(1, len(players) // SEATS + 1))
    else:
        table_ids = await asyncio.to_thread(open_tables, base, game, [token for token, _ in players])
    rng = random.Random(len(table_ids))
    tables = [Table(table_id, players[index * SEATS:(index + 1) * SEATS], rng, transport)
              for index, table_id in enumerate(table_ids)]
    ws_base = base.replace("http://", "ws://")
    stats = {"latencies": [], "errors": 0, "timeouts": 0, "reconnects": 0}
    rss_idle = server.rss()
    for batch in range(0, len(tables), 10):
        await asyncio.gather(*(table.connect(ws_base, stats) for table in tables[batch:batch + 10]))
    listeners = [asyncio.ensure_future(table.listen(seat, stats)) for table in tables for seat in range(SEATS)]
    await asyncio.gather(*(table.all_hold(1, 30) for table in tables))
    stats["errors"] = 0  # only what the measured window refuses
    rss_start = server.rss()
    client = psutil.Process()
    spy = profiler(server, seconds, profile)
    cpu_before, client_before, wall_before = server.cpu_seconds(), client.cpu_times(), time.perf_counter()
    await asyncio.gather(*(table.play(stats, pace, wall_before + seconds) for table in tables))
    wall = time.perf_counter() - wall_before
    cpu_after, client_after = server.cpu_seconds(), client.cpu_times()
    rss_end = server.rss()
    if spy is not None:
        spy.wait()
    for listener in listeners:
        listener.cancel()
    await asyncio.gather(*(table.close() for table in tables))
    latencies = sorted(stats["latencies"])
    busy = cpu_after - cpu_before
    client_busy = (client_after.user + client_after.system) - (client_before.user + client_before.system)
    sockets = len(tables) * SEATS
    return {
        "tables": len(tables), "sockets": sockets, "actions": len(latencies),
        "per_second": len(latencies) / wall,
        "p50": 1000 * statistics.median(latencies) if latencies else float("nan"),
        "p99": 1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))] if latencies else float("nan"),
        "errors": stats["errors"] + stats["timeouts"], "cpu": 100 * busy / wall,
        "cpu_ms": 1000 * busy / len(latencies) if latencies else float("nan"),
        "rss_start": rss_start / 2 ** 20, "rss_end": rss_end / 2 ** 20,
        "rss_per_socket": (rss_start - rss_idle) / 1024 / sockets,
        "client_cpu": 100 * client_busy / wall, "load": os.getloadavg()[0],
    }


def server_process(base: str) -> psutil.Process:
    port = int(base.rsplit(":", 1)[1].strip("/"))
    for connection in psutil.net_connections("tcp"):
        if connection.status == psutil.CONN_LISTEN and connection.laddr.port == port and connection.pid:
            process = psutil.Process(connection.pid)
            # With --workers, every worker listens on the parent's socket: measure from the parent.
            while process.parent() is not None and "serve" in " ".join(process.parent().cmdline()):
                process = process.parent()
            return process
    raise SystemExit(f"no process listens on port {port}")


HEADER = ("| transport | workers | tables | sockets | pace | actions | actions/s | p50 ms | p99 ms | errors "
          "| server CPU % | CPU ms/action | RSS start MB | RSS end MB | RSS KB/socket | bench client CPU % "
          "| machine load (1 min) |")


def row(transport: str, workers: int, pace: float, result: dict) -> str:
    return (f"| {transport} | {workers} | {result['tables']} | {result['sockets']} "
            f"| {f'{pace:g} s' if pace else 'flat out'} | {result['actions']} | {result['per_second']:.1f} "
            f"| {result['p50']:.1f} | {result['p99']:.1f} | {result['errors']} | {result['cpu']:.0f} "
            f"| {result['cpu_ms']:.2f} | {result['rss_start']:.0f} | {result['rss_end']:.0f} "
            f"| {result['rss_per_socket']:.0f} | {result['client_cpu']:.0f} | {result['load']:.1f} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 50, 200, 500])
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between actions per table")
    parser.add_argument("--seconds", type=float, default=30.0, help="measuring time per run")
    parser.add_argument("--flat-out", type=int, default=50, help="tables in the flat-out run (0 = none)")
    parser.add_argument("--game", default="pigpile")
    parser.add_argument("--transport", choices=["json", "html"], default="json",
                        help="what every seat speaks: the JSON API or the browser's htmx socket")
    parser.add_argument("--workers", type=int, default=1, help="serve --workers N (N > 1 needs REDIS_URL)")
    parser.add_argument("--anchor", action="store_true",
                        help="also run each row against a bare Channels fan-out and print the ratios")
    parser.add_argument("--profile", type=Path, help="py-spy each measuring window into this directory")
    parser.add_argument("--profile-gil", action="store_true",
                        help="with --profile: sample only the thread holding the GIL (where the CPU goes)")
    parser.add_argument("--keep-log", type=Path, help="copy the server's output here (it is printed in part "
                        "on stderr when it holds a traceback)")
    parser.add_argument("--url", help="a running serve on 127.0.0.1 (same DATABASE_URL as this process)")
    args = parser.parse_args()
    runs = [(count, args.pace) for count in args.tables] + ([(args.flat_out, 0.0)] if args.flat_out else [])
    if args.profile:
        args.profile.mkdir(parents=True, exist_ok=True)
        global PROFILE_GIL
        PROFILE_GIL = args.profile_gil
    with tempfile.TemporaryDirectory(prefix="pigparlor-bench-") as directory:
        anchor = None
        if args.url:
            if not args.url.startswith("http://127.0.0.1:"):
                raise SystemExit("the bench only talks to 127.0.0.1")
            process, base, env = None, args.url.rstrip("/"), dict(os.environ)
        else:
            process, base, env = start_server(Path(directory), args.workers)
        try:
            server = Server(server_process(base))
            players = make_players(SEATS * max(count for count, _ in runs), env)
            if args.anchor:
                anchor, anchor_base = start_anchor(Path(directory))
            layer = "Redis" if os.environ.get("REDIS_URL") else "in-memory"
            database = env.get("DATABASE_URL", "").split(":", 1)[0]
            print(f"# {args.game}, {SEATS} seats per table, every seat a {args.transport} socket; server pid "
                  f"{server.root.pid}, {args.workers} worker(s), {database}, {layer} channel layer; "
                  f"{psutil.cpu_count()} cores")
            print(HEADER)
            print("|" + "---:|" * 4 + "---|" + "---:|" * 12)
            ratios = []
            for count, pace in runs:
                label = f"{args.transport}-{count}-{'flat' if not pace else f'{pace:g}s'}"
                result = asyncio.run(run(base, server, args.game, players[:SEATS * count], pace, args.seconds,
                                         args.transport, args.profile / f"{label}.txt" if args.profile else None))
                print(row(args.transport, args.workers, pace, result), flush=True)
                if anchor is not None:
                    bare = asyncio.run(run(anchor_base, Server(psutil.Process(anchor.pid)), args.game,
                                           players[:SEATS * count], pace, args.seconds, "anchor"))
                    print(row("anchor", 1, pace, bare), flush=True)
                    ratios.append((count, pace, result, bare))
            if ratios:
                print("\n| tables | pace | p50 ms (anchor) | p99 ms (anchor) | p50 ratio | p99 ratio "
                      "| CPU ms/action (anchor) |")
                print("|---:|---|---|---|---:|---:|---|")
                for count, pace, ours, bare in ratios:
                    print(f"| {count} | {f'{pace:g} s' if pace else 'flat out'} "
                          f"| {ours['p50']:.1f} ({bare['p50']:.1f}) | {ours['p99']:.1f} ({bare['p99']:.1f}) "
                          f"| {ours['p50'] / bare['p50']:.1f} | {ours['p99'] / bare['p99']:.1f} "
                          f"| {ours['cpu_ms']:.2f} ({bare['cpu_ms']:.2f}) |")
            if args.profile:
                print(f"\npy-spy profiles in {args.profile} (summarise: .venv/bin/python bench/spy_top.py FILE)")
        finally:
            for child in (process, anchor):
                if child is None:
                    continue
                child.terminate()
                try:
                    child.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    child.kill()
            if process is not None:
                report_server_errors(Path(directory) / "serve.log", args.keep_log)


if __name__ == "__main__":
    main()
