"""The JSON protocol over HTTP: create, join, read; 400 for an unknown game, 401 without a token."""
import json

import pytest
from django.test import Client

from pigparlor.api.tokens import create_token
from pigparlor.tables.models import RUNNING, Table
from tests.support.tables import make_user

pytestmark = pytest.mark.django_db


def api(user=None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {create_token(user)}"} if user else {}
    client = Client(enforce_csrf_checks=True)

    def call(method, path, body=None, **extra):
        data = json.dumps(body) if isinstance(body, (dict, list)) else body
        return getattr(client, method)(path, data=data, content_type="application/json", **headers, **extra)
    return call


def test_create_a_table_with_bots_then_read_it(count_game):
    ana = make_user("ana")
    call = api(ana)
    response = call("post", "/api/tables/", {"game": "countgame", "seats": 3, "bots": 2, "options": {"turn_seconds": 30}})
    assert response.status_code == 201
    body = response.json()
    assert body == {"id": body["id"], "ws": f"/ws/api/tables/{body['id']}/"}
    table = Table.objects.get(pk=body["id"])
    assert table.status == RUNNING and table.options == {"turn_seconds": 30}
    detail = call("get", f"/api/tables/{table.pk}/").json()
    assert detail == {"id": table.pk, "game": "countgame", "status": "running", "version": 1, "outcome": None,
                      "rated": True, "commitment": table.commitment, "rematch": None,
                      "seats": [{"index": 0, "user": "ana", "username": "ana", "bot": None, "replaced": False},
                                {"index": 1, "user": None, "username": "bot:sensible", "bot": "sensible",
                                 "replaced": False},
                                {"index": 2, "user": None, "username": "bot:sensible", "bot": "sensible",
                                 "replaced": False}]}


def test_join_takes_a_seat_and_the_full_table_starts(count_game):
    ana, ben = make_user("ana"), make_user("ben")
    table_id = api(ana)("post", "/api/tables/", {"game": "countgame", "seats": 2}).json()["id"]
    response = api(ben)("post", f"/api/tables/{table_id}/join/")
    assert response.status_code == 200 and response.json()["seat"] == 1
    assert Table.objects.get(pk=table_id).status == RUNNING
    late = api(make_user("carl"))("post", f"/api/tables/{table_id}/join/")
    assert (late.status_code, late.json()["code"]) == (409, "illegal")


@pytest.mark.parametrize("game", ["countgame", "pigpile", "piggypiggy", "snout"])
def test_a_public_table_gets_a_30_s_turn_timer_and_may_not_ask_for_none(count_game, game):
    """Issue 10: "no timer" only at a private table; a public one asking for none gets a clear 400."""
    call = api(make_user("ana"))
    body = {"game": game, "seats": 3, "bots": 2}
    created = call("post", "/api/tables/", body)
    assert created.status_code == 201
    assert Table.objects.get(pk=created.json()["id"]).options["turn_seconds"] == 30
    refused = call("post", "/api/tables/", {**body, "options": {"turn_seconds": 0}})
    assert refused.status_code == 400 and refused.json() == {
        "type": "error", "code": "bad_request",
        "message": "a public table needs a turn timer: turn_seconds 0 (no timer) is only for private tables"}
    private = call("post", "/api/tables/", {**body, "options": {"turn_seconds": 0}, "private": True})
    assert private.status_code == 201
    assert Table.objects.get(pk=private.json()["id"]).options["turn_seconds"] == 0


@pytest.mark.parametrize("body,status,code", [
    ({"game": "chess", "seats": 2}, 400, "bad_request"),
    ({"game": "countgame", "seats": 11}, 400, "bad_request"),
    ({"game": "countgame", "seats": 2, "options": {"nope": 1}}, 400, "bad_request"),
    ({"game": "countgame", "seats": 2, "options": [1]}, 400, "bad_request"),
    ({"seats": 2}, 400, "bad_request"),
    ("not json", 400, "bad_request"),
])
def test_bad_create_requests_are_400(count_game, body, status, code):
    response = api(make_user("ana"))("post", "/api/tables/", body)
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert not Table.objects.exists()


def test_no_or_a_bad_token_is_401(count_game):
    assert api()("post", "/api/tables/", {"game": "countgame", "seats": 2}).status_code == 401
    response = Client().get("/api/tables/1/", HTTP_AUTHORIZATION="Bearer pp_not-a-token")
    assert response.status_code == 401 and response["WWW-Authenticate"] == "Bearer"


def test_unknown_and_private_tables(count_game):
    ana, ben = make_user("ana"), make_user("ben")
    assert api(ana)("get", "/api/tables/999/").status_code == 404
    table_id = api(ana)("post", "/api/tables/", {"game": "countgame", "seats": 2, "private": True}).json()["id"]
    assert api(ben)("get", f"/api/tables/{table_id}/").status_code == 403
    assert api(ben)("post", f"/api/tables/{table_id}/join/").status_code == 403
    invite = Table.objects.get(pk=table_id).invite_code
    assert api(ben)("post", f"/api/tables/{table_id}/join/", {"invite_code": invite}).status_code == 200
    assert api(ben)("get", f"/api/tables/{table_id}/").status_code == 200
