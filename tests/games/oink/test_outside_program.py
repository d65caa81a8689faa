"""An outside program plays a whole 4-seat Oink! table (3 bots) over the JSON protocol to its
outcome, against the real server: it answers pings, flips when it is its flip and slaps every
card that calls for a cry with the right one (O3), naming the pile state it answers (O4).

``tests/api/test_e2e_serve.py`` covers the turn-based games the same way; a real-time game
needs its own player. Once it has flipped and slapped, the decks are cut short (the rest of
each deck moved to its seat's winnings), so the game ends in a dozen flips, not ninety."""
import json
import time

import pytest
from websockets.sync.client import connect

from bench.fairness import cry, post
from tests.games.oink.helpers import near_the_end

LIMIT_S = 300


@pytest.mark.long
def test_an_outside_program_plays_a_whole_oink_table_with_three_bots(live_site):
    token = live_site.manage("api_token", "oink-outsider", "--create")
    created = post(live_site, "/api/tables/", token,
                   {"game": "oink", "seats": 4, "bots": 3, "options": {"reveal_gap_ms": 500}})
    counts = {"pings": 0, "flips": 0, "slaps": 0, "late": 0}
    deadline = time.monotonic() + LIMIT_S
    slapped = set()
    hurried = False
    with connect(f"{live_site.ws_url}{created['ws']}", additional_headers={"Authorization": f"Bearer {token}"}) as socket:
        while True:
            assert time.monotonic() < deadline, f"no outcome within {LIMIT_S} s: {counts}"
            frame = json.loads(socket.recv(timeout=60))
            if frame["type"] == "ping":
                counts["pings"] += 1
                socket.send(json.dumps({"type": "pong", "id": frame["id"]}))
                continue
            if frame["type"] == "error":
                assert frame["code"] == "illegal" and frame["message"].startswith(("late", "it is not your flip")), frame
                counts["late"] += 1
                continue
            if "outcome" in frame:
                break
            pile = frame["view"]["pile"]
            if not hurried and counts["flips"] >= 5 and counts["slaps"] >= 1:
                hurried = True  # seen playing: now on to the outcome in a dozen flips, not ninety
                live_site.edit_state(created["id"], near_the_end())
            if {"type": "flip"} in frame["legal"]:
                socket.send(json.dumps({"type": "act", "version": frame["version"], "action": {"type": "flip"}}))
                counts["flips"] += 1
            elif pile["open"] and pile["id"] not in slapped and cry(pile) is not None:
                slapped.add(pile["id"])
                action = {"type": "slap", "cry": cry(pile), "pile": pile["id"], "reaction_ms": 300}
                socket.send(json.dumps({"type": "act", "version": frame["version"], "action": action}))
                counts["slaps"] += 1
    assert counts["pings"] >= 4 and counts["flips"] >= 5 and counts["slaps"] >= 1, counts
    assert frame["seat"] == 0 and sorted(frame["outcome"]["ranks"])[0] == 1
    assert sum(frame["outcome"]["scores"]) + frame["view"]["pile"]["size"] <= 88
    assert frame["view"]["phase"] == "over"
