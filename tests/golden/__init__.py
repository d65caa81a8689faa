"""Golden records: what today's code sends, pinned, so a refactor proves nothing else moved.

For seeded bot games of every game, at seat counts across each game's range, the
records hold a digest of

- every HTML part a browser seat receives at every version, per viewer (each seat
  and the spectator) and element id (``rendering.html_parts``, the parts the
  table socket swaps in out of band), whitespace normalised;
- the JSON API's state frame per version and viewer (``rendering.json_state``:
  ``view``, ``legal``, ``deadline_ms``…);
- the state at every version: sha256 of the canonical JSON of ``ENGINE.dump``,
  the digest finished tables are verified against (``ActionLog.state_sha``), so
  these also guard old tables; and the same for engine-only playouts at every
  seat count.

A mismatch names the game, seats, seed, version, viewer and element that changed.

The rule: a record may change only in a commit of its own whose message says
why (a wording change); never in a refactor commit. To write the records from
today's code (after such a change, and only then)::

    .venv/bin/python -m tests.golden.record

which runs ``tests/golden`` with ``PIGPARLOR_GOLDEN_WRITE=1``: each test writes
its record under ``tests/golden/records/`` instead of comparing, and prints
"recorded …" (run with ``-s`` to see it). Review the diff of the records before committing them.
"""

WRITE = "PIGPARLOR_GOLDEN_WRITE"  # set (not "0"): the tests write their records instead of comparing
