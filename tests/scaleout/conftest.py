"""The scale-out setup: real PostgreSQL and Redis, several ``manage.py serve``.

- ``scaleout_services``: the PostgreSQL admin URL and the Redis URL, checked
  reachable. Unreachable is a failure with what to do, never a skip:
  start them, point ``PIGPARLOR_TEST_POSTGRES_URL`` / ``PIGPARLOR_TEST_REDIS_URL``
  at them, or (outside CI) deselect these tests with ``PIGPARLOR_NO_SCALEOUT=1``.
- ``scaleout_database``: a fresh database ``pigparlor_test_<random>`` for the
  session, migrated, dropped at the end.
- ``two_sites``: two ``serve`` processes on different ports sharing that
  database and Redis (under a key prefix of their own), each with its clock.
- ``two_workers``: one ``serve --workers 2`` on a database of its own (``workers_database``) and Redis: two
  worker processes on one listening socket, each with its clock.
"""
from __future__ import annotations

import os
import secrets
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
import redis
from psycopg import sql

from tests.conftest import ROOT, start_site, stop_site

POSTGRES_URL = os.environ.get("PIGPARLOR_TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("PIGPARLOR_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def _unreachable(service: str, url: str, error: Exception) -> None:
    if os.environ.get("CI"):
        advice = "CI is set, so the scale-out tests must run: start it on this machine."
    else:
        advice = ("Start it, point PIGPARLOR_TEST_POSTGRES_URL / PIGPARLOR_TEST_REDIS_URL at it, "
                  "or deselect the scale-out tests with PIGPARLOR_NO_SCALEOUT=1.")
    pytest.fail(f"scale-out tests need {service} at {url}, which is not reachable ({error}). {advice}",
                pytrace=False)


def _with_database(url: str, name: str) -> str:
    """``url`` pointing at the database ``name`` instead of the one it names."""
    base, _, _ = url.rpartition("/")
    return f"{base}/{name}"


@pytest.fixture(scope="session")
def scaleout_services() -> tuple[str, str]:
    try:
        psycopg.connect(POSTGRES_URL, connect_timeout=3).close()
    except psycopg.Error as error:
        _unreachable("PostgreSQL", POSTGRES_URL, error)
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3).ping()
    except redis.RedisError as error:
        _unreachable("Redis", REDIS_URL, error)
    return POSTGRES_URL, REDIS_URL


def _migrate(url: str) -> None:
    subprocess.run([sys.executable, str(ROOT / "manage.py"), "migrate", "--verbosity", "0"], cwd=ROOT,
                   env={**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "pigparlor.settings"},
                   capture_output=True, text=True, timeout=300, check=True)


# This process's migrated template database, made on first use and dropped at the session's end
# (``_drop_the_template``): a fresh database is a copy of it (CREATE DATABASE … TEMPLATE, a file
# copy) instead of a migration of its own, seconds of CPU each.
_TEMPLATES: dict[str, str] = {}


def _template(admin_url: str) -> str:
    if admin_url not in _TEMPLATES:
        name = f"pigparlor_template_{secrets.token_hex(4)}"
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        _TEMPLATES[admin_url] = name
        _migrate(_with_database(admin_url, name))  # the migration's connections close with its process
    return _TEMPLATES[admin_url]


@pytest.fixture(scope="session", autouse=True)
def _drop_the_template():
    yield
    for admin_url, name in _TEMPLATES.items():
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
    _TEMPLATES.clear()


@contextmanager
def fresh_database(admin_url: str, prefix: str = "pigparlor_test"):
    """A fresh, migrated PostgreSQL database URL (a copy of this process's migrated template);
    the database is dropped afterwards."""
    name = f"{prefix}_{secrets.token_hex(4)}"
    template = _template(admin_url)
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(sql.Identifier(name), sql.Identifier(template)))
    url = _with_database(admin_url, name)
    try:
        yield url
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.fixture(scope="session")
def scaleout_database(scaleout_services):
    """A fresh, migrated PostgreSQL database URL for the session."""
    with fresh_database(scaleout_services[0]) as url:
        yield url


def _forget_prefix(redis_url: str, prefix: str) -> None:
    store = redis.Redis.from_url(redis_url)
    keys = list(store.scan_iter(match=f"{prefix}*"))
    if keys:
        store.delete(*keys)


@pytest.fixture(scope="session")
def workers_database(scaleout_services):
    """The ``two_workers`` site's own database. A site is one database and one
    channel layer: when ``two_sites`` (another Redis prefix) shared this one, its
    clocks moved the workers' bots and told only their own sockets, and the
    workers' players waited for changes that had been sent to another site."""
    with fresh_database(scaleout_services[0]) as url:
        yield url


@pytest.fixture(scope="session")
def two_workers(scaleout_services, workers_database, tmp_path_factory):
    """``serve --workers 2``: one site, one socket, two server processes (on ``workers_database``)."""
    _, redis_url = scaleout_services
    prefix = f"pigparlor-test-{secrets.token_hex(4)}"
    env = {"DATABASE_URL": workers_database, "REDIS_URL": redis_url, "REDIS_PREFIX": prefix}
    site = start_site(Path(tmp_path_factory.mktemp("serve-workers")), env, workers=2)
    try:
        yield site
    finally:
        stop_site(site)
        _forget_prefix(redis_url, prefix)


@pytest.fixture(scope="session")
def two_sites(scaleout_services, scaleout_database, tmp_path_factory):
    """Two ``serve`` processes, one database, one Redis: a site scaled out."""
    _, redis_url = scaleout_services
    prefix = f"pigparlor-test-{secrets.token_hex(4)}"
    env = {"DATABASE_URL": scaleout_database, "REDIS_URL": redis_url, "REDIS_PREFIX": prefix}
    sites = []
    try:
        for name in ("a", "b"):
            directory = Path(tmp_path_factory.mktemp(f"serve-{name}"))
            sites.append(start_site(directory, env))
        yield tuple(sites)
    finally:
        for site in sites:
            stop_site(site)
        _forget_prefix(redis_url, prefix)
