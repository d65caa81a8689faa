"""``serve --workers N``: each worker writes its metrics to the shared directory
(``PROMETHEUS_MULTIPROC_DIR``) and any worker's ``/metrics`` shows the sum; a dead worker's
live gauges (its open sockets) leave with it. Plain processes stand in for the workers."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from pigparlor.tables.management.commands.serve import mark_process_dead

ROOT = Path(__file__).resolve().parent.parent.parent
WORKER = ("from pigparlor.ops import metrics; "
          "metrics.ACT_SECONDS.labels('snout').observe(0.02); "
          "metrics.ACTIONS.labels('snout', 'player').inc(); "
          "metrics.OPEN_SOCKETS.labels('table').inc(); "
          "import os; print(os.getpid())")
SCRAPE = ("from pigparlor.ops import metrics; "
          "metrics.RunningTables.collect = lambda self: iter(()); "  # no database here
          "print(metrics.MULTIPROCESS); print(metrics.exposition().decode())")


def run(code: str, directory: Path) -> str:
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(directory)}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=True, timeout=60).stdout


def value(text: str, line_start: str) -> float:
    match = re.search(rf"^{re.escape(line_start)} (\S+)$", text, re.MULTILINE)
    assert match, f"{line_start} not in the scrape"
    return float(match.group(1))


def test_any_worker_shows_every_workers_numbers(tmp_path):
    pids = [int(run(WORKER, tmp_path)) for _ in range(2)]
    scraped = run(SCRAPE, tmp_path)
    assert scraped.startswith("True")
    assert value(scraped, 'pigparlor_act_seconds_count{game="snout"}') == 2
    assert value(scraped, 'pigparlor_actions_total{by="player",game="snout"}') == 2
    assert value(scraped, 'pigparlor_open_sockets{kind="table"}') == 2
    mark_process_dead(pids[0], str(tmp_path))
    scraped = run(SCRAPE, tmp_path)
    assert value(scraped, 'pigparlor_open_sockets{kind="table"}') == 1, "a dead worker's sockets are gone"
    assert value(scraped, 'pigparlor_act_seconds_count{game="snout"}') == 2, "what it counted stays counted"
