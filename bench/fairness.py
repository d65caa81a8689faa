"""Oink! fairness over real sockets: does the faster reaction take the pile (O9)?

Two JSON-protocol clients sit at 2-seat Oink! tables on a real ``manage.py serve``
(127.0.0.1 only; started here on a fresh SQLite file unless ``--url`` names one
already running with the same ``DATABASE_URL``). Each client's socket sits behind
a link that adds a fixed one-way delay to everything it receives and everything
it sends, pongs included, so the server's ping/pong sees the delay as a real
network would. When a card calls for a cry, both clients slap it with the right
cry after planned reaction times ``gap`` ms apart (each side the faster one in
half of the races) and report the reaction they measured, as the page does.

For each pair of one-way delays and each gap it prints the share of races the
faster reactor won under our ordering (the table's verdict) and under plain
arrival order (whose slap reached the server first). Flips are sent on a third,
undelayed socket per seat so the races come quickly; they play no part in the
timing. Measures only; never fails on a time.

    .venv/bin/python bench/fairness.py                 # 40 races per cell, 16 cells
    .venv/bin/python bench/fairness.py --races 20 --tables 4
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.oink.cards import correct_cry  # noqa: E402

DELAY_PAIRS = ((10, 10), (10, 80), (10, 150), (80, 150))
GAPS = (20, 40, 60, 100)
REACTION_MS = (220, 380)
"""The slower of the two planned reactions is drawn from this range, plus the gap."""
WARM_UP_S = 1.3
"""Time for each socket's quick pings to give the server a round-trip estimate."""
OPTIONS = {"reveal_gap_ms": 500}


@dataclass(frozen=True)
class Race:
    """One planned race: each seat's true reaction, and what each claims (None = honest)."""

    reactions: tuple[int, int]
    claims: tuple[int | None, int | None] = (None, None)

    @property
    def faster(self) -> int:
        return 0 if self.reactions[0] < self.reactions[1] else 1


@dataclass
class Result:
    race: Race
    pile: int
    judged: bool = False
    taker: int | None = None
    ranked: dict[int, int] = field(default_factory=dict)      # seat -> the reaction the table ranked by
    measured: dict[int, int] = field(default_factory=dict)    # seat -> the reaction it really took (ms)
    lag: dict[int, float] = field(default_factory=dict)       # seat -> ms its link ran behind its delays
    on_wire: dict[int, float] = field(default_factory=dict)   # seat -> when its slap left the link
    refused: dict[int, str] = field(default_factory=dict)     # seat -> the server's refusal

    @property
    def first_to_arrive(self) -> int | None:
        return min(self.on_wire, key=self.on_wire.get) if self.on_wire else None


def plan_races(count: int, gap: int, seed: int, cheater: int | None = None) -> list[Race]:
    """``count`` races ``gap`` ms apart, each seat the faster in half of them (shuffled).

    With ``cheater``, that seat is always the slower one and claims a reaction of 0.
    """
    dice = random.Random(seed)
    faster = [index % 2 for index in range(count)] if cheater is None else [1 - cheater] * count
    dice.shuffle(faster)
    races = []
    for quick in faster:
        slow = dice.randint(*REACTION_MS) + gap
        reactions = (slow - gap, slow) if quick == 0 else (slow, slow - gap)
        claims = (None, None) if cheater is None else tuple(0 if seat == cheater else None for seat in (0, 1))
        races.append(Race(reactions, claims))
    return races


async def _sleep_until(moment: float) -> None:
    left = moment - time.monotonic()
    if left > 0:
        await asyncio.sleep(left)


class Link:
    """A JSON-protocol table socket behind a link adding ``delay_ms`` each way.

    Messages keep their order: each direction is a queue drained by one task that
    waits until a message's due time. Pings are answered through the link.
    """

    def __init__(self, url: str, token: str, delay_ms: int, on_message):
        self.url, self.token, self.delay = url, token, delay_ms / 1000
        self.on_message = on_message
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.outbox: asyncio.Queue = asyncio.Queue()
        self.tasks: list[asyncio.Task] = []
        self.socket = None
        self.delivered_late = 0.0

    async def open(self) -> None:
        self.socket = await connect(self.url, additional_headers={"Authorization": f"Bearer {self.token}"})
        self.tasks = [asyncio.ensure_future(job()) for job in (self._read, self._deliver, self._write)]

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.socket.close()

    def send(self, message: dict) -> asyncio.Future:
        """Queue ``message``; the future gives the monotonic time it left the link."""
        sent = asyncio.get_running_loop().create_future()
        self.outbox.put_nowait((time.monotonic() + self.delay, json.dumps(message), sent))
        return sent

    @property
    def lag_ms(self) -> float:
        """How far behind its delay the link delivered the last message (a loaded machine)."""
        return self.delivered_late * 1000

    async def _read(self) -> None:
        async for text in self.socket:
            self.inbox.put_nowait((time.monotonic() + self.delay, text))

    async def _deliver(self) -> None:
        while True:
            due, text = await self.inbox.get()
            await _sleep_until(due)
            self.delivered_late = time.monotonic() - due
            message = json.loads(text)
            if message.get("type") == "ping":
                self.send({"type": "pong", "id": message["id"]})
            else:
                self.on_message(self, message)

    async def _write(self) -> None:
        while True:
            due, text, sent = await self.outbox.get()
            await _sleep_until(due)
            late = time.monotonic() - due
            await self.socket.send(text)
            if not sent.done():
                sent.set_result((time.monotonic(), late))


def post(base: str, path: str, token: str, body: dict) -> dict:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def cry(pile: dict) -> int | None:
    """The right cry for a pile as a view shows it (top card first)."""
    top = [shown["card"] for shown in pile["top"]]
    return correct_cry(top[0], top[1] if len(top) > 1 else None) if top else None


def slappable(pile: dict) -> bool:
    return pile["open"] and cry(pile) is not None


class RaceTable:
    """One 2-seat table: seat 0 behind ``delays[0]``, seat 1 behind ``delays[1]``.

    It races the next planned race on every pile state that calls for a cry, and
    records one ``Result`` per race until ``plan`` runs dry or the game ends. The
    flipper covers a card that calls for nothing at once, and one that calls for
    a cry only once it is taken (or by the turn timer), so the reveal gap needs no
    room for the slowest slap.
    """

    def __init__(self, base: str, tokens: tuple[str, str], delays: tuple[int, int], plan: list[Race],
                 results: list[Result]):
        self.base, self.tokens, self.delays = base, tokens, delays
        self.plan, self.results = plan, results
        self.races: dict[int, Result] = {}
        self.raced: set[tuple[int, int]] = set()   # (seat, pile) already slapped
        self.ready = False
        self.over = asyncio.Event()
        self.errors: list[dict] = []

    async def play(self) -> None:
        table = await asyncio.to_thread(post, self.base, "/api/tables/", self.tokens[0],
                                        {"game": "oink", "seats": 2, "bots": 0, "options": OPTIONS})
        await asyncio.to_thread(post, self.base, f"/api/tables/{table['id']}/join/", self.tokens[1], {})
        ws = "ws://" + urlparse(self.base).netloc + table["ws"]
        self.slow = [Link(ws, self.tokens[seat], self.delays[seat], self.on_slow) for seat in (0, 1)]
        self.fast = [Link(ws, self.tokens[seat], 0, self.on_fast) for seat in (0, 1)]
        links = [*self.slow, *self.fast]
        await asyncio.gather(*(link.open() for link in links))
        try:
            await asyncio.sleep(WARM_UP_S)
            self.ready = True
            for link in self.fast:
                link.send({"type": "snapshot"})
            await self.over.wait()
        finally:
            await asyncio.gather(*(link.close() for link in links), return_exceptions=True)

    def on_fast(self, link: Link, message: dict) -> None:
        if message.get("type") != "state":
            return
        finished = not self.plan and all(result.judged for result in self.races.values())
        if message.get("outcome") is not None or finished:
            self.over.set()
        elif self.ready and {"type": "flip"} in message["legal"] and not slappable(message["view"]["pile"]):
            link.send({"type": "act", "version": message["version"], "action": {"type": "flip"}})

    def on_slow(self, link: Link, message: dict) -> None:
        seat = self.slow.index(link)
        if message.get("type") == "error":
            pending = [result for result in self.races.values() if seat in result.on_wire and seat not in result.refused]
            if pending:
                pending[-1].refused[seat] = message["message"]
            else:
                self.errors.append(message)
            return
        if message.get("type") != "state" or message["view"] is None:
            return
        view = message["view"]
        self.judged(view)
        pile = view["pile"]
        if not self.ready or not slappable(pile) or (seat, pile["id"]) in self.raced:
            return
        if pile["id"] not in self.races:
            if not self.plan:
                return
            self.races[pile["id"]] = Result(self.plan.pop(), pile["id"])
        self.raced.add((seat, pile["id"]))
        asyncio.ensure_future(self.slap(seat, link, message, time.monotonic(), link.lag_ms))

    async def slap(self, seat: int, link: Link, message: dict, drawn: float, lag_ms: float) -> None:
        view = message["view"]
        result = self.races[view["pile"]["id"]]
        await asyncio.sleep(result.race.reactions[seat] / 1000)
        claim = result.race.claims[seat]
        measured = round((time.monotonic() - drawn) * 1000)
        result.measured[seat] = measured
        reaction = measured if claim is None else claim
        action = {"type": "slap", "cry": cry(view["pile"]), "pile": view["pile"]["id"], "reaction_ms": reaction}
        sent = link.send({"type": "act", "version": message["version"], "action": action})
        result.on_wire[seat], late = await sent
        result.lag[seat] = lag_ms + late * 1000

    def judged(self, view: dict) -> None:
        verdict = view.get("verdict")
        result = self.races.get(verdict["pile"]) if verdict else None
        if result is None or result.judged:
            return
        result.judged, result.taker = True, verdict["taker"]
        result.ranked = {slap["seat"]: slap["reaction_ms"] for slap in verdict["slaps"]}
        self.results.append(result)


async def run_races(base: str, tokens: tuple[str, str], delays: tuple[int, int], races: list[Race],
                    tables: int = 4, limit_s: float = 600) -> list[Result]:
    """Play ``races`` on up to ``tables`` tables at once (new tables as games end)."""
    results: list[Result] = []
    plan = list(reversed(races))
    deadline = time.monotonic() + limit_s

    async def worker(index: int) -> None:
        while plan and time.monotonic() < deadline:
            share = [plan.pop() for _ in range(min(len(plan), max(1, len(races) // tables)))][::-1]
            table = RaceTable(base, tokens, delays, share, results)
            try:
                await asyncio.wait_for(table.play(), max(1, deadline - time.monotonic()))
            except TimeoutError:
                return
            plan.extend(reversed(table.plan))   # races the game ended before

    await asyncio.gather(*(worker(index) for index in range(tables)))
    return results


def shares(results: list[Result]) -> tuple[float, float]:
    """The share of races the faster reactor won: by our verdict, and by arrival order."""
    if not results:
        return float("nan"), float("nan")
    ours = sum(result.taker == result.race.faster for result in results) / len(results)
    arrival = sum(result.first_to_arrive == result.race.faster for result in results) / len(results)
    return ours, arrival


def api_token(username: str, env: dict) -> str:
    """A fresh API token for ``username`` on the server's database (``manage.py api_token``)."""
    done = subprocess.run([sys.executable, str(ROOT / "manage.py"), "api_token", username, "--create"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True)
    return done.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running serve on 127.0.0.1 (needs the same DATABASE_URL here)")
    parser.add_argument("--races", type=int, default=40, help="races per delay pair and gap")
    parser.add_argument("--tables", type=int, default=4, help="tables racing at once")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=float, default=120, help="seconds per cell at most")
    args = parser.parse_args()
    if args.url and urlparse(args.url).hostname != "127.0.0.1":
        raise SystemExit("bench/fairness.py only talks to 127.0.0.1")
    from bench.tables import start_server

    print(f"{'delays (ms)':>12} {'gap (ms)':>9} {'races':>6} {'ours':>7} {'arrival':>8}")
    for delays in DELAY_PAIRS:
        for gap in GAPS:
            # A fresh server per cell: tables left running by the last cell (their
            # games go on under the clock) would load this one.
            with tempfile.TemporaryDirectory(prefix="pigparlor-fairness-") as directory:
                process = None
                if args.url:
                    base, env = args.url.rstrip("/"), dict(os.environ)
                else:
                    process, base, env = start_server(Path(directory))
                try:
                    tokens = (api_token("fair-near", env), api_token("fair-far", env))
                    started = time.monotonic()
                    results = asyncio.run(run_races(base, tokens, delays, plan_races(args.races, gap, args.seed),
                                                    args.tables, args.limit))
                finally:
                    if process is not None:
                        process.terminate()
                        process.wait(timeout=10)
            ours, arrival = shares(results)
            print(f"{delays[0]:>5} / {delays[1]:<4} {gap:>9} {len(results):>6} {ours:>7.0%} {arrival:>8.0%}"
                  f"   ({time.monotonic() - started:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
