"""``serve`` behind a TLS proxy (``DJANGO_BEHIND_PROXY=1 DJANGO_HTTPS=1``), as docs/operations.md sets it up:
the scheme and the client's address come from the proxy's X-Forwarded-* headers, so HTTPS is enforced,
cookies are secure, sockets want the https origin, and login throttling sees each client's own address."""
import re
import urllib.error
import urllib.parse
import urllib.request
from http.cookies import SimpleCookie

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.conftest import start_site, stop_site

PASSWORD = "truffle-hunting-season-7"
STRANGER, ALICE = "203.0.113.9", "198.51.100.7"


@pytest.fixture(scope="module")
def proxied_site(tmp_path_factory):
    site = start_site(tmp_path_factory.mktemp("proxied"), {
        "DJANGO_BEHIND_PROXY": "1", "DJANGO_HTTPS": "1", "DJANGO_SUPERUSER_PASSWORD": PASSWORD})
    site.manage("createsuperuser", "--noinput", "--username", "alice", "--email", "alice@example.com")
    yield site
    stop_site(site)


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """A client behind the proxy at ``address``: every request carries the proxy's headers."""

    def __init__(self, site, address: str):
        self.site, self.address, self.cookies = site, address, SimpleCookie()
        self.opener = urllib.request.build_opener(NoRedirects)

    def request(self, path: str, data: bytes | None = None, proto: str = "https"):
        headers = {"X-Forwarded-For": self.address, "X-Forwarded-Proto": proto,
                   "Origin": self.site.replace("http://", "https://")}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{name}={morsel.value}" for name, morsel in self.cookies.items())
        request = urllib.request.Request(f"{self.site}{path}", data=data, headers=headers)
        try:
            response = self.opener.open(request, timeout=30)
        except urllib.error.HTTPError as answer:
            response = answer
        for header in response.headers.get_all("Set-Cookie") or []:
            self.cookies.load(header)
        return response.status, response.headers, response.read().decode()

    def log_in(self, username: str, password: str) -> int:
        _, _, page = self.request("/accounts/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "login": username, "password": password})
        return self.request("/accounts/login/", body.encode())[0]


def test_plain_http_is_redirected_and_https_gets_hsts_and_secure_cookies(proxied_site):
    status, headers, _ = Browser(proxied_site, ALICE).request("/", proto="http")
    assert status == 301 and headers["Location"].startswith("https://")
    status, headers, _ = Browser(proxied_site, ALICE).request("/accounts/login/")
    assert status == 200 and "max-age=31536000" in headers["Strict-Transport-Security"]
    assert all("Secure" in cookie for cookie in headers.get_all("Set-Cookie"))


def test_login_throttling_counts_each_client_address_behind_the_proxy(proxied_site):
    stranger = Browser(proxied_site, STRANGER)
    assert [stranger.log_in("alice", "guess") for _ in range(5)] == [200, 200, 200, 200, 429]
    assert Browser(proxied_site, ALICE).log_in("alice", PASSWORD) == 302


def test_browser_sockets_want_the_https_origin(proxied_site):
    def opens(origin):
        try:
            with connect(f"{proxied_site.ws_url}/ws/lobby/pigpile/", origin=origin, open_timeout=15,
                         additional_headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": ALICE}):
                return True
        except InvalidStatus:
            return False

    assert opens(proxied_site.replace("http://", "https://"))
    assert not opens(str(proxied_site))
