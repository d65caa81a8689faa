"""The installable shell as Chromium sees it."""
import pytest
from django.templatetags.static import static

from tests.e2e.conftest import ARGS, CHROMIUM

pytestmark = pytest.mark.browser


def test_chromium_reports_no_installability_errors(live_site, playwright, tmp_path):
    """A persistent profile: Chromium never offers to install from an incognito one."""
    context = playwright.chromium.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, args=ARGS)
    page = context.new_page()
    page.goto(f"{live_site}/")
    scope = page.evaluate("navigator.serviceWorker.ready.then(registration => registration.scope)")
    assert scope == f"{live_site}/"
    manifest = page.evaluate("fetch('/manifest.webmanifest').then(response => response.json())")
    assert manifest["display"] == "standalone"
    session = page.context.new_cdp_session(page)
    result = session.send("Page.getInstallabilityErrors")
    context.close()
    assert result["installabilityErrors"] == []


def test_service_worker_caches_the_shell_and_serves_the_offline_page(live_site, context_factory):
    context = context_factory()
    page = context.new_page()
    page.goto(f"{live_site}/")
    page.evaluate("navigator.serviceWorker.ready")
    cached = page.evaluate("""async () => {
        const names = await caches.keys();
        const cache = await caches.open(names.find(name => name.startsWith('pigparlor-shell-')));
        return (await cache.keys()).map(request => new URL(request.url).pathname);
    }""")
    assert static("css/site.css") in cached and "/offline/" in cached  # the hashed name the pages load
    page.reload()
    context.set_offline(True)
    page.goto(f"{live_site}/games/pigpile/")
    assert "You're offline" in page.content()
    context.set_offline(False)
