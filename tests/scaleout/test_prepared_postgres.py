"""``pigparlor.tables.prepared`` on PostgreSQL: the row lock is ``FOR UPDATE`` and
JSON, dates and NULLs go through the ORM's own adapters (the checks of
tests/tables/test_prepared.py, in a ``manage.py shell`` on a fresh database)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.scaleout

CHECK = """
from django.contrib.auth import get_user_model
from tests.tables.prepared_checks import check_all
check_all(get_user_model().objects.create_user(username="prepared-pg"))
print("checked")
"""


def test_prepared_statements_on_postgresql(scaleout_database):
    done = subprocess.run([sys.executable, str(ROOT / "manage.py"), "shell", "-c", CHECK], cwd=ROOT, text=True,
                          capture_output=True, timeout=120,
                          env={**os.environ, "DATABASE_URL": scaleout_database,
                               "DJANGO_SETTINGS_MODULE": "pigparlor.settings"})
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().endswith("checked")
