"""First load (issue 14): static files under hashed names, compressed with gzip and
brotli, cached for ever; the home page's JS + CSS stay within 40 KB on the wire,
and a repeat visit has nothing to revalidate. Against the real ``serve``."""
import re
import urllib.request

from django.templatetags.static import static

IMMUTABLE = "max-age=315360000, public, immutable"
FIRST_LOAD_BUDGET = 40 * 1024


def get(url: str, **headers) -> tuple[int, dict, bytes]:
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, {key.lower(): value for key, value in response.headers.items()}, response.read()


def home_page_assets(live_site) -> list[str]:
    _, _, body = get(f"{live_site}/")
    page = body.decode()
    scripts = re.findall(r'<script[^>]+src="(/static/[^"]+)"', page)
    styles = re.findall(r'<link[^>]+rel="stylesheet"[^>]+href="(/static/[^"]+)"', page)
    styles += re.findall(r'<link[^>]+href="(/static/[^"]+\.css)"[^>]+rel="stylesheet"', page)
    return scripts + styles


def test_the_home_page_loads_its_js_and_css_by_hashed_names(live_site):
    assets = home_page_assets(live_site)
    assert any(path.endswith(".js") for path in assets) and any(path.endswith(".css") for path in assets)
    for path in assets:
        assert re.search(r"\.[0-9a-f]{12}\.(min\.)?(js|css)$", path) or re.search(r"\.min\.[0-9a-f]{12}\.js$", path), path
    assert static("css/site.css") in assets and static("vendor/htmx.min.js") in assets


def test_hashed_files_are_cached_for_ever_and_come_compressed(live_site):
    for path in home_page_assets(live_site):
        status, headers, body = get(f"{live_site}{path}", **{"Accept-Encoding": "br"})
        assert status == 200 and headers["cache-control"] == IMMUTABLE, (path, headers)
        assert headers["content-encoding"] == "br" and "accept-encoding" in headers["vary"].lower()
        status, headers, _ = get(f"{live_site}{path}", **{"Accept-Encoding": "gzip"})
        assert headers["content-encoding"] == "gzip" and headers["cache-control"] == IMMUTABLE
        status, headers, plain = get(f"{live_site}{path}")
        assert "content-encoding" not in headers and len(plain) > len(body)


def test_the_home_pages_js_and_css_are_at_most_40_kb_on_the_wire(live_site):
    transferred = 0
    for path in home_page_assets(live_site):
        _, headers, body = get(f"{live_site}{path}", **{"Accept-Encoding": "br, gzip"})
        transferred += len(body)
    assert transferred <= FIRST_LOAD_BUDGET, f"{transferred} bytes of JS and CSS"


def test_unhashed_names_still_answer_but_are_not_cached_for_ever(live_site):
    status, headers, body = get(f"{live_site}/static/css/site.css")
    assert status == 200 and b".notice-panel" in body
    assert "immutable" not in headers["cache-control"]


def test_the_service_worker_caches_the_hashed_names_pages_load(live_site):
    _, headers, body = get(f"{live_site}/sw.js")
    assert "no-cache" in headers["cache-control"]  # a new worker is picked up at once
    worker = body.decode()
    for name in ("css/site.css", "vendor/htmx.min.js", "js/site.js"):
        assert f'"{static(name)}"' in worker, name


def test_static_urls_are_remembered_until_a_new_manifest(settings, tmp_path):
    """issue 14: ``{% static %}`` at every browser seat's update reads a remembered URL;
    a new collection's manifest (a new ``hashed_files``) is read afresh."""
    from pigparlor.static_files import StaticStorage

    settings.DEBUG = False
    storage = StaticStorage(location=str(tmp_path))
    storage.hashed_files = {"css/x.css": "css/x.111111111111.css"}
    assert storage.url("css/x.css") == "/static/css/x.111111111111.css"
    storage.hashed_files["css/x.css"] = "css/x.222222222222.css"  # the same manifest: remembered
    assert storage.url("css/x.css") == "/static/css/x.111111111111.css"
    storage.hashed_files = {"css/x.css": "css/x.333333333333.css"}  # a new collection
    assert storage.url("css/x.css") == "/static/css/x.333333333333.css"
    settings.DEBUG = True
    assert storage.url("css/x.css") == "/static/css/x.css"
