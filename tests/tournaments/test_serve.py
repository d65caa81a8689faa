"""End to end on a real ``serve``: every player is a program on the JSON
protocol; the tournament starts on its own at ``starts_at`` (the clock), and
nobody calls anything but the documented API."""
import time
from pathlib import Path

import pytest

from tests.api.test_e2e_serve import http
from tests.conftest import start_site, stop_site
from tests.tournaments.programs import START_SOON, Program, finish, iso_in, make_accounts


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    # A short seat grace: the no-show's and the leaver's seats pass to bots quickly.
    started = start_site(Path(tmp_path_factory.mktemp("tourney-serve")), {"PIGPARLOR_SEAT_GRACE_MS": "2000"})
    yield started
    stop_site(started)


def wait_until_status(site, token, tournament_id, wanted, timeout=1800) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status, detail = http(site, "GET", f"/api/tournaments/{tournament_id}/", token)
        assert status == 200
        if detail["status"] in wanted:
            return detail
        time.sleep(0.5)  # a poll between reads of the fact (the tournament's status), as a program does
    raise AssertionError(f"tournament {tournament_id} never became {wanted}: {detail['status']}")


def places_follow_ranks(places: dict, seats: list, ranks: list) -> None:
    """Standings places among a table's players order them exactly as the table's outcome does."""
    for a in range(len(seats)):
        for b in range(len(seats)):
            assert (places[seats[a]] < places[seats[b]]) == (ranks[a] < ranks[b]), (seats, ranks, places)


@pytest.mark.long
def test_sixteen_programs_play_pig_pile_elimination_then_a_snout_final(site):
    staff, players = make_accounts(site, 16)
    status, made = http(site, "POST", "/api/tournaments/", staff, {
        # Far off: everyone registers first, then the start is moved 2 s ahead (START_SOON).
        "name": "Programs' cup", "starts_at": iso_in(600), "capacity": {"min": 8, "max": 16}, "rated": True,
        # Greased Pig Start deals the face-up cards: the shortest Pig Pile the engine offers.
        "stages": [{"game": "pigpile", "format": "elimination", "table_size": 4, "advance": 2,
                    "options": {"greased_pig_start": True}},
                   {"game": "snout", "format": "elimination", "table_size": 4, "advance": 2}]})
    assert status == 201, made
    tournament_id = made["id"]
    for _username, token in players:
        assert http(site, "POST", f"/api/tournaments/{tournament_id}/register/", token)[0] == 200
        assert http(site, "POST", f"/api/tournaments/{tournament_id}/checkin/", token)[0] == 200
    status, before = http(site, "GET", f"/api/tournaments/{tournament_id}/", staff)
    assert before["status"] == "upcoming" and before["players"] == 16 and before["rounds"] == []
    programs = [Program(site, tournament_id, username, token, seed) for seed, (username, token) in enumerate(players)]
    for program in programs:
        program.start()
    site.manage("shell", "-c", START_SOON.format(pk=tournament_id))  # the clock starts it, on its own
    finish(programs, site)
    detail = wait_until_status(site, staff, tournament_id, ("finished",))
    rounds = detail["rounds"]
    assert [(r["stage"], r["round"], len(r["tables"])) for r in rounds] == [(0, 0, 4), (0, 1, 2), (1, 0, 1)]
    assert all(len(t["seats"]) == 4 and t["status"] == "finished" for r in rounds for t in r["tables"])
    # Each Pig Pile table's best two (by its outcome) are exactly the next round's players.
    for earlier, later in zip(rounds, rounds[1:]):
        going_on = set()
        for table in earlier["tables"]:
            order = sorted(range(4), key=lambda seat: table["outcome"]["ranks"][seat])
            cut = table["outcome"]["ranks"][order[1]]
            best = {table["seats"][seat] for seat in range(4) if table["outcome"]["ranks"][seat] <= cut}
            assert len(best) >= 2
            going_on |= {table["seats"][seat] for seat in order[:2]} if len(best) == 2 else best & {
                seat for t in later["tables"] for seat in t["seats"]}
        assert going_on == {seat for table in later["tables"] for seat in table["seats"]}
    [final] = rounds[-1]["tables"]
    standings = detail["standings"]
    assert [row["place"] for row in standings] == sorted(row["place"] for row in standings)
    assert len(standings) == 16 and {row["username"] for row in standings} == {name for name, _ in players}
    top = {row["username"]: row["place"] for row in standings[:4]}
    assert set(top) == set(final["seats"])
    places_follow_ranks(top, final["seats"], final["outcome"]["ranks"])
    assert all(row["status"] == "done" for row in standings[:4])
    assert all(row["status"] == "out" for row in standings[4:])
    # It started on its own, at starts_at: the first tables were made by the clock after that moment.
    first_table = rounds[0]["tables"][0]["id"]
    status, table = http(site, "GET", f"/api/tables/{first_table}/", staff)
    assert table["rated"] and table["game"] == "pigpile"
    assert all(program.final_status == "done" or program.final_status == "out" for program in programs)
    assert {p.username for p in programs if len(p.tables) == 3} == set(final["seats"])


@pytest.mark.long
def test_a_swiss_of_snout_with_a_no_show_and_a_leaver(site):
    staff, players = make_accounts(site, 12)
    status, made = http(site, "POST", "/api/tournaments/", staff, {
        "name": "Swiss programs", "starts_at": iso_in(600), "capacity": {"min": 4, "max": 12},
        "stages": [{"game": "snout", "format": "swiss", "table_size": 4, "rounds": 3}]})
    assert status == 201, made
    tournament_id = made["id"]
    no_show, leaver = players[0], players[1]
    for username, token in players:
        assert http(site, "POST", f"/api/tournaments/{tournament_id}/register/", token)[0] == 200
        if username != no_show[0]:
            assert http(site, "POST", f"/api/tournaments/{tournament_id}/checkin/", token)[0] == 200
    programs = [Program(site, tournament_id, username, token, seed, leave_after=2 if username == leaver[0] else None)
                for seed, (username, token) in enumerate(players) if username != no_show[0]]
    for program in programs:
        program.start()
    site.manage("shell", "-c", START_SOON.format(pk=tournament_id))  # the clock starts it, on its own
    finish(programs, site)
    detail = wait_until_status(site, staff, tournament_id, ("finished",))
    assert http(site, "GET", f"/api/tournaments/{tournament_id}/me/", no_show[1])[1] == {"status": "out",
                                                                                        "table": None}
    standings = {row["username"]: row for row in detail["standings"]}
    assert no_show[0] not in standings and len(standings) == 11
    rounds = detail["rounds"]
    assert [(r["stage"], r["round"]) for r in rounds] == [(0, 0), (0, 1), (0, 2)]
    for each in rounds:
        seated = [name for table in each["tables"] for name in table["seats"] if not name.startswith("bot:")]
        assert len(seated) == len(set(seated)) == 8 and len(each["byes"]) == 3
        assert set(seated) | set(each["byes"]) == set(standings)
    # The leaver scored last at the table they left (a bot finished it: "left").
    [left_table] = [t for r in rounds for t in r["tables"] if leaver[0] in t["seats"]][:1]
    seat = left_table["seats"].index(leaver[0])
    assert seat in left_table["outcome"]["left"]
    # Byes are fair: nobody has two byes while 3 byes a round over 3 rounds go to 9 different players.
    byes = [name for r in rounds for name in r["byes"]]
    assert len(byes) == len(set(byes)) == 9
    points = [row["points"] for row in detail["standings"]]
    assert points == sorted(points, reverse=True) or detail["standings"][0]["place"] == 1
