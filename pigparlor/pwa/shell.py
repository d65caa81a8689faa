"""What the service worker keeps offline, and the cache version that names it.

The version is a hash of the cached files' contents, so any change to a
stylesheet, script or icon gives a new cache name: the new worker installs
next to the old one and deletes the old cache when it activates.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache

from django.contrib.staticfiles import finders
from django.templatetags.static import static

SHELL_FILES = (
    "css/site.css",
    "css/cards.css",
    "vendor/htmx.min.js",
    "vendor/ws.js",
    "js/site.js",
    "js/reconnect.js",
    "icons/pig.svg",
    "icons/icon-192.png",
    "icons/icon-512.png",
    "icons/maskable-512.png",
    "img/cards.svg",
)


@lru_cache(maxsize=1)
def shell_version() -> str:
    """A short hash over the shell files (computed once per process)."""
    digest = hashlib.sha256()
    for name in SHELL_FILES:
        path = finders.find(name)
        digest.update(name.encode())
        if path:
            with open(path, "rb") as handle:
                digest.update(handle.read())
    return digest.hexdigest()[:12]


def shell_urls() -> list[str]:
    return [static(name) for name in SHELL_FILES]
