"""What tests share, in one place (style.md 15: tests wait on facts and share one support package).

- ``tests.support.sockets``: sockets straight onto a consumer (``open_socket``) or through
  routing (``connect``), and waits on facts: ``until(socket, done)``,
  ``frames_until(socket, version=N)``, ``answered(socket)`` (everything the server sent
  before it answered a later message), ``frame_version``, ``json_frames``.
- ``tests.support.tables``: users (``make_user``), tables in the database (``table``,
  ``finished_table``, ``played_table``), the clock (``step_clock``), replays (``state_at``)
  and bot games rendered without a database (``bot_game_snapshots``).
- ``tests.support.browser``: Playwright helpers (``sign_up``, ``create_table``,
  ``comes_true``, ``shoot``, ``press_down``, ``replace_part``…); the browser fixtures stay
  in tests/e2e/conftest.py.
- The live server (``start_site``, ``LiveSite``) and the user fixtures (``ana``, ``ben``,
  ``cy``) are in the root tests/conftest.py.

Waiting: every wait has a generous deadline (a loaded 2-core machine takes seconds) and
fails naming what it saw. Nothing here waits for time to pass.
"""
