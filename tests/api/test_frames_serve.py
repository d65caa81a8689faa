"""Oversized and malformed frames against the real server (``manage.py serve``):
what Daphne and autobahn do before our consumer sees a frame (docs/api.md).

- up to 4 KB: the consumer reads it;
- 4 KB to 64 KB: an error frame ``message too large``, and the socket stays open;
- over 64 KB (Daphne's ``websocket_max_message_size``): a close with 1009;
- a text frame that is not UTF-8: a close with 1007.
Before, the last two dropped the TCP connection without a close frame (1006).
"""
import json
import urllib.request
from contextlib import contextmanager

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect


@pytest.fixture(scope="module")
def table_socket(live_site):
    token = live_site.manage("api_token", "frame-tester", "--create")
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    request = urllib.request.Request(f"{live_site}/api/tables/", method="POST", headers=headers,
                                     data=json.dumps({"game": "snout", "seats": 2, "bots": 1}).encode())
    with urllib.request.urlopen(request, timeout=30) as response:
        path = json.loads(response.read())["ws"]

    @contextmanager
    def opened():
        with connect(f"{live_site.ws_url}{path}", additional_headers=headers, max_size=None) as socket:
            assert json.loads(socket.recv(timeout=30))["type"] == "state"
            yield socket
    return opened


def next_error(socket) -> dict:
    while True:
        frame = json.loads(socket.recv(timeout=30))
        if frame["type"] == "error":
            return frame


def closed_with(socket) -> int:
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            socket.recv(timeout=30)
    return closed.value.rcvd.code


def test_a_frame_between_4_and_64_kb_gets_an_error_and_the_socket_stays(table_socket):
    with table_socket() as socket:
        socket.send(json.dumps({"type": "snapshot", "pad": "x" * 10_000}))
        assert next_error(socket) == {"type": "error", "code": "bad_request", "message": "message too large"}
        socket.send(json.dumps({"type": "snapshot"}))
        assert json.loads(socket.recv(timeout=30))["type"] == "state"


def test_a_frame_over_64_kb_is_closed_with_1009(table_socket):
    with table_socket() as socket:
        socket.send(json.dumps({"type": "snapshot", "pad": "x" * 70_000}))
        assert closed_with(socket) == 1009


def test_a_text_frame_that_is_not_utf8_is_closed_with_1007(table_socket):
    with table_socket() as socket:
        socket.send(b'{"type": "\xff"}', text=True)
        assert closed_with(socket) == 1007
