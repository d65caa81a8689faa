"""The published OpenAPI document (/api/schema/) against the code: every API route is in it
and every path in it resolves, each method it lists is served and no other, and real
answers — successes and every refusal a test can bring about — match it."""
import json
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, resolve
from django.utils import timezone

from pigparlor.api import urls as api_urls
from pigparlor.api.tokens import create_token
from pigparlor.tables.models import Table
from tests.support.schemas import check_request, check_response, documents, refused_request
from tests.support.tables import make_user, played_table

pytestmark = pytest.mark.django_db

METHODS = ("get", "post", "put", "patch", "delete")
SAMPLES = {"table_id": "987654", "tournament_id": "987654", "username": "nobody-here", "game": "no-such-game"}


def api_routes(patterns=api_urls.urlpatterns, prefix="/api/") -> set[str]:
    """Every route under /api/, as an OpenAPI path (``<int:table_id>`` → ``{table_id}``)."""
    found = set()
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            found |= api_routes(pattern.url_patterns, route)
        else:
            assert isinstance(pattern, URLPattern)
            found.add(re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route))
    return found


def concrete(template: str) -> str:
    return re.sub(r"\{(\w+)\}", lambda name: SAMPLES[name.group(1)], template)


def test_every_api_route_is_documented_and_every_documented_path_resolves():
    documented = set(documents()[0]["paths"])
    routes = api_routes()
    assert routes - documented == set(), "API routes missing from pigparlor/api/schema.py"
    assert documented - routes == set(), "documented paths that are not API routes"
    for template in documented:
        match = resolve(concrete(template))
        assert re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", "/" + match.route) == template, (template, match.route)


def test_each_path_serves_exactly_its_documented_methods(count_game):
    token = create_token(make_user("ana"))
    client = Client(enforce_csrf_checks=True)
    for template, item in documents()[0]["paths"].items():
        for method in METHODS:
            response = getattr(client, method)(concrete(template), HTTP_AUTHORIZATION=f"Bearer {token}",
                                               content_type="application/json")
            if method in item:
                assert response.status_code != 405, (method, template)
                check_response(template, method, response)
            else:
                assert response.status_code == 405, (method, template, response.status_code)


def references(node):
    """Every ``$ref`` in a document, depth first."""
    if isinstance(node, dict):
        if "$ref" in node:
            yield node["$ref"]
        for value in node.values():
            yield from references(value)
    elif isinstance(node, list):
        for value in node:
            yield from references(value)


def test_every_reference_in_the_documents_resolves():
    for document in documents():
        found = list(references(document))
        assert len(found) > 10
        for pointer in found:
            target = document
            for part in pointer.removeprefix("#/").split("/"):
                target = target[part.replace("~1", "/").replace("~0", "~")]
            assert isinstance(target, dict), pointer


def test_the_documents_are_served():
    client = Client()
    openapi = client.get("/api/schema/")
    assert openapi.status_code == 200 and openapi["Content-Type"] == "application/json"
    assert openapi.json()["openapi"] == "3.1.0" and openapi.json() == json.loads(json.dumps(documents()[0]))
    socket = client.get("/api/schema/socket/")
    assert socket.status_code == 200 and socket.json()["$defs"]["ServerMessage"]["oneOf"]


class Api:
    """One user's calls, each checked against the document."""

    def __init__(self, user=None, token=None):
        self.token = token or (create_token(user) if user else None)
        self.client = Client(enforce_csrf_checks=True)

    def __call__(self, method, template, body=None, *, expect, raw=None, **values):
        headers = {"HTTP_AUTHORIZATION": f"Bearer {self.token}"} if self.token else {}
        if body is not None and expect < 300:
            check_request(template, method, body)
        data = raw if raw is not None else (json.dumps(body) if body is not None else None)
        path = template.format(**{name: str(value) for name, value in values.items()})
        response = getattr(self.client, method)(path, data=data, content_type="application/json", **headers)
        assert response.status_code == expect, (method, path, response.status_code, response.content[:300])
        return check_response(template, method, response)


def test_real_answers_and_refusals_match_the_document(count_game, settings):
    ana, ben, carl = make_user("ana"), make_user("ben"), make_user("carl")
    a, b, c = Api(ana), Api(ben), Api(carl)
    T, ONE = "/api/tables/", "/api/tables/{table_id}/"

    # Authentication.
    assert Api()("get", ONE, expect=401, table_id=1)["code"] == "unauthorized"
    Api(token="pp_not-a-token")("post", T, {"game": "countgame", "seats": 2}, expect=401)

    # Creating: a table that starts at once, and every kind of bad body (the schema refuses them too).
    running = a("post", T, {"game": "countgame", "seats": 3, "bots": 2, "options": {"turn_seconds": 30},
                            "title": "Friday pigs", "salt": "0123456789abcdef", "rated": True,
                            "spectators_chat": False}, expect=201)["id"]
    a("post", T, {"game": "pigpile", "seats": 4, "bots": 3, "bot_level": "easy", "options": {"turn_seconds": 45}},
      expect=201)
    for bad in ({"game": "chess", "seats": 2}, {"game": "countgame", "seats": "2"},
                {"game": "countgame", "seats": 2, "privat": True}, {"game": "countgame", "seats": 2, "options": []},
                {"game": "countgame", "seats": 2, "rated": "false"}, {"game": "countgame", "seats": 2, "salt": "x"},
                {"game": "countgame", "seats": 2, "title": "x" * 81}, {"seats": 2},
                {"game": "countgame", "seats": 2, "bot_level": "random"}):
        assert refused_request(T, "post", bad), bad
        assert a("post", T, bad, expect=400)["code"] == "bad_request"
    for raw in ("not json", '{"game": NaN}', "[1]", "[" * 20 + "]" * 20):
        a("post", T, raw=raw, expect=400)
    a("post", T, {"game": "countgame", "seats": 3, "bots": 2, "options": {"turn_seconds": 0}}, expect=400)

    # Reading, joining, leaving.
    a("get", ONE, expect=200, table_id=running)
    a("get", ONE, expect=404, table_id=987654)
    private = a("post", T, {"game": "countgame", "seats": 3, "private": True}, expect=201)["id"]
    b("get", ONE, expect=403, table_id=private)
    b("post", ONE + "join/", {}, expect=403, table_id=private)
    b("post", ONE + "join/", expect=404, table_id=987654)
    b("post", ONE + "join/", {"invite_code": 5}, expect=400, table_id=private)
    invite = Table.objects.get(pk=private).invite_code
    b("post", ONE + "join/", {"invite_code": invite, "salt": "fedcba9876543210"}, expect=200, table_id=private)
    c("post", ONE + "join/", {}, expect=409, table_id=running)
    c("post", ONE + "leave/", expect=403, table_id=private)
    b("post", ONE + "leave/", expect=200, table_id=private)

    # A finished table: its replay, its rematch, and what is refused there.
    finished = played_table(ana, seats=3, bots=1, others=[ben]).pk
    assert "rating_changes" in a("get", ONE, expect=200, table_id=finished)
    Api()("get", ONE + "replay/", expect=200, table_id=finished)
    a("get", ONE + "replay/", expect=200, table_id=finished)
    assert "commitment" in a("get", ONE + "replay/", expect=409, table_id=running)
    a("get", ONE + "replay/", expect=404, table_id=987654)
    c("get", ONE + "replay/", expect=403, table_id=private)
    Api(token="pp_wrong")("get", ONE + "replay/", expect=401, table_id=finished)
    a("post", ONE + "leave/", expect=409, table_id=finished)
    a("post", ONE + "rematch/", {"again": True}, expect=400, table_id=finished)
    c("post", ONE + "rematch/", expect=403, table_id=finished)
    a("post", ONE + "rematch/", expect=409, table_id=running)
    a("post", ONE + "rematch/", expect=404, table_id=987654)
    rematch = a("post", ONE + "rematch/", {}, expect=201, table_id=finished)["id"]
    assert b("post", ONE + "rematch/", expect=200, table_id=finished)["id"] == rematch

    # Players and leaderboards.
    a("get", "/api/players/{username}/", expect=200, username="ana")
    a("get", "/api/players/{username}/", expect=200, username="bot:sensible")
    a("get", "/api/players/{username}/", expect=404, username="nobody")
    a("get", "/api/leaderboard/{game}/", expect=200, game="countgame")
    a("get", "/api/leaderboard/{game}/", expect=404, game="chess")

    # Over the hosting limits: 429, with Retry-After over the per-minute one.
    settings.PIGPARLOR_TABLES_PER_MINUTE = 1
    a.client.defaults.clear()
    response = a.client.post(T, data=json.dumps({"game": "countgame", "seats": 2, "bots": 1}),
                             content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {a.token}")
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    check_response(T, "post", response)


def test_tournament_answers_and_refusals_match_the_document(count_game):
    ana, ben = make_user("ana"), make_user("ben")
    staff = make_user("boss")
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    a, b, boss = Api(ana), Api(ben), Api(staff)
    ALL, ONE = "/api/tournaments/", "/api/tournaments/{tournament_id}/"
    starts = (timezone.now() + timedelta(days=2)).isoformat().replace("+00:00", "Z")
    body = {"name": "Sunday cup", "starts_at": starts,
            "stages": [{"game": "pigpile", "format": "elimination", "table_size": 4, "advance": 2}],
            "capacity": {"min": 4, "max": 16}, "conditions": {"min_rating": None, "min_games": 0}, "rated": True}
    a("post", ALL, body, expect=403)
    made = boss("post", ALL, body, expect=201)["id"]
    picky = boss("post", ALL, {**body, "conditions": {"min_rating": 1900}}, expect=201)["id"]
    for bad in ({**body, "stages": []}, {**body, "nmae": "x"}, {**body, "capacity": {"min": 1}},
                {**body, "conditions": []}, {**body, "rated": 1}):
        assert refused_request(ALL, "post", bad), bad
        boss("post", ALL, bad, expect=400)
    boss("post", ALL, {**body, "starts_at": "2000-01-01T00:00:00Z"}, expect=400)
    a("get", ALL, expect=200)
    a("get", ONE, expect=200, tournament_id=made)
    a("get", ONE, expect=404, tournament_id=987654)
    a("post", ONE + "register/", expect=200, tournament_id=made)
    a("post", ONE + "register/", expect=409, tournament_id=made)
    a("post", ONE + "register/", {"x": 1}, expect=400, tournament_id=made)
    a("post", ONE + "register/", expect=403, tournament_id=picky)
    b("post", ONE + "register/", expect=404, tournament_id=987654)
    a("post", ONE + "checkin/", {}, expect=409, tournament_id=made)
    a("get", ONE + "me/", expect=200, tournament_id=made)
    a("get", ONE + "me/", expect=404, tournament_id=987654)
    a("post", ONE + "withdraw/", expect=200, tournament_id=made)
    b("post", ONE + "withdraw/", expect=409, tournament_id=made)


def test_each_refusal_code_is_documented_under_the_status_the_views_give_it():
    from pigparlor.api.schema import ERROR_CODES_BY_STATUS
    from pigparlor.api.views import STATUS
    from pigparlor.tables.errors import CODES

    assert {code: STATUS.get(code, 409) for code in CODES} == {
        code: status for status, codes in ERROR_CODES_BY_STATUS.items() for code in codes}
