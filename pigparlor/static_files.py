"""Collecting the static files once per change, safely from several processes at once.

``serve`` calls ``collect()`` at start (and so does the test session): a fresh
clone gets its hashed, compressed copy in ``STATIC_ROOT`` without a separate
step. A fingerprint of the sources (names, sizes, modification times) is kept
beside the copy, so an unchanged checkout skips the work; an exclusive file
lock makes servers started side by side wait for one collection instead of
writing the same files at once.
"""
from __future__ import annotations

import fcntl
import hashlib
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles.finders import get_finders
from django.core.management import call_command
from whitenoise.storage import CompressedManifestStaticFilesStorage

STAMP = ".collected"


def fingerprint() -> str:
    digest = hashlib.sha256(settings.STORAGES["staticfiles"]["BACKEND"].encode())
    for finder in get_finders():
        for name, storage in sorted(finder.list([]), key=lambda item: item[0]):
            stat = Path(storage.path(name)).stat()
            digest.update(f"{name}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def collect() -> bool:
    """Collect into ``STATIC_ROOT`` unless it already holds these sources; True if it collected."""
    root = Path(settings.STATIC_ROOT)
    root.mkdir(parents=True, exist_ok=True)
    with open(root.parent / f".{root.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        stamp, wanted = root / STAMP, fingerprint()
        collected = not (stamp.exists() and stamp.read_text() == wanted)
        if collected:
            call_command("collectstatic", interactive=False, verbosity=0)
            stamp.write_text(wanted)
    # This process may have read an older manifest already (another process collected
    # since): name files by the one on disk now.
    from django.contrib.staticfiles.storage import staticfiles_storage

    if hasattr(staticfiles_storage, "load_manifest"):  # ManifestFilesMixin, as its __init__ does
        staticfiles_storage.hashed_files, staticfiles_storage.manifest_hash = staticfiles_storage.load_manifest()
    return collected


class StaticStorage(CompressedManifestStaticFilesStorage):
    """whitenoise's compressed manifest storage, each name's URL remembered.

    Working out a hashed URL took 15 µs, and a table's page and every browser
    seat's update ask for its game's stylesheet and script (``{% static %}``),
    four seats at every version (issue 14). The URLs are remembered for the
    manifest they came from: a new collection (a new ``hashed_files``) forgets
    them. With ``DEBUG`` the names are not hashed and nothing is remembered."""

    _urls: tuple[dict, dict] | None = None

    def url(self, name, force=False):
        if force or settings.DEBUG:
            return super().url(name, force)
        urls = self._urls
        if urls is None or urls[0] is not self.hashed_files:
            urls = self._urls = (self.hashed_files, {})
        url = urls[1].get(name)
        if url is None:
            url = urls[1][name] = super().url(name)
        return url
