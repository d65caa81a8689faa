"""The tournaments' JSON API (docs/api.md "Tournaments"): the documented
shapes, and every bad input of issue 12 refused with its code, changing nothing."""
from datetime import timedelta

import pytest
from django.utils import timezone

from pigparlor.tournaments.models import Entry, Tournament
from tests.api.test_http import api
from tests.support.tables import make_user

pytestmark = pytest.mark.django_db

STAGES = [{"game": "pigpile", "format": "elimination", "table_size": 4, "advance": 2},
          {"game": "snout", "format": "elimination", "table_size": 4, "advance": 2}]


def soon(minutes=5) -> str:
    return (timezone.now() + timedelta(minutes=minutes)).isoformat().replace("+00:00", "Z")


def body(**changes) -> dict:
    return {"name": "Sunday cup", "starts_at": soon(), "stages": STAGES, "capacity": {"min": 4, "max": 16},
            "conditions": {}, "rated": True, **changes}


@pytest.fixture
def staff():
    user = make_user("staffer")
    user.is_staff = True
    user.save()
    return api(user)


def test_staff_create_then_everyone_lists_and_reads(staff):
    created = staff("post", "/api/tournaments/", body())
    assert created.status_code == 201, created.json()
    made = created.json()
    assert made["status"] == "upcoming" and made["players"] == 0 and made["capacity"] == {"min": 4, "max": 16}
    assert [{k: s[k] for k in ("game", "format", "table_size", "advance", "rounds")} for s in made["stages"]] == [
        {"game": "pigpile", "format": "elimination", "table_size": 4, "advance": 2, "rounds": None},
        {"game": "snout", "format": "elimination", "table_size": 4, "advance": 2, "rounds": None}]
    player = api(make_user("ana"))
    listed = player("get", "/api/tournaments/").json()
    assert [t["id"] for t in listed["upcoming"]] == [made["id"]] and listed["running"] == listed["finished"] == []
    assert set(listed["upcoming"][0]) >= {"id", "name", "status", "starts_at", "players", "stages"}
    assert player("post", f"/api/tournaments/{made['id']}/register/").json()["entry"] == "registered"
    detail = player("get", f"/api/tournaments/{made['id']}/").json()
    assert detail["players"] == 1 and detail["rounds"] == []
    assert detail["standings"] == [{"place": 1, "username": "ana", "points": 0.0, "status": "registered"}]
    assert player("get", f"/api/tournaments/{made['id']}/me/").json() == {"status": "waiting", "table": None}
    assert player("post", f"/api/tournaments/{made['id']}/checkin/").json()["entry"] == "checked_in"
    assert player("post", f"/api/tournaments/{made['id']}/withdraw/").json()["entry"] == "withdrawn"
    assert player("get", f"/api/tournaments/{made['id']}/me/").json() == {"status": "out", "table": None}


def test_only_staff_create():
    response = api(make_user("ana"))("post", "/api/tournaments/", body())
    assert response.status_code == 403 and response.json()["code"] == "forbidden"
    assert Tournament.objects.count() == 0


@pytest.mark.parametrize("bad,words", [
    ({"starts_at": "2020-01-01T00:00:00Z"}, "past"),
    ({"starts_at": "tomorrow"}, "ISO 8601"),
    ({"starts_at": "2099-01-01T00:00:00"}, "time zone"),
    ({"stages": [{**STAGES[0], "table_size": 7}]}, "cannot seat 7"),
    ({"stages": [{**STAGES[0], "table_size": 2}]}, "cannot seat 2"),
    ({"stages": [{**STAGES[0], "advance": 4}]}, "less than the table size"),
    ({"stages": [{**STAGES[0], "advance": 0}]}, "at least 1"),
    ({"stages": [{**STAGES[0], "game": "chess"}]}, "unknown game"),
    ({"stages": [{**STAGES[0], "format": "arena"}]}, "format"),
    ({"stages": [{"game": "snout", "format": "swiss", "table_size": 4}]}, "rounds"),
    ({"stages": [{**STAGES[0], "table_size": "4"}]}, "whole number"),
    ({"stages": []}, "stages"),
    ({"capacity": {"min": 1, "max": 8}}, "capacity"),
    ({"capacity": {"min": 9, "max": 8}}, "capacity"),
    ({"conditions": {"min_rating": "1500"}}, "whole number"),
    ({"rated": "yes"}, "true or false"),
    ({"colour": "red"}, "unknown field"),
    ({"name": ""}, "name"),
])
def test_bad_tournaments_are_refused_and_nothing_is_created(staff, bad, words):
    response = staff("post", "/api/tournaments/", body(**bad))
    assert response.status_code == 400, response.json()
    answer = response.json()
    assert answer["type"] == "error" and answer["code"] == "bad_request" and words in answer["message"], answer
    assert Tournament.objects.count() == 0


def test_registration_refusals(staff):
    made = staff("post", "/api/tournaments/", body(capacity={"min": 2, "max": 2},
                                                   conditions={"min_rating": 1600})).json()
    path = f"/api/tournaments/{made['id']}"
    refused = api(make_user("ana"))("post", f"{path}/register/")
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden" and "1600" in refused.json()["message"]
    Tournament.objects.filter(pk=made["id"]).update(min_rating=None)
    ben, cy, dee = api(make_user("ben")), api(make_user("cy")), api(make_user("dee"))
    assert ben("post", f"{path}/register/").status_code == 200
    twice = ben("post", f"{path}/register/")
    assert twice.status_code == 409 and twice.json()["code"] == "illegal"
    assert cy("post", f"{path}/register/").status_code == 200
    full = dee("post", f"{path}/register/")
    assert full.status_code == 409 and "full" in full.json()["message"]
    Tournament.objects.filter(pk=made["id"]).update(starts_at=timezone.now() + timedelta(minutes=30))
    early = ben("post", f"{path}/checkin/")
    assert early.status_code == 409 and "check-in opens" in early.json()["message"]
    Tournament.objects.filter(pk=made["id"]).update(starts_at=timezone.now() - timedelta(seconds=1))
    late = dee("post", f"{path}/register/")
    assert late.status_code == 409 and "started" in late.json()["message"]
    Tournament.objects.filter(pk=made["id"]).update(status="finished")
    over = dee("post", f"{path}/register/")
    assert over.status_code == 409 and "over" in over.json()["message"]
    assert Entry.objects.filter(tournament_id=made["id"]).count() == 2
    assert Entry.objects.filter(status="checked_in").count() == 0
    assert ben("post", f"{path}/register/", {"extra": 1}).status_code == 400
    assert ben("get", "/api/tournaments/999999/").status_code == 404
    assert ben("post", "/api/tournaments/999999/register/").json()["code"] == "not_found"
    assert api()("get", "/api/tournaments/").status_code == 401
