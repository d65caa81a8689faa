"""The installable shell: manifest, root-scoped service worker, offline page."""
import json
import re
import struct
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.urls import reverse

from pigparlor.pwa.shell import SHELL_FILES, shell_version

pytestmark = pytest.mark.django_db


def png_size(path) -> tuple[int, int]:
    with open(path, "rb") as handle:
        header = handle.read(24)
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", header[16:24])


def test_manifest_has_what_installing_needs(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/manifest+json")
    manifest = json.loads(response.content)
    assert manifest["name"] == "Pig Parlor" and manifest["short_name"]
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/app/" and manifest["scope"] == "/" and manifest["id"] == "/"
    assert manifest["theme_color"].startswith("#") and manifest["background_color"].startswith("#")
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes


def test_manifest_icons_exist_at_their_stated_sizes(client):
    manifest = json.loads(client.get("/manifest.webmanifest").content)
    for icon in manifest["icons"]:
        assert re.fullmatch(r"/static/icons/[a-z-]+-\d+\.[0-9a-f]{12}\.png", icon["src"]), icon["src"]
        path = Path(settings.STATIC_ROOT) / icon["src"].removeprefix(settings.STATIC_URL)
        assert path.is_file(), icon["src"]
        width, height = png_size(path)
        assert f"{width}x{height}" == icon["sizes"]


def test_service_worker_is_served_from_the_root(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    assert f"pigparlor-shell-{shell_version()}" in body
    assert reverse("pwa:offline") in body
    assert re.search(r'"/static/vendor/htmx\.min\.[0-9a-f]{12}\.js"', body)  # the hashed name pages load
    assert static("vendor/htmx.min.js") in body
    assert 'addEventListener("fetch"' in body


def test_every_shell_file_exists():
    for name in SHELL_FILES:
        assert finders.find(name), name


def test_shell_version_follows_the_files_contents(tmp_path, settings):
    """A changed static file gives a new cache name, so the old cache is dropped."""
    shell_version.cache_clear()
    before = shell_version()
    (tmp_path / "css").mkdir()
    (tmp_path / "css" / "site.css").write_text("body { color: hotpink; }")
    settings.STATICFILES_DIRS = [tmp_path, *settings.STATICFILES_DIRS]
    finders.get_finder.cache_clear()
    shell_version.cache_clear()
    try:
        assert shell_version() != before
    finally:
        shell_version.cache_clear()
        finders.get_finder.cache_clear()


def test_offline_page(client):
    response = client.get(reverse("pwa:offline"))
    assert response.status_code == 200 and "offline" in response.content.decode().lower()


def test_every_page_links_the_manifest_and_registers_the_worker(client):
    html = client.get(reverse("home")).content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert f'src="{static("js/site.js")}" data-service-worker="/sw.js"' in html
    assert re.fullmatch(r"/static/js/site\.[0-9a-f]{12}\.js", static("js/site.js"))
    assert "navigator.serviceWorker.register(serviceWorker" in open(finders.find("js/site.js"), encoding="utf-8").read()
    assert '<meta name="theme-color"' in html
    assert 'name="viewport"' in html


def test_htmx_is_vendored_at_the_pinned_versions():
    htmx = open(finders.find("vendor/htmx.min.js"), encoding="utf-8").read()
    assert 'version:"2.0.11"' in htmx
    ws = open(finders.find("vendor/ws.js"), encoding="utf-8").read()
    assert "htmx.defineExtension('ws'" in ws


def test_favicon_ico_is_our_own_pig_icon(client):
    """Browsers ask for /favicon.ico where a page names no icon (a JSON answer): never a 404."""
    response = client.get("/favicon.ico")
    assert response.status_code == 302 and "max-age=86400" in response["Cache-Control"]
    assert re.fullmatch(r"/static/icons/favicon\.[0-9a-f]{12}\.ico", response["Location"]), response["Location"]
    icon = (Path(settings.STATIC_ROOT) / response["Location"].removeprefix(settings.STATIC_URL)).read_bytes()
    reserved, kind, count = struct.unpack("<HHH", icon[:6])
    assert (reserved, kind) == (0, 1) and count >= 2  # an icon file holding several sizes
    sizes = set()
    for index in range(count):
        width, _height, _colours, _, _planes, _bits, length, offset = struct.unpack(
            "<BBBBHHII", icon[6 + 16 * index:22 + 16 * index])
        assert icon[offset:offset + 8] == b"\x89PNG\r\n\x1a\n" and offset + length <= len(icon)
        sizes.add(width)
    assert {16, 32} <= sizes


def test_the_shortcuts_say_a_or_an_as_each_game_asks():
    from pigparlor.pwa.views import shortcuts

    said = {item["name"]: item["description"] for item in shortcuts()}
    assert said["Play Oink! now"] == "Quick play: a seat at an Oink! table"
    assert said["Play Snout! now"] == "Quick play: a seat at a Snout! table"
