"""Watching ``serve --workers 2``: /healthz answers through Redis, and /metrics shows the
workers' numbers added up, whichever worker answers the scrape."""
from __future__ import annotations

import json
import random
import re
import urllib.request

import pytest

from tests.api.test_e2e_serve import http, play_to_the_end

pytestmark = pytest.mark.scaleout


def get(site, path: str) -> tuple[int, str]:
    request = urllib.request.Request(f"{site}{path}", headers={"Connection": "close"})  # a new connection each time
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, response.read().decode()


def total(text: str, name: str, game: str) -> float:
    return sum(float(value) for value in re.findall(rf'^{name}{{[^}}]*game="{game}"[^}}]*}} (\S+)$', text, re.MULTILINE))


def test_health_and_metrics_of_two_workers(two_workers):
    status, body = get(two_workers, "/healthz")
    assert status == 200 and json.loads(body) == {"ok": True, "database": "ok", "channel_layer": "ok"}

    token = two_workers.manage("api_token", "metered", "--create")
    status, created = http(two_workers, "POST", "/api/tables/", token, {"game": "pigpile", "seats": 4, "bots": 3})
    assert status == 201, created
    play_to_the_end(two_workers, token, created["ws"], random.Random(3))
    # The table is over: no more actions. Every scrape, on either worker, shows them all.
    scrapes = [get(two_workers, "/metrics")[1] for _ in range(8)]
    counts = {total(text, "pigparlor_actions_total", "pigpile") for text in scrapes}
    assert len(counts) == 1, counts
    [count] = counts
    _, detail = http(two_workers, "GET", f"/api/tables/{created['id']}/", token)
    assert count >= detail["version"] - 1 > 0, (count, detail["version"])
    # act's latency counts the refused calls too (a bot's move that raced a newer version).
    timed = {total(text, "pigparlor_act_seconds_count", "pigpile") for text in scrapes}
    assert len(timed) == 1 and timed.pop() >= count
