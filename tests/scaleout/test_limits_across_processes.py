"""The per-user table limits hold across server processes (issue 9 item 8): two
``serve`` processes on one PostgreSQL database, a dozen creates at once for one
user split over both, and exactly the allowed number of tables exists."""
from __future__ import annotations

import secrets
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import pytest

from tests.api.test_e2e_serve import http
from tests.conftest import start_site, stop_site

pytestmark = pytest.mark.scaleout
CAP, PER_MINUTE, ATTEMPTS = 3, 4, 12


@pytest.fixture(scope="module")
def limited_sites(scaleout_database, tmp_path_factory):
    env = {"DATABASE_URL": scaleout_database, "PIGPARLOR_MAX_UNFINISHED_TABLES": str(CAP),
           "PIGPARLOR_TABLES_PER_MINUTE": str(PER_MINUTE)}
    sites = []
    try:
        for name in ("a", "b"):
            sites.append(start_site(Path(tmp_path_factory.mktemp(f"limited-{name}")), env))
        yield tuple(sites)
    finally:
        for site in sites:
            stop_site(site)


def create_at_once(sites, token) -> list[tuple[int, dict]]:
    with ThreadPoolExecutor(max_workers=ATTEMPTS) as pool:
        return list(pool.map(lambda n: http(sites[n % 2], "POST", "/api/tables/", token,
                                            {"game": "pigpile", "seats": 4}), range(ATTEMPTS)))


def hosted(database_url, username) -> list[tuple[int, str]]:
    with psycopg.connect(database_url) as connection:
        return connection.execute(
            "SELECT t.id, t.status FROM tables_table t JOIN auth_user u ON u.id = t.host_id "
            "WHERE u.username = %s", [username]).fetchall()


def test_the_unfinished_tables_cap_holds_across_two_processes(limited_sites, scaleout_database):
    name = f"capped-{secrets.token_hex(3)}"
    token = limited_sites[0].manage("api_token", name, "--create")
    answers = create_at_once(limited_sites, token)
    assert sorted(status for status, _ in answers) == [201] * CAP + [429] * (ATTEMPTS - CAP), answers
    assert {body["code"] for status, body in answers if status == 429} == {"rate_limited"}
    assert len(hosted(scaleout_database, name)) == CAP


def test_the_creation_rate_holds_across_two_processes(limited_sites, scaleout_database):
    name = f"hasty-{secrets.token_hex(3)}"
    token = limited_sites[0].manage("api_token", name, "--create")
    for site in (limited_sites[0], limited_sites[1], limited_sites[0]):
        assert http(site, "POST", "/api/tables/", token, {"game": "pigpile", "seats": 4})[0] == 201
    with psycopg.connect(scaleout_database) as connection:
        connection.execute("UPDATE tables_table SET status = 'finished' WHERE id = ANY(%s)",
                           [[table_id for table_id, _ in hosted(scaleout_database, name)]])
    answers = create_at_once(limited_sites, token)
    assert sorted(status for status, _ in answers) == [201] * (PER_MINUTE - 3) + [429] * (ATTEMPTS - PER_MINUTE + 3)
    assert all("in the last minute" in body["message"] for status, body in answers if status == 429)
    assert len(hosted(scaleout_database, name)) == PER_MINUTE
