"""The site's secret key when ``DJANGO_SECRET_KEY`` is not set: made on first run, then kept.

(``load_or_create`` also keeps the Web Push VAPID key, pigparlor/pwa/vapid.py.)

It signs sessions, CSRF tokens and password-reset links, so a key everyone
can read (one in the repository) lets anyone forge them. The first process
that needs it writes a fresh random key to the data directory, readable by
its owner only; every later run (and every process of the same checkout)
reads the same file. Plain Python: settings imports it before Django is set up.
"""
from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path


def new_key() -> str:
    return secrets.token_urlsafe(50)


def load_or_create(path: Path, make: Callable[[], str] = new_key) -> str:
    """The key in ``path``, written first (``make()``) if the file does not exist yet.

    Several processes may start at once (tests, two servers): the key is
    written to a private temporary file and linked into place, which fails
    if another process got there first, so all of them read the same key and
    none reads a half-written one.
    """
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        draft = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as handle:
            handle.write(make())
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    key = path.read_text().strip()
    if not key:
        raise RuntimeError(f"{path} is empty: delete it (a new key is made) or set the key in the environment")
    return key
