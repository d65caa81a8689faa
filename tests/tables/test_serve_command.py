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
