"""The records on disk, and what differs between a record and today's output.

A table's record (``records/<game>-<seats>-seats-seed-<seed>.json``) has one line
per version:

- ``state``: the state digest (sha256 of the canonical JSON of ``ENGINE.dump``);
- ``api``: per viewer (``viewers``, in order, space-separated), the JSON API frame's digest;
- ``page``: per viewer, likewise, a digest of all the HTML parts that viewer is sent;
- ``parts``: per element id, a digest of that element over every viewer, only
  where it changed since the version before (every element at the first
  version; ``null`` once an element is gone).

``page`` names the viewer and ``parts`` the element: a mismatch is reported as
each (version, viewer, element) whose two digests both changed. The digests are
short (collisions do not matter to a comparison that only looks for change).

An engine-only record (``records/<game>-playouts.json``) holds the state digests
of every version of bot playouts, one line per (seats, seed).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from tests.golden import WRITE
from tests.golden.tables import PART_CHARS, Case, Sent, canonical, digest, viewer_name

RECORDS = Path(__file__).resolve().parent / "records"
STATE_CHARS = 16
MISSING = ""  # an element a viewer is not sent, inside an element's digest over every viewer
SHOWN = 12  # mismatches listed in a failure; the rest are counted


def writing() -> bool:
    return os.environ.get(WRITE, "") not in ("", "0")


def state_digest(dumped) -> str:
    return digest(canonical(dumped), STATE_CHARS)


def versions_of(sent: list[Sent], viewers) -> list[dict]:
    """The record's lines for a table's versions (every element at the first)."""
    lines: list[dict] = []
    before: dict[str, str] = {}
    for at in sent:
        elements = sorted({element for viewer in viewers for element in at.parts[viewer]})
        parts = {element: digest(canonical([at.parts[viewer].get(element, MISSING) for viewer in viewers]),
                                 PART_CHARS) for element in elements}
        changed: dict[str, str | None] = {element: value for element, value in parts.items()
                                          if before.get(element) != value}
        changed.update({element: None for element in before if element not in parts})
        lines.append({
            "version": at.version, "state": state_digest(at.state),
            "api": " ".join(at.frames[viewer] for viewer in viewers),
            "page": " ".join(digest(canonical(sorted(at.parts[viewer].items())), PART_CHARS) for viewer in viewers),
            "parts": changed})
        before = parts
    return lines


def table_record(case: Case, sent: list[Sent]) -> dict:
    return {"game": case.game, "seats": case.seats, "seed": case.seed,
            "viewers": [viewer_name(viewer) for viewer in case.viewers],
            "versions": versions_of(sent, case.viewers)}


def full_parts(lines: list[dict]) -> list[dict]:
    """Each version's element digests in full (the record keeps only the changes)."""
    full: list[dict] = []
    now: dict[str, str] = {}
    for line in lines:
        now = {**now, **line["parts"]}
        now = {element: value for element, value in now.items() if value is not None}
        full.append(now)
    return full


def table_differences(case: Case, expected: dict, actual: dict, sent: list[Sent], previews: dict[str, str]) -> list[str]:
    """What changed, as sentences naming (game, seats, seed, version, viewer, element),
    first version first. Where several viewers' pages and several elements changed at one
    version, each such pair is named (the record cannot tell which viewer saw which)."""
    where = f"{case.game} at {case.seats} seats, seed {case.seed}"
    if expected["viewers"] != actual["viewers"]:
        return [f"{where}: the viewers were {expected['viewers']}, now {actual['viewers']}"]
    found = []
    old_lines, new_lines = expected["versions"], actual["versions"]
    for old, new, old_parts, new_parts, at in zip(old_lines, new_lines, full_parts(old_lines),
                                                   full_parts(new_lines), sent):
        version = f"{where}, version {new['version']}"
        if old["version"] != new["version"]:
            found.append(f"{where}: the record's version {old['version']} is version {new['version']} now")
            break
        if old["state"] != new["state"]:
            found.append(f"{version}: the state's digest changed (ENGINE.dump)")
        named = list(zip(actual["viewers"], case.viewers))
        for (name, _), before, now in zip(named, old["api"].split(), new["api"].split()):
            if before != now:
                found.append(f"{version}, viewer {name}: the JSON API frame changed; now {previews[now]}")
        changed = [element for element in sorted({*old_parts, *new_parts})
                   if old_parts.get(element) != new_parts.get(element)]
        for (name, viewer), before, now in zip(named, old["page"].split(), new["page"].split()):
            if before == now:
                continue
            for element in changed or ["(some element)"]:
                html = at.parts[viewer].get(element)
                shown = "not sent now" if html is None else f"now {previews[html]}"
                found.append(f"{version}, viewer {name}, element #{element}: the HTML changed; {shown}")
    if len(old_lines) != len(new_lines):
        found.append(f"{where}: the record has {len(old_lines)} versions, today's game {len(new_lines)}")
    return found


def playout_differences(game: str, expected: dict, actual: dict) -> list[str]:
    found = []
    for name in sorted({*expected["playouts"], *actual["playouts"]}):
        old, new = expected["playouts"].get(name), actual["playouts"].get(name)
        if old is None or new is None:
            found.append(f"{game} playout {name}: {'not in the record' if old is None else 'no longer played'}")
            continue
        first = next((version for version, (a, b) in enumerate(zip(old, new), start=1) if a != b), None)
        if first is not None:
            found.append(f"{game} playout {name}, version {first}: the state's digest changed (ENGINE.dump)")
        elif len(old) != len(new):
            found.append(f"{game} playout {name}: {len(old)} versions in the record, {len(new)} today")
    return found


def path_of(name: str) -> Path:
    return RECORDS / f"{name}.json"


def write(name: str, record: dict, lines_key: str) -> Path:
    """The record as JSON with one line per entry of ``record[lines_key]`` (readable diffs)."""
    head = {key: value for key, value in record.items() if key != lines_key}
    entries = record[lines_key]
    if isinstance(entries, dict):
        body = ",\n".join(f"  {json.dumps(key)}: {json.dumps(value, separators=(',', ':'))}"
                          for key, value in entries.items())
        opened, closed = "{", "}"
    else:
        body = ",\n".join(f"  {json.dumps(value, separators=(',', ':'))}" for value in entries)
        opened, closed = "[", "]"
    text = json.dumps(head)[:-1] + f', {json.dumps(lines_key)}: {opened}\n{body}\n{closed}}}\n'
    assert json.loads(text) == record
    path = path_of(name)
    RECORDS.mkdir(exist_ok=True)
    path.write_text(text)
    return path


def read(name: str) -> dict:
    path = path_of(name)
    assert path.exists(), (f"no golden record {path.name}: write it from today's code with "
                           "`.venv/bin/python -m tests.golden.record` (tests/golden/__init__.py says when)")
    return json.loads(path.read_text())


def failure(found: list[str]) -> str:
    listed = "\n".join(found[:SHOWN])
    more = f"\n… and {len(found) - SHOWN} more" if len(found) > SHOWN else ""
    return (f"{len(found)} differences from the golden record:\n{listed}{more}\n"
            "A record changes only in a commit of its own that says why (tests/golden/__init__.py).")
