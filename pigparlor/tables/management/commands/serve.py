"""``manage.py serve``: the whole site, in one process or in ``--workers N``.

Applies migrations and collects the static files (hashed and compressed, for
WhiteNoise), then serves. One process (the default): sweeps presence left by
dead processes, recomputes every running table's wake-up, and runs Daphne on
the ASGI app with the table clock (turn timers, bot moves, seat hand-overs) and
the presence heartbeat as tasks on the same event loop, and the push sender
(pigparlor/pwa/sender.py) as a thread.

``--workers N`` (N > 1, needs ``REDIS_URL``): this process opens the listening
socket and starts N worker processes (``serve --inherited``) that each accept
connections on that inherited socket, as pre-fork servers do. The socket is
handed over the way systemd hands one to a service (descriptor 3, with
``LISTEN_FDS``, ``LISTEN_FDNAMES`` and ``LISTEN_PID``), which Daphne's Twisted adopts with its
``systemd:`` endpoint. Each worker runs its own clock and heartbeat, which is
safe (clock.py, presence.py). A worker that dies is started again while the
others serve on: at once if it had run ``STARTUP_SECONDS``, else after a backoff
that doubles with each such failure in a row (``PIGPARLOR_WORKER_BACKOFF_MS``,
capped at ``BACKOFF_CAP_SECONDS``). One that fails ``FAILURES_TO_GIVE_UP`` times
within ``FAILURE_WINDOW_SECONDS`` is given up; the server stops (exit 1) only
when no worker is left. SIGTERM or Ctrl-C stops them all. The workers share their
metrics through ``PROMETHEUS_MULTIPROC_DIR`` (made for the run unless set), so any
worker's ``/metrics`` shows them all (pigparlor/ops/metrics.py).
"""
import asyncio  # noqa: E402
import gc  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

from daphne.server import Server  # first: it installs Twisted's asyncio reactor
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.core.management.base import BaseCommand, CommandError  # noqa: E402
from django.db import connections  # noqa: E402

from pigparlor import static_files  # noqa: E402


def mark_process_dead(pid: int, directory: str) -> None:
    """Drop a dead worker's live gauges (open sockets, queued pushes) from the workers' metrics."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(pid, directory)

NEEDS_REDIS = ("--workers {workers} needs the Redis channel layer: set REDIS_URL (e.g. redis://127.0.0.1:6379/0). "
               "Each worker holds its own sockets, and only Redis carries a table's updates from one worker "
               "to the players on another.")
# A worker that dies sooner than this after its start failed: its next start waits
# (the backoff), and one that fails this often within the window is given up.
STARTUP_SECONDS = 20.0
FAILURES_TO_GIVE_UP = 5
FAILURE_WINDOW_SECONDS = 300.0
BACKOFF_CAP_SECONDS = 30.0
# Where a worker finds the inherited listening socket (systemd's first descriptor).
INHERITED_FD = 3
SOCKET_NAME = "pigparlor"


# Issue 14, the tail at 200 tables: with CPython's default thresholds (700, 10, 10) a
# busy server ran a full collection every few seconds, each walking every live object
# (the sockets, the render caches), and the actions waiting behind it made the p99.
# Collecting young objects less often lets most die first and promotes far fewer, so
# full collections become rare; what the start-up loaded (Django, templates) is frozen
# out of them. Measured in docs/benchmarks.md; PIGPARLOR_GC_THRESHOLDS (settings.py).
def tune_collector() -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(*settings.PIGPARLOR_GC_THRESHOLDS)


class WorkerSlot:
    """One of the workers ``serve --workers`` keeps running: the process now in
    it (None while its restart waits), and the times of its recent failures."""

    def __init__(self, worker):
        self.worker, self.dead, self.restart_at = worker, None, 0.0
        self.failures: list[float] = []
        self.given_up = False

    def died(self, worker, now: float) -> str:
        """Note that ``worker`` exited at ``now``: when to start the next, or
        give up. Returns the line to log."""
        self.worker, self.dead = None, worker
        lived = now - worker.started
        exited = f"worker {worker.pid} exited ({worker.returncode}) {lived:.1f} s after its start"
        if lived >= STARTUP_SECONDS:
            self.failures.clear()
            self.restart_at = now
            return f"{exited}: starting another"
        self.failures = [at for at in self.failures if now - at < FAILURE_WINDOW_SECONDS] + [now]
        if len(self.failures) >= FAILURES_TO_GIVE_UP:
            self.given_up = True
            return (f"{exited}, {len(self.failures)} failed starts within {FAILURE_WINDOW_SECONDS:g} s: "
                    "giving it up (the other workers serve on)")
        delay = min(BACKOFF_CAP_SECONDS, settings.PIGPARLOR_WORKER_BACKOFF_MS / 1000 * 2 ** (len(self.failures) - 1))
        self.restart_at = now + delay
        return f"{exited}: starting another in {delay:g} s"


class Command(BaseCommand):
    help = "Migrate, collect static files, then serve the site (HTTP + WebSockets) with the table clock."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--no-clock", action="store_true",
                            help="do not run the clock here (another process runs it)")
        parser.add_argument("--workers", type=int, default=1,
                            help="server processes sharing one listening socket (more than 1 needs REDIS_URL)")
        parser.add_argument("--inherited", action="store_true",
                            help="internal: a worker of serve --workers, on the listening socket it inherited")

    def handle(self, host, port, no_clock, workers, inherited, verbosity, **options):
        if workers < 1:
            raise CommandError("--workers must be 1 or more")
        if workers > 1 and not settings.REDIS_URL:
            raise CommandError(NEEDS_REDIS.format(workers=workers))
        if not inherited:
            self.prepare()
        if workers > 1:
            self.supervise(host, port, workers, no_clock, verbosity)
        else:
            self.serve(host, port, inherited, no_clock, verbosity)

    def prepare(self):
        """Once per start, before any worker: the schema, the static files, the ratings."""
        call_command("migrate", interactive=False, verbosity=0)
        static_files.collect()
        self.rate_unrated()

    # -- one server process ----------------------------------------------------
    def serve(self, host, port, inherited, no_clock, verbosity):
        from pigparlor.tables import presence

        # Alone (no Redis), this process holds every socket there is: whatever a
        # previous run left is stale. Scaled out, only dead processes' sockets are.
        presence.start_up(alone=not settings.REDIS_URL)
        from pigparlor.asgi import application
        from pigparlor.pwa import sender as push_sender
        from pigparlor.tables.clock import CLOCK

        tasks = []

        def ready():
            # A frame past websocket_max_message_size (or a text frame that is not
            # UTF-8) fails the connection; autobahn's default drops the TCP link
            # without a word. Close properly instead: 1009 too big, 1007 bad data.
            server.ws_factory.setProtocolOptions(failByDrop=False)
            loop = asyncio.get_event_loop()
            tune_collector()
            tasks.append(loop.create_task(presence.heartbeat()))
            push_sender.start()
            if not no_clock:
                tasks.append(loop.create_task(CLOCK.run()))
            if not inherited:
                self.stdout.write(f"Pig Parlor serving on http://{host}:{port}/ (Ctrl-C stops)")
                self.stdout.flush()

        # Behind a proxy, the client's address and scheme come from its X-Forwarded-* headers.
        forwarded = dict(proxy_forwarded_address_header="X-Forwarded-For",
                         proxy_forwarded_port_header="X-Forwarded-Port",
                         proxy_forwarded_proto_header="X-Forwarded-Proto") if settings.BEHIND_PROXY else {}
        family = "INET6" if ":" in host else "INET"
        endpoint = f"systemd:domain={family}:name={SOCKET_NAME}" if inherited else f"tcp:port={port}:interface={host}"
        server = Server(application=application, endpoints=[endpoint],
                        ready_callable=ready, verbosity=max(0, verbosity - 1),
                        websocket_max_message_size=64 * 1024, websocket_handshake_timeout=30, **forwarded)
        from twisted.internet import reactor

        reactor.addSystemEventTrigger("before", "shutdown", lambda: [task.cancel() for task in tasks])
        server.run()
        if not inherited:
            self.stdout.write("Pig Parlor stopped")
            self.stdout.flush()
        # Worker threads may still wait on the stopped event loop (a broadcast
        # after a commit): nothing they hold matters — every table is in the
        # database — so leave now instead of joining them forever.
        os._exit(0)

    # -- several: this process only holds the socket and its workers ----------------
    def supervise(self, host, port, workers, no_clock, verbosity):
        listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen(1024)
        listener.set_inheritable(True)
        connections.close_all()  # the workers open their own
        metrics_dir, made_metrics_dir = self.metrics_directory()
        command = [sys.executable, sys.argv[0], "serve", "--host", host, "--port", str(port), "--inherited",
                   "--verbosity", str(verbosity)]
        if no_clock:
            command.append("--no-clock")

        def hand_over_socket():  # in the child, between fork and exec
            os.dup2(listener.fileno(), INHERITED_FD)
            os.environ.update(LISTEN_FDS="1", LISTEN_FDNAMES=SOCKET_NAME, LISTEN_PID=str(os.getpid()))

        def start():
            worker = subprocess.Popen(command, pass_fds=(INHERITED_FD,), preexec_fn=hand_over_socket)
            worker.started, worker.told = time.monotonic(), False
            return worker

        slots = [WorkerSlot(start()) for _ in range(workers)]
        stopping = False

        def stop(signum=None, frame=None):
            nonlocal stopping
            stopping = True
            for slot in slots:
                if slot.worker is not None and slot.worker.poll() is None and not slot.worker.told:
                    slot.worker.told = True
                    slot.worker.send_signal(signal.SIGTERM)

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        self.stdout.write(f"Pig Parlor serving on http://{host}:{port}/ with {workers} workers "
                          f"(pids {' '.join(str(slot.worker.pid) for slot in slots)}; Ctrl-C stops)")
        self.stdout.flush()
        failed = False
        while not stopping and not failed:
            time.sleep(0.2)
            for slot in slots:
                if slot.worker is not None and slot.worker.poll() is not None and not stopping:
                    mark_process_dead(slot.worker.pid, metrics_dir)  # its open sockets and queue are gone
                    self.log(slot.died(slot.worker, time.monotonic()))
                if slot.worker is None and not slot.given_up and not stopping \
                        and time.monotonic() >= slot.restart_at:
                    slot.worker = start()
                    self.log(f"worker {slot.worker.pid} started (replacing {slot.dead.pid})")
            if all(slot.given_up for slot in slots):
                self.log("no worker is left: stopping")
                failed = True
        stop()  # and any worker started as the signal came
        for slot in slots:
            if slot.worker is None:
                continue
            try:
                slot.worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                slot.worker.kill()
        listener.close()
        if made_metrics_dir:
            shutil.rmtree(metrics_dir, ignore_errors=True)
        if failed:
            raise CommandError(f"every worker failed {FAILURES_TO_GIVE_UP} times within "
                               f"{FAILURE_WINDOW_SECONDS:g} s of their starts (their output is above)")
        self.stdout.write("Pig Parlor stopped")
        self.stdout.flush()

    def metrics_directory(self) -> tuple[str, bool]:
        """Where the workers keep their metrics for each other (Prometheus's multiprocess mode,
        pigparlor/ops/metrics.py): ``PROMETHEUS_MULTIPROC_DIR`` if set, emptied of a previous
        run's numbers, else a directory of its own for this run (removed at the end). True if made here."""
        chosen = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
        if chosen:
            os.makedirs(chosen, exist_ok=True)
            for name in os.listdir(chosen):
                if name.endswith(".db"):
                    os.unlink(os.path.join(chosen, name))
            return chosen, False
        made = tempfile.mkdtemp(prefix="pigparlor-metrics-")
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = made  # the workers inherit it
        return made, True

    def log(self, line):
        self.stderr.write(line)
        self.stderr.flush()

    def rate_unrated(self):
        """Ratings kept under older rules than the code's are rebuilt under the new ones;
        tables that finished just before a crash, before their rating, are rated now."""
        from pigparlor.ratings.service import RULES, rate_unrated, rebuild_if_rules_changed

        moved = rebuild_if_rules_changed()
        if moved:
            self.stdout.write(f"Rebuilt the ratings under rules version {RULES}: {moved} rating(s) moved")
        rated = rate_unrated()
        if rated:
            self.stdout.write(f"Rated {rated} table(s) left unrated by the last run")
