"""The HTTP API takes only the documented types (issue 9 item 7): a wrong type, a
non-standard JSON literal or a body nested too deep gets the protocol's
``bad_request`` error and creates nothing — never a 500, never a coercion."""
import json

import pytest

from games.core.registry import get_game
from pigparlor.tables.models import Seat, Table
from tests.api.test_http import api
from tests.support.tables import make_user

pytestmark = pytest.mark.django_db

GOOD = {"game": "countgame", "seats": 2}


def body(**changes):
    return json.dumps({**GOOD, **changes})


def assert_bad_request(response):
    assert response.status_code == 400, response.content
    answer = response.json()
    assert set(answer) == {"type", "code", "message"}
    assert (answer["type"], answer["code"]) == ("error", "bad_request") and answer["message"]


@pytest.mark.parametrize("raw", [
    body(game=["countgame"]),
    body(game={"slug": "countgame"}),
    body(game=7),
    body(seats="2"),
    body(seats=2.0),
    body(seats=True),
    body(bots=1.0),
    body(bots=True),
    body(bots="1"),
    body(bots=None),
    body(private="false"),
    body(private="true"),
    body(private=0),
    body(private=1),
    body(private=None),
    body(title={"name": "Sunday swill"}),
    body(title=["Sunday swill"]),
    body(title=12),
    body(title="x" * 81),
    body(title="swill \u202eevil"),
    body(title="line\nbreak"),
    body(options=None),
    body(options="turn_seconds=30"),
    body(options={"turn_seconds": "30"}),
    body(options={"turn_seconds": 30.0}),
    body(options={"turn_seconds": 30.5}),
    body(options={"turn_seconds": True}),
    body(options={"turn_seconds": [30]}),
    body(options={"turn_seconds": 10 ** 400}),
    body(privat=True),
    '{"game": "countgame", "seats": 2, "options": {"turn_seconds": Infinity}}',
    '{"game": "countgame", "seats": 2, "options": {"turn_seconds": -Infinity}}',
    '{"game": "countgame", "seats": 2, "options": {"turn_seconds": NaN}}',
    '{"game": "countgame", "seats": NaN}',
    "[" * 3000,
    '{"game": ' + "[" * 3000 + "]" * 3000 + ', "seats": 2}',
    '{"game": "countgame", "seats": 2, "title": ' + '{"a":' * 2000 + "1" + "}" * 2000 + "}",
    "",
    "null",
    '"countgame"',
    b"\xff\xfe",
], ids=lambda raw: str(raw)[:60])
def test_a_create_with_a_wrong_type_is_refused_and_creates_nothing(count_game, raw):
    assert_bad_request(api(make_user("ana"))("post", "/api/tables/", raw))
    assert not Table.objects.exists()


@pytest.mark.parametrize("game,option,value", [
    ("pigpile", "greased_pig_start", "false"),
    ("pigpile", "greased_pig_start", "true"),
    ("pigpile", "greased_pig_start", 0),
    ("pigpile", "greased_pig_start", None),
    ("snout", "toss_odds", ["kern"]),
    ("snout", "toss_odds", {"kern": 1}),
    ("oink", "reveal_gap_ms", 1200.0),
])
def test_a_real_game_option_of_the_wrong_type_is_refused(game, option, value):
    seats = get_game(game).engine.min_seats
    call = api(make_user("ana"))
    assert call("post", "/api/tables/", {"game": game, "seats": seats, "bots": seats - 1}).status_code == 201
    Table.objects.all().delete()
    assert_bad_request(call("post", "/api/tables/", {"game": game, "seats": seats, "options": {option: value}}))
    assert not Table.objects.exists()


def test_the_documented_types_still_create_a_table(count_game):
    response = api(make_user("ana"))("post", "/api/tables/", {
        "game": "countgame", "seats": 2, "bots": 1, "private": False, "title": "Sunday swill",
        "options": {"turn_seconds": 30}})
    assert response.status_code == 201
    table = Table.objects.get()
    assert (table.private, table.title, table.options) == (False, "Sunday swill", {"turn_seconds": 30})


def test_a_private_false_table_is_public_and_private_true_is_private(count_game):
    call = api(make_user("ana"))
    public = call("post", "/api/tables/", {**GOOD, "private": False}).json()["id"]
    private = call("post", "/api/tables/", {**GOOD, "private": True}).json()["id"]
    assert (Table.objects.get(pk=public).private, Table.objects.get(pk=private).private) == (False, True)


@pytest.mark.parametrize("raw", [
    '{"invite_code": {"code": "x"}}',
    '{"invite_code": 12}',
    '{"invite": "x"}',
    "[" * 3000,
    '{"invite_code": NaN}',
    "[]",
])
def test_a_join_with_a_wrong_type_is_refused_and_takes_no_seat(count_game, raw):
    table_id = api(make_user("ana"))("post", "/api/tables/", GOOD).json()["id"]
    assert_bad_request(api(make_user("ben"))("post", f"/api/tables/{table_id}/join/", raw))
    assert not Seat.objects.filter(table_id=table_id, user__username="ben").exists()


def test_a_body_over_the_size_limit_gets_the_protocol_error(count_game, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    assert_bad_request(api(make_user("ana"))("post", "/api/tables/", body(title="x" * 2000)))
    assert not Table.objects.exists()
