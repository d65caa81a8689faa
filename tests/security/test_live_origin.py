"""Issue 9 item 13 against the real server: the origin check of browser sockets includes the port."""
import urllib.parse

from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect


def lobby_socket_opens(site, origin: str) -> bool:
    """Whether the server accepts a lobby socket (no login needed) from a page at ``origin``."""
    try:
        with connect(f"{site.ws_url}/ws/lobby/pigpile/", origin=origin, open_timeout=15):
            return True
    except InvalidStatus as refusal:
        assert refusal.response.status_code == 403
        return False


def test_a_page_on_another_port_of_the_same_host_gets_no_socket(live_site):
    port = urllib.parse.urlsplit(live_site).port
    assert not lobby_socket_opens(live_site, f"http://127.0.0.1:{9999 if port != 9999 else 9998}")
    assert not lobby_socket_opens(live_site, f"https://127.0.0.1:{port}")
    assert lobby_socket_opens(live_site, f"http://127.0.0.1:{port}")
