"""End to end against the real server (``manage.py serve`` in a subprocess): an
outside program with an API token plays a whole 4-seat table (3 bots) of each
turn-based registered game over the JSON protocol to its outcome.

Real-time games (Oink!) take minutes of wall time per game; they go through
the same door in ``tests/tables/test_leaks.py`` with the clock skipped ahead.
"""
import json
import random
import urllib.error
import urllib.request

import pytest
from websockets.sync.client import connect

from games.core.registry import all_games

TURN_BASED = [game.slug for game in all_games() if not game.engine.realtime]


def http(site, method, path, token=None, body=None):
    request = urllib.request.Request(f"{site}{path}", method=method,
                                     data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": f"Bearer {token}"} if token else {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as refusal:
        return refusal.code, json.loads(refusal.read())


@pytest.fixture(scope="module")
def token(live_site):
    return live_site.manage("api_token", "outside-bot", "--create")


def play_to_the_end(site, token, ws_path, rng) -> dict:
    """The example bot of docs/api.md: a random legal action whenever there is one."""
    with connect(f"{site.ws_url}{ws_path}", additional_headers={"Authorization": f"Bearer {token}"}) as socket:
        while True:
            frame = json.loads(socket.recv(timeout=60))
            if frame["type"] == "error":
                assert frame["code"] == "stale", frame  # a move raced a newer version: wait for it
                continue
            if "outcome" in frame:
                return frame
            if frame["type"] == "state" and frame["legal"]:
                socket.send(json.dumps({"type": "act", "version": frame["version"],
                                        "action": rng.choice(frame["legal"])}))


@pytest.mark.parametrize("slug", TURN_BASED)
def test_an_outside_program_plays_a_whole_table_with_three_bots(live_site, token, slug):
    engine = next(game.engine for game in all_games() if game.slug == slug)
    seats = min(max(4, engine.min_seats), engine.max_seats)
    status, created = http(live_site, "POST", "/api/tables/", token,
                           {"game": slug, "seats": seats, "bots": seats - 1, "options": {}})
    assert status == 201 and created["ws"] == f"/ws/api/tables/{created['id']}/"
    try:
        final = play_to_the_end(live_site, token, created["ws"], random.Random(slug))
    except Exception as failure:
        raise AssertionError(live_site.log_path.read_text()[-3000:]) from failure
    assert final["seat"] == 0 and sorted(final["outcome"]["ranks"])[0] == 1
    status, table = http(live_site, "GET", f"/api/tables/{created['id']}/", token)
    assert status == 200 and table["status"] == "finished" and table["outcome"] == final["outcome"]
    assert table["version"] == final["version"] and table["seats"][0]["user"] == "outside-bot"


def test_the_live_server_refuses_unknown_games_and_bad_tokens(live_site, token):
    assert http(live_site, "POST", "/api/tables/", token, {"game": "chess", "seats": 4})[0] == 400
    assert http(live_site, "POST", "/api/tables/", "pp_wrong", {"game": TURN_BASED[0], "seats": 4})[0] == 401
    assert http(live_site, "GET", "/api/tables/1/")[0] == 401
