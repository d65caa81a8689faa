"""Run the whole suite N times back to back and name every test that failed in any run.

``make test-repeat N=3`` runs this: a flake gate to run before stopping after touching
tests or real-time code. Each run writes a JUnit report under ``var/repeat/``; the
summary lists each failing test with the runs it failed in. Exit status 1 if any run
failed, so a flake is never hidden by a later green run.
"""
from __future__ import annotations

import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REPORTS = ROOT / "var" / "repeat"


def failures(report: Path) -> list[str]:
    """The ids (``classname::name``) of the tests that failed or errored in one JUnit report."""
    if not report.exists():
        return ["<the run wrote no report>"]
    found = []
    for case in ElementTree.parse(report).iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            found.append(f"{case.get('classname')}::{case.get('name')}")
    return found


def main(argv: list[str]) -> int:
    runs = int(argv[0]) if argv else 3
    pytest_args = argv[1:]
    REPORTS.mkdir(parents=True, exist_ok=True)
    failed_in: dict[str, list[int]] = defaultdict(list)
    times = []
    for run in range(1, runs + 1):
        report = REPORTS / f"run-{run}.xml"
        report.unlink(missing_ok=True)
        started = time.monotonic()
        subprocess.run([sys.executable, "-m", "pytest", "-n", "3", "--dist", "loadgroup", "-q",
                        f"--junitxml={report}", *pytest_args], cwd=ROOT)
        times.append(time.monotonic() - started)
        for test in failures(report):
            failed_in[test].append(run)
        print(f"repeat: run {run} of {runs} took {times[-1]:.0f} s, "
              f"{sum(run in r for r in failed_in.values())} failed", flush=True)
    print(f"repeat: {runs} runs, {', '.join(f'{t:.0f} s' for t in times)}")
    if not failed_in:
        print("repeat: no test failed in any run")
        return 0
    print(f"repeat: {len(failed_in)} tests failed in at least one run:")
    for test, in_runs in sorted(failed_in.items()):
        print(f"  {test}  (runs {', '.join(map(str, in_runs))})")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
