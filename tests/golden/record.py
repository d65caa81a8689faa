"""Write the golden records from today's code: ``.venv/bin/python -m tests.golden.record``
(extra arguments go to pytest, e.g. ``-k snout``). Only in a commit of its own that says
why a record changed (tests/golden/__init__.py)."""
import os
import sys

import pytest

from tests.golden import WRITE

if __name__ == "__main__":
    os.environ[WRITE] = "1"
    sys.exit(pytest.main(["tests/golden", "-p", "no:xdist", "-q", *sys.argv[1:]]))
