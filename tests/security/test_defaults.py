"""Issue 9 item 5: the command a user runs is safe to show strangers.

DEBUG is off unless asked for, the secret key is made on first run and kept,
404 and 500 pages are the site's own, a 500 is logged with its traceback, and
``check --deploy`` is clean behind a TLS proxy with the documented settings.
"""
import os
import re
import stat
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from tests.conftest import ROOT

SETTINGS_ONLY = ("DJANGO_DEBUG", "DJANGO_SECRET_KEY", "DJANGO_HTTPS", "DJANGO_BEHIND_PROXY", "DJANGO_ALLOWED_HOSTS",
                 "DJANGO_CSRF_TRUSTED_ORIGINS", "DJANGO_HSTS_SECONDS", "DJANGO_HSTS_INCLUDE_SUBDOMAINS",
                 "DJANGO_HSTS_PRELOAD", "PIGPARLOR_DATA_DIR")


def run_python(code: str, tmp_path, **env) -> subprocess.CompletedProcess:
    """``code`` in a fresh interpreter with the site's settings, a data directory of
    its own and none of the shell's setting variables unless given in ``env``."""
    clean = {name: value for name, value in os.environ.items() if name not in SETTINGS_ONLY}
    clean.update(DJANGO_SETTINGS_MODULE="pigparlor.settings", DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
                 PIGPARLOR_DATA_DIR=str(tmp_path / "data"), **env)
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True,
                          timeout=120)


SHOW_SETTINGS = "from django.conf import settings; print(settings.DEBUG); print(settings.SECRET_KEY)"


def test_debug_is_off_unless_asked_for(tmp_path):
    assert run_python(SHOW_SETTINGS, tmp_path).stdout.split()[0] == "False"
    assert run_python(SHOW_SETTINGS, tmp_path, DJANGO_DEBUG="1").stdout.split()[0] == "True"


def test_without_a_set_key_one_is_made_on_first_run_and_kept(tmp_path):
    first = run_python(SHOW_SETTINGS, tmp_path).stdout.split()[1]
    second = run_python(SHOW_SETTINGS, tmp_path).stdout.split()[1]
    key_file = tmp_path / "data" / "secret_key"
    assert first == second == key_file.read_text().strip()
    assert len(first) >= 50 and "insecure" not in first
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600, "only its owner may read the key"
    other = tmp_path / "elsewhere"
    other.mkdir()
    assert run_python(SHOW_SETTINGS, other).stdout.split()[1] != first, "every site makes its own"


def test_a_set_key_wins_and_nothing_is_written(tmp_path):
    assert run_python(SHOW_SETTINGS, tmp_path, DJANGO_SECRET_KEY="k" * 60).stdout.split()[1] == "k" * 60
    assert not (tmp_path / "data").exists()


@pytest.mark.django_db
def test_a_missing_page_is_the_sites_own_404(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    body = response.content.decode()
    assert "This page wandered off" in body and 'class="site-header"' in body
    assert "URLconf" not in body and "admin/" not in body, "no list of URL patterns"


BREAK_A_PAGE = """
import django
django.setup()
from django.test import Client, override_settings
with override_settings(ROOT_URLCONF="tests.security.failing_urls"):
    response = Client(raise_request_exception=False).get("/broken/", HTTP_HOST="127.0.0.1")
print(response.status_code)
print(response.content.decode())
"""


def test_a_500_shows_the_sites_page_and_logs_the_traceback_to_stderr(tmp_path):
    done = run_python(BREAK_A_PAGE, tmp_path)
    status, _, body = done.stdout.partition("\n")
    assert status == "500"
    assert "Something went wrong" in body and re.search(r"/static/css/site\.[0-9a-f]{12}\.css", body)
    assert "the trough tipped over" not in body and "Traceback" not in body, "no details for visitors"
    assert "ERROR django.request: Internal Server Error: /broken/" in done.stderr
    assert "Traceback (most recent call last)" in done.stderr
    assert "RuntimeError: the trough tipped over" in done.stderr


BEHIND_A_TLS_PROXY = {
    "DJANGO_HTTPS": "1", "DJANGO_BEHIND_PROXY": "1", "DJANGO_ALLOWED_HOSTS": "pigs.example",
    "DJANGO_CSRF_TRUSTED_ORIGINS": "https://pigs.example", "DJANGO_HSTS_INCLUDE_SUBDOMAINS": "1",
    "DJANGO_HSTS_PRELOAD": "1",
}


def test_check_deploy_is_clean_behind_a_tls_proxy_with_the_documented_settings(tmp_path):
    done = run_python("from django.core.management import execute_from_command_line; "
                      "execute_from_command_line(['manage.py', 'check', '--deploy', '--fail-level', 'WARNING'])",
                      tmp_path, **BEHIND_A_TLS_PROXY)
    assert done.returncode == 0, done.stderr
    assert "System check identified no issues" in done.stdout


def fetch(url: str, **headers) -> tuple[int, dict, str]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as answer:
        return answer.code, dict(answer.headers), answer.read().decode()


def test_the_live_server_runs_without_debug_and_still_serves_static_files(live_site):
    status, _, body = fetch(f"{live_site}/no-such-page/")
    assert status == 404 and "This page wandered off" in body and "URLconf" not in body
    status, headers, body = fetch(f"{live_site}/static/css/site.css")
    assert status == 200 and headers["Content-Type"].startswith("text/css") and ".notice-panel" in body
    assert fetch(f"{live_site}/static/admin/css/base.css")[0] == 200
