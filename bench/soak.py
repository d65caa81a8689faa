"""Soak: a couple of hundred live bot tables on one ``manage.py serve`` for minutes.

Starts ``serve`` on 127.0.0.1 with a fresh SQLite file, ``DJANGO_DEBUG=0`` and a
real bot think time (``PIGPARLOR_BOT_DELAY_MS``, 700 by default), opens
``--tables`` 4-seat tables through the JSON API (the games in turn), and keeps
that many running for ``--minutes``, opening a new table whenever one finishes.
Each table has one JSON-protocol seat played by this script (the game's own
sensible bot policy choosing from ``legal``, after the same think time, over
its socket) and three server bots, so the server's clock does most of the moving.
Every table has its own host: hosts rotate through a pool of accounts.

Prints, after stopping by itself:
- errors: ERROR / Traceback lines in the server's output, refusals other than
  ``stale`` sent to the JSON seats, sockets that dropped, HTTP calls that failed;
- stalls: times a table's version did not move for more than twice what it was
  waiting for (the bot think time plus a second, or the engine's deadline);
- bot-move lateness, p50/p99/max: for every bot move in the action log, its
  ``at_ms`` minus the moment it was due, recomputed exactly the way the clock
  computes it (``botdriver.pending_bot_moves`` on the state before the move);
- the server's RSS after start-up, once the tables are live, and at the end.

    .venv/bin/python bench/soak.py                       # 200 tables, 10 minutes
    .venv/bin/python bench/soak.py --tables 20 --minutes 1
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

import psutil
import websockets
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.tables import make_tokens, post, server_process, start_server  # noqa: E402

GAMES = ("oink", "pigpile", "piggypiggy", "snout")
SEATS = 4
SLACK_MS = 1000  # a bot's own think time on top of the delay setting (Oink!'s reactions) and scheduling
SERVER_ERROR = re.compile(r"\bERROR\b|Traceback|Exception inside application")


class Soak:
    def __init__(self, base: str, tokens: list[str], delay_ms: int, seed: int):
        self.base, self.ws_base = base, base.replace("http://", "ws://")
        self.until = float("inf")  # set once every slot has its first table
        self.free_hosts = list(tokens)
        self.delay_ms = delay_ms
        self.rng = random.Random(seed)
        self.started_tables: list[tuple[int, str]] = []
        self.finished = 0
        self.refusals: dict[str, int] = {}
        self.dropped = 0
        self.http_errors = 0
        self.stalls = 0
        self.stalled_tables: set[int] = set()
        self.next_game = 0

    async def open_table(self) -> tuple[int, str, str] | None:
        token = self.free_hosts.pop(0)
        game = GAMES[self.next_game % len(GAMES)]
        self.next_game += 1
        try:
            created = await asyncio.to_thread(post, self.base, "/api/tables/", token,
                                              {"game": game, "seats": SEATS, "bots": SEATS - 1})
        except Exception as failure:  # noqa: BLE001 - counted and reported, the soak goes on
            print(f"  creating a {game} table failed: {failure}", flush=True)
            self.http_errors += 1
            self.free_hosts.append(token)
            return None
        self.started_tables.append((created["id"], game))
        return created["id"], game, token

    async def seat(self, table_id: int, game: str, token: str) -> None:
        """Play seat 0 of one table until it finishes or time is up."""
        from games.core.registry import get_game

        bot = get_game(game).bots.get("sensible") or get_game(game).bots["random"]
        rng = random.Random(table_id)
        pending: asyncio.Task | None = None
        last_version, last_change, expected_ms = 0, time.monotonic(), self.delay_ms + SLACK_MS
        try:
            async with connect(f"{self.ws_base}/ws/api/tables/{table_id}/", open_timeout=60, max_size=2 ** 22,
                               additional_headers={"Authorization": f"Bearer {token}"}) as socket:
                while time.monotonic() < self.until:
                    try:
                        text = await asyncio.wait_for(socket.recv(), timeout=1.0)
                    except TimeoutError:
                        text = None
                    now = time.monotonic()
                    if text is None:
                        if (now - last_change) * 1000 > 2 * expected_ms and table_id not in self.stalled_tables:
                            self.stalls += 1
                            self.stalled_tables.add(table_id)  # once per version: cleared when it moves
                        continue
                    frame = json.loads(text)
                    if frame["type"] == "ping":
                        await socket.send(json.dumps({"type": "pong", "id": frame["id"]}))
                        continue
                    if frame["type"] == "error":
                        key = (frame["code"], frame["message"])
                        self.refusals[key] = self.refusals.get(key, 0) + 1
                        continue
                    if frame["version"] != last_version:
                        last_version, last_change = frame["version"], now
                        self.stalled_tables.discard(table_id)
                        deadline = frame.get("deadline_ms")
                        waiting = (deadline - time.time() * 1000) if deadline else 0
                        expected_ms = max(self.delay_ms + SLACK_MS, min(waiting, 60_000))
                    if "outcome" in frame:
                        self.finished += 1
                        return
                    if pending is not None:
                        pending.cancel()
                        pending = None
                    if frame["legal"]:
                        pending = asyncio.ensure_future(self.answer(socket, frame, bot, rng))
        except (TimeoutError, OSError, websockets.exceptions.WebSocketException) as failure:
            print(f"  table {table_id}: socket dropped: {failure!r}", flush=True)
            self.dropped += 1
        finally:
            if pending is not None:
                pending.cancel()

    async def answer(self, socket, frame: dict, bot, rng: random.Random) -> None:
        """Act like a bot: the policy's choice after the think time (Oink! bots may wait and not slap)."""
        try:
            action = bot.choose(frame["view"], frame["legal"], rng)
        except Exception:  # noqa: BLE001 - a policy that cannot read the JSON view: any legal move will do
            action = rng.choice(frame["legal"])
        if action is None:
            return
        await asyncio.sleep(self.delay_ms * rng.uniform(0.8, 1.2) / 1000)
        await socket.send(json.dumps({"type": "act", "version": frame["version"], "action": action}))

    async def keep_table(self) -> None:
        """One slot: a table after another until time is up."""
        while time.monotonic() < self.until:
            opened = await self.open_table()
            if opened is None:
                await asyncio.sleep(1)
                continue
            table_id, game, token = opened
            await self.seat(table_id, game, token)
            self.free_hosts.append(token)


def bot_lateness(table_ids: list[int], delay_ms: int) -> tuple[list[int], int]:
    """Milliseconds each logged bot move came after it was due, and how many logged
    moves differed from the recomputed choice (0 unless the bots changed)."""
    from django.conf import settings

    from games.core.registry import get_game
    from pigparlor.tables.botdriver import pending_bot_moves
    from pigparlor.tables.models import ActionLog, Seat, Table

    settings.PIGPARLOR_BOT_DELAY_MS = delay_ms
    late, mismatched = [], 0
    for table in Table.objects.filter(pk__in=table_ids, started_at_ms__isnull=False):
        game = get_game(table.game)
        engine = game.engine
        bots = [seat for seat in Seat.objects.filter(table=table).order_by("index") if seat.bot_kind]
        state = engine.start(table.seats, table.seed, table.options)
        changed_at = table.started_at_ms
        for entry in ActionLog.objects.filter(table=table).order_by("version"):
            if entry.seat is not None and any(seat.index == entry.seat for seat in bots):
                at = SimpleNamespace(pk=table.pk, version=entry.version - 1, changed_at_ms=changed_at,
                                     started_at_ms=table.started_at_ms)
                due = next((move for move in pending_bot_moves(game, at, state, bots) if move.seat == entry.seat), None)
                if due is None or due.action != entry.action:
                    mismatched += 1
                else:
                    late.append(entry.at_ms - due.due_ms)
            state = engine.apply(state, entry.seat, entry.action, entry.at_ms - table.started_at_ms)
            changed_at = entry.at_ms
    return late, mismatched


def percentile(values: list[int], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


async def soak(base: str, tokens: list[str], args, server: psutil.Process) -> dict:
    run = Soak(base, tokens, args.delay_ms, args.seed)
    began = time.monotonic()
    slots = []
    for first in range(0, args.tables, 20):  # ramp up twenty tables at a time
        slots += [asyncio.ensure_future(run.keep_table()) for _ in range(first, min(args.tables, first + 20))]
        while len(run.started_tables) < len(slots) and time.monotonic() - began < 600:
            await asyncio.sleep(0.2)
    ramp_seconds = time.monotonic() - began
    rss_live = server.memory_info().rss
    client = psutil.Process()
    cpu_before, client_before, wall_before = server.cpu_times(), client.cpu_times(), time.monotonic()
    run.until = wall_before + args.minutes * 60
    await asyncio.gather(*slots)
    wall = time.monotonic() - wall_before
    cpu_after, client_after = server.cpu_times(), client.cpu_times()
    return {"run": run, "ramp_seconds": ramp_seconds, "rss_live": rss_live,
            "server_cpu": 100 * (sum(cpu_after[:2]) - sum(cpu_before[:2])) / wall,
            "client_cpu": 100 * (sum(client_after[:2]) - sum(client_before[:2])) / wall}


def server_errors(log_path: Path) -> list[str]:
    return [line.rstrip() for line in log_path.read_text(errors="replace").splitlines() if SERVER_ERROR.search(line)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--delay-ms", type=int, default=700, help="PIGPARLOR_BOT_DELAY_MS for the server")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pigparlor-soak-") as directory:
        process, base, env = start_server(Path(directory), extra_env={"PIGPARLOR_BOT_DELAY_MS": str(args.delay_ms)})
        try:
            server = server_process(base)
            rss_start = server.memory_info().rss
            tokens = make_tokens(2 * args.tables, env)
            print(f"# soak: {args.tables} tables ({', '.join(GAMES)} in turn; {SEATS} seats: one JSON seat, "
                  f"three server bots), bot delay {args.delay_ms} ms, {args.minutes:g} min; server pid "
                  f"{server.pid}; {psutil.cpu_count()} cores; load {os.getloadavg()[0]:.1f}", flush=True)
            result = asyncio.run(soak(base, tokens, args, server))
            rss_end = server.memory_info().rss
            load_end = os.getloadavg()[0]
            run = result["run"]
            late, mismatched = bot_lateness([table_id for table_id, _ in run.started_tables], args.delay_ms)
            errors = server_errors(Path(directory) / "serve.log")
        finally:
            process.terminate()
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
    # stale: another seat moved first; illegal: the rules refused (a slap that came too late). Both are
    # the game's ordinary answers to a client racing the bots; any other refusal is an error.
    racing = {key: count for key, count in run.refusals.items() if key[0] in ("stale", "illegal")}
    refused = {key: count for key, count in run.refusals.items() if key not in racing}
    print(f"ramp-up: {args.tables} tables live after {result['ramp_seconds']:.0f} s")
    print(f"tables started {len(run.started_tables)}, finished {run.finished}")
    print(f"errors: server log {len(errors)}, refusals {sum(refused.values())}, sockets dropped {run.dropped}, "
          f"HTTP failures {run.http_errors}")
    for line in errors[:10]:
        print(f"  server: {line}")
    for (code, message), count in sorted(refused.items(), key=lambda item: -item[1])[:10]:
        print(f"  refused {count}x: {code}: {message}")
    print("races lost by the JSON seats (not errors): " + (", ".join(
        f"{code} {count}x ({message})" for (code, message), count in sorted(racing.items(), key=lambda i: -i[1])[:5])
        or "none"))
    print(f"stalls: {run.stalls} (a version waiting over twice what it waited for)")
    print(f"bot moves: {len(late)}, late by p50 {percentile(late, 0.5):.0f} ms, p99 {percentile(late, 0.99):.0f} ms, "
          f"max {max(late) if late else float('nan'):.0f} ms; recomputed choice differed {mismatched}x")
    print(f"server RSS: {rss_start / 2 ** 20:.0f} MB at start, {result['rss_live'] / 2 ** 20:.0f} MB with the tables "
          f"live, {rss_end / 2 ** 20:.0f} MB at the end")
    print(f"CPU during the run (100 % = one core): server {result['server_cpu']:.0f} %, this script "
          f"{result['client_cpu']:.0f} %; machine load (1 min) at the end {load_end:.1f}")


if __name__ == "__main__":
    main()
