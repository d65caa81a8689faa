"""``manage.py serve --workers N`` (issue 14): more than one worker needs the Redis
channel layer, and without ``REDIS_URL`` it refuses at once, saying what to do."""
import os
import subprocess
import sys

from tests.conftest import ROOT, free_port


def serve(*args: str, tmp_path) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
           "DJANGO_SETTINGS_MODULE": "pigparlor.settings"}
    env.pop("REDIS_URL", None)
    return subprocess.run([sys.executable, str(ROOT / "manage.py"), "serve", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_several_workers_without_redis_are_refused_with_what_to_do(tmp_path):
    done = serve("--workers", "2", "--port", str(free_port()), tmp_path=tmp_path)
    assert done.returncode == 1
    assert "--workers 2 needs the Redis channel layer: set REDIS_URL" in done.stderr
    assert not (tmp_path / "db.sqlite3").exists(), "refused before touching the database"


def test_zero_workers_are_refused(tmp_path):
    done = serve("--workers", "0", "--port", str(free_port()), tmp_path=tmp_path)
    assert done.returncode == 1 and "--workers must be 1 or more" in done.stderr


def test_serve_freezes_start_up_and_sets_the_collectors_thresholds(settings):
    """Issue 14: full collections were the tail of a busy process (docs/benchmarks.md)."""
    import gc

    from pigparlor.tables.management.commands.serve import tune_collector

    settings.PIGPARLOR_GC_THRESHOLDS = (12345, 6, 7)
    before = gc.get_threshold()
    try:
        tune_collector()
        assert gc.get_threshold() == (12345, 6, 7)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_bad_collector_thresholds_stop_the_start_with_what_to_write(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
           "DJANGO_SETTINGS_MODULE": "pigparlor.settings", "PIGPARLOR_GC_THRESHOLDS": "700,ten,10"}
    done = subprocess.run([sys.executable, str(ROOT / "manage.py"), "check"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "PIGPARLOR_GC_THRESHOLDS must be three positive whole numbers like 50000,20,100, not '700,ten,10'" \
        in done.stderr
