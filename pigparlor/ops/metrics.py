"""The numbers an operator watches (Prometheus, served at ``/metrics``: ``views.metrics``).

Each is recorded where it happens, in the process it happens in:

- ``pigparlor_actions_total{game,by}``: actions applied through ``tables.services.act``, the one
  door every move goes through (``by`` is ``player``, or ``platform`` for the clock and bots);
  ``pigparlor_act_refused_total{code}`` the ones it refused (stale, illegal…);
- ``pigparlor_act_seconds{game}``: how long ``act`` took, lock and commit included;
- ``pigparlor_open_sockets{kind}``: sockets holding a place (``tables.guard.GuardedSocket``);
- ``pigparlor_clock_lag_seconds``: how late the clock fired a table after its wake-up;
- ``pigparlor_push_queue_depth``, ``pigparlor_push_sent_total{result}``: the push sender;
- ``pigparlor_rating_updates_total{game}``: players' ratings moved by a finished table;
- ``pigparlor_running_tables{game}``: counted in the database when scraped (every process
  sees the same tables).

``serve --workers N``: with ``PROMETHEUS_MULTIPROC_DIR`` set (``serve`` sets it for its
workers) every worker writes its numbers there and any worker's ``/metrics`` adds them up;
otherwise each process shows its own.
"""
from __future__ import annotations

import os

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily

# No "_created" series: a counter's start time is noise on every scrape.
disable_created_metrics()

MULTIPROCESS = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))

# Moves take milliseconds; a busy SQLite or a lock held by another table's work can take a second.
ACT_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
LAG_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

ACTIONS = Counter("pigparlor_actions", "Actions applied at tables, by game and by whom (player, or the platform: clock and bots)",
                  ["game", "by"])
REFUSED = Counter("pigparlor_act_refused", "Actions refused at tables, by the refusal's code", ["code"])
ACT_SECONDS = Histogram("pigparlor_act_seconds", "Time one call of act took (row lock, engine, write, commit)",
                        ["game"], buckets=ACT_BUCKETS)
OPEN_SOCKETS = Gauge("pigparlor_open_sockets", "Open sockets holding a place, by kind (table, lobby, tournament, player)",
                     ["kind"], multiprocess_mode="livesum")
CLOCK_LAG = Histogram("pigparlor_clock_lag_seconds", "How long after a table's wake-up the clock fired it",
                      buckets=LAG_BUCKETS)
PUSH_QUEUE = Gauge("pigparlor_push_queue_depth", "Push jobs waiting in this process's sender queue",
                   multiprocess_mode="livesum")
PUSH_SENT = Counter("pigparlor_push_sent", "Pushes handed to push services, by result (ok, refused, failed)", ["result"])
RATING_UPDATES = Counter("pigparlor_rating_updates", "Players' ratings moved by a finished rated table", ["game"])


class RunningTables:
    """``pigparlor_running_tables{game}``, counted in the database at each scrape."""

    def describe(self):
        return []

    def collect(self):
        from django.db.models import Count

        from pigparlor.tables.models import RUNNING, Table

        family = GaugeMetricFamily("pigparlor_running_tables", "Tables being played now, by game", labels=["game"])
        for row in Table.objects.filter(status=RUNNING).values("game").annotate(n=Count("pk")).order_by("game"):
            family.add_metric([row["game"]], row["n"])
        yield family


def exposition() -> bytes:
    """Every metric, in Prometheus's text format."""
    if MULTIPROCESS:
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        from prometheus_client import REGISTRY as registry
    scrape = CollectorRegistry()
    scrape.register(RunningTables())
    return generate_latest(registry) + generate_latest(scrape)
