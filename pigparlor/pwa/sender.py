"""The push queue and the thread that empties it.

Pushes are slow (a round trip to a push service, up to
``PIGPARLOR_PUSH_TIMEOUT_S``) and must never hold up a move, so nothing sends
where it is asked: ``enqueue`` puts a job on an in-memory queue, and the
sender thread that ``serve`` starts runs the jobs one by one, each when it is
due. A job that fails is logged and dropped, never retried. The queue is only
a queue: a process that dies loses the pushes it had not sent yet, and the
games go on. A process without a sender (a management command, a test) keeps
its jobs until ``drain()`` runs them.
"""
from __future__ import annotations

import heapq
import itertools
import logging
import queue
import threading
import time
from collections.abc import Callable

from django.db import close_old_connections

from pigparlor.ops import metrics

log = logging.getLogger(__name__)

MAX_QUEUED = 10_000
JOBS: queue.Queue = queue.Queue(maxsize=MAX_QUEUED)
_order = itertools.count()
_started = threading.Lock()
_thread: threading.Thread | None = None
_stopping = threading.Event()


def enqueue(job: Callable[[], object], delay_ms: float = 0) -> bool:
    """Run ``job()`` on the sender, no sooner than ``delay_ms`` from now (False: the queue was full)."""
    try:
        JOBS.put_nowait((time.monotonic() + delay_ms / 1000, next(_order), job))
    except queue.Full:
        log.warning("push queue full (%s jobs): dropped %r", MAX_QUEUED, job)
        metrics.PUSH_SENT.labels("dropped").inc()
        return False
    metrics.PUSH_QUEUE.inc()
    return True


def run(job) -> None:
    metrics.PUSH_QUEUE.dec()
    try:
        job()
    except Exception:
        log.exception("push job %r failed", job)


_draining = threading.Event()


def draining() -> bool:
    """Whether ``drain`` is running the jobs: a job that waits for its own time runs now."""
    return _draining.is_set()


def drain() -> int:
    """Run every queued job now, in order, whatever its delay (tests; returns how many)."""
    done = 0
    _draining.set()
    try:
        while True:
            try:
                _, _, job = JOBS.get_nowait()
            except queue.Empty:
                return done
            run(job)
            done += 1
    finally:
        _draining.clear()


def _loop() -> None:
    waiting: list = []
    while not _stopping.is_set():
        timeout = 1.0 if not waiting else min(1.0, max(0.0, waiting[0][0] - time.monotonic()))
        try:
            heapq.heappush(waiting, JOBS.get(timeout=timeout))
        except queue.Empty:
            pass
        while waiting and waiting[0][0] <= time.monotonic():
            _, _, job = heapq.heappop(waiting)
            close_old_connections()
            run(job)
        close_old_connections()


def start() -> None:
    """Start this process's sender thread (once; ``serve`` calls it)."""
    global _thread
    with _started:
        if _thread is None:
            _stopping.clear()
            _thread = threading.Thread(target=_loop, name="push-sender", daemon=True)
            _thread.start()


def stop() -> None:
    """Stop the sender thread once its current job is done (jobs it held back are dropped)."""
    global _thread
    with _started:
        if _thread is not None:
            _stopping.set()
            _thread.join()
            _thread = None
