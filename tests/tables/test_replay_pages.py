"""The replay API and pages: what a finished table reveals, the refusals for
everything else (409 running, 404 unknown, 403 private), and that nothing of a
running table's seed or hidden cards is reachable through any URL of the site."""
from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RoutePattern

from games.core.registry import get_game
from games.core.replay import commitment, state_digest
from games.core.replay import replay as replay_document
from games.core.viewcheck import cards_in_html, cards_in_view
from pigparlor.api.tokens import create_token
from pigparlor.tables import services
from pigparlor.tables.models import FINISHED
from pigparlor.tables.replay import as_stored, rebuild
from tests.support.mfa import enrol
from tests.support.tables import make_user, step_clock, table

pytestmark = pytest.mark.django_db


def finish(table_id: int) -> None:
    while step_clock(table_id):
        pass
    assert table(table_id).status == FINISHED


@pytest.fixture
def finished(count_game, ana):
    """A countgame table Ana (with a salt) and two bots played to the end."""
    created = services.create_table(host=ana, game="countgame", seats=3, bots=2, salt="ana-salt-1234")
    finish(created.pk)
    return table(created.pk)


def api(client: Client, path: str, token: str | None = None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.get(path, **headers)


def test_a_finished_table_replays_from_its_document(finished, ana):
    response = api(Client(), f"/api/tables/{finished.pk}/replay/")
    assert response.status_code == 200
    document = response.json()
    assert {"game", "seats", "options", "seed", "commitment", "actions", "outcome"} <= set(document)
    assert document["commitment"] == commitment(document["seed"]) == finished.commitment
    assert document["salts"][0] == "ana-salt-1234"
    assert document["actions"][0]["version"] == 2
    assert set(document["actions"][0]) == {"version", "seat", "action", "at_ms"}
    engine = get_game(document["game"]).engine
    final = replay_document(engine, document)  # what a program holding the engine does
    assert as_stored(engine.dump(final)) == finished.state
    assert engine.outcome(final).as_json()["ranks"] == document["outcome"]["ranks"]


def test_a_running_table_answers_409_with_the_commitment_only(count_game, ana):
    running = services.create_table(host=ana, game="countgame", seats=3, bots=1)
    services.join_table(running, make_user("ben"))
    token = create_token(ana)
    response = api(Client(), f"/api/tables/{running.pk}/replay/", token)
    assert response.status_code == 409
    body = response.json()
    assert body == {"type": "error", "code": "illegal", "message": body["message"],
                    "commitment": table(running.pk).commitment}
    assert str(table(running.pk).seed) not in response.content.decode()
    page = Client()
    page.force_login(ana)
    assert page.get(f"/tables/{running.pk}/replay/").status_code == 409
    assert page.get(f"/tables/{running.pk}/replay/step/?v=1&view=all").status_code == 409
    assert page.get(f"/tables/{running.pk}/replay/proof/").status_code == 409


def test_unknown_tables_are_404_in_the_protocols_shape(db):
    response = api(Client(), "/api/tables/987654/replay/")
    assert response.status_code == 404
    assert response.json() == {"type": "error", "code": "not_found", "message": "no such table"}
    assert Client().get("/tables/987654/replay/").status_code == 404


def test_a_private_table_replays_only_for_its_players_and_moderators(count_game, ana):
    private = services.create_table(host=ana, game="countgame", seats=2, bots=1, private=True)
    finish(private.pk)
    outsider, moderator = make_user("olga"), make_user("mo")
    moderator.groups.add(Group.objects.get_or_create(name="Moderator")[0])
    moderator.is_staff = True
    moderator.save()
    enrol(moderator)  # a moderator's powers hold only with two-factor sign-in
    path = f"/api/tables/{private.pk}/replay/"
    refused = api(Client(), path, create_token(outsider))
    assert refused.status_code == 403
    assert refused.json()["code"] == "forbidden" and "seed" not in refused.json()
    assert api(Client(), path).status_code == 403  # nobody signed in
    assert api(Client(), path, create_token(ana)).status_code == 200
    assert api(Client(), path, create_token(moderator)).status_code == 200
    assert api(Client(), path, "pp_not-a-token").status_code == 401
    page = Client()
    page.force_login(outsider)
    assert page.get(f"/tables/{private.pk}/replay/").status_code == 403
    page.force_login(moderator)
    assert page.get(f"/tables/{private.pk}/replay/?v=2&view=0").status_code == 200


def test_the_replay_page_steps_views_and_verifies(finished, ana):
    client = Client()
    page = client.get(f"/tables/{finished.pk}/replay/")
    html = page.content.decode()
    assert page.status_code == 200
    assert finished.commitment in html and str(finished.seed) in html and "ana-salt-1234" in html
    moments = rebuild(finished).moments
    assert f'max="{len(moments) - 1}"' in html and f'data-moments="{",".join(map(str, moments))}"' in html
    last = client.get(f"/tables/{finished.pk}/replay/step/?v={finished.version}&view=all").content.decode()
    assert f'data-version="{finished.version}"' in last
    # Everything: every seat's hand at that version is on show; a seat's view: only its own.
    first_all = client.get(f"/tables/{finished.pk}/replay/step/?v=1&view=all").content.decode()
    state = get_game("countgame").engine.start(finished.seats, finished.deal_seed, finished.options)
    assert cards_in_html(first_all) >= set(state.hands[0]) | set(state.hands[1])
    seat_one = client.get(f"/tables/{finished.pk}/replay/step/?v=1&view=1").content.decode()
    assert set(state.hands[1]) <= cards_in_html(seat_one) and not cards_in_html(seat_one) & set(state.hands[0])
    # What the page's Verify checks in the browser (static/js/replay.js; tests/e2e/test_replay_browser.py).
    proof = client.get(f"/tables/{finished.pk}/replay/proof/")
    assert "max-age=86400" in proof["Cache-Control"] and "private" in proof["Cache-Control"]
    proof = proof.json()
    assert (proof["seed"], proof["commitment"], proof["deal_seed"]) == (finished.seed, finished.commitment, finished.deal_seed)
    assert proof["salts"][0] == "ana-salt-1234" and proof["last"] == finished.version
    assert [entry["version"] for entry in proof["versions"]] == list(range(2, finished.version + 1))
    for entry in proof["versions"]:
        assert state_digest(entry["state"]) == entry["digest"]
    assert proof["versions"][-1]["state"] == finished.state


def test_a_finished_table_links_to_its_replay_from_its_page_and_the_profile(finished, ana):
    client = Client()
    client.force_login(ana)
    replay_url = f"/tables/{finished.pk}/replay/"
    assert replay_url in client.get(f"/tables/{finished.pk}/").content.decode()
    assert replay_url in client.get("/profile/").content.decode()
    assert replay_url in Client().get("/players/ana/").content.decode()  # a player's page, to anyone


def test_salts_are_checked_and_count_only_before_the_deal(count_game, ana):
    token = create_token(ana)
    client = Client()
    bad = client.post("/api/tables/", json.dumps({"game": "countgame", "seats": 2, "salt": "short"}),
                      content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert bad.status_code == 400 and bad.json()["code"] == "bad_request"
    created = client.post("/api/tables/", json.dumps({"game": "countgame", "seats": 2, "salt": "A" * 16}),
                          content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}").json()
    ben = make_user("ben")
    joined = client.post(f"/api/tables/{created['id']}/join/", json.dumps({"salt": "b" * 64}),
                         content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {create_token(ben)}")
    assert joined.status_code == 200
    started = table(created["id"])
    assert started.salts == ["A" * 16, "b" * 64]
    assert started.state is not None
    with pytest.raises(services.TableError) as late:
        services.set_salt(created["id"], ana, "c" * 16)
    assert late.value.code == "illegal"


# -- nothing of a running table leaks, through any URL ----------------------------

PARAM = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


def walk(patterns, prefix=""):
    """Every route of the URL conf as a path template (regex routes are listed apart)."""
    for entry in patterns:
        if isinstance(entry, URLResolver):
            if not isinstance(entry.pattern, RoutePattern) and str(entry.pattern) not in ("", "^"):
                yield None, prefix + str(entry.pattern)
                continue
            yield from walk(entry.url_patterns, prefix + (str(entry.pattern) if isinstance(entry.pattern, RoutePattern) else ""))
        elif isinstance(entry, URLPattern):
            route = str(entry.pattern)
            yield (prefix + route, entry.name) if isinstance(entry.pattern, RoutePattern) else (None, prefix + route)


def test_no_url_reveals_a_running_tables_seed_or_hidden_cards(ana):
    carl = make_user("carl")
    root = make_user("root")
    root.is_staff = root.is_superuser = True
    root.save()
    running = services.create_table(host=ana, game="pigpile", seats=3, bots=1, salt="ana-salt-9999")
    services.join_table(running, make_user("ben"), salt="ben-salt-9999")
    running = table(running.pk)
    engine = get_game("pigpile").engine
    state = engine.load(running.state)
    secrets_text = {str(running.seed), str(running.deal_seed)}
    values = {"table_id": running.pk, "object_id": running.pk, "pk": running.pk, "id": running.pk,
              "slug": "pigpile", "game": "pigpile", "code": running.invite_code or "x", "username": "ana"}
    visitors = []
    for user, viewer in ((None, None), (ana, 0), (carl, None), (root, None)):
        client = Client(raise_request_exception=False)
        if user is not None:
            client.force_login(user)
        token = create_token(user) if user is not None else None
        visitors.append((client, token, engine.hidden_cards(state, viewer)))
    visited, skipped = [], []
    for route, name in walk(get_resolver().url_patterns):
        if route is None:
            skipped.append(name)
            continue
        path = "/" + PARAM.sub(lambda match: str(values.get(match["name"], "x")), route).lstrip("^")
        visited.append(path)
        for client, token, hidden in visitors:
            headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
            response = client.get(path + "?v=1&view=all&invite=" + (running.invite_code or ""), **headers)
            body = b"".join(response.streaming_content) if response.streaming else response.content
            text = body.decode("utf-8", "replace")
            for secret in secrets_text:
                assert secret not in text, f"{path} shows the seed of a running table"
            shown = cards_in_html(text)
            if response.get("Content-Type", "").startswith("application/json"):
                shown |= cards_in_view(json.loads(text))
            assert not shown & hidden, f"{path} shows hidden cards {shown & hidden}"
    for must in (f"/tables/{running.pk}/replay/", f"/tables/{running.pk}/replay/step/",
                 f"/tables/{running.pk}/replay/proof/", f"/api/tables/{running.pk}/replay/",
                 f"/tables/{running.pk}/", f"/admin/tables/table/{running.pk}/change/"):
        assert must in visited, must
    assert len(visited) > 40, visited


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_each_seat_salts_the_deal_over_either_socket(count_game):
    """Programs and browsers alike send their salt over the table socket before the start."""
    from tests.support.sockets import answered, db, json_frames, open_socket, opened, up_to

    ana, ben = await db(make_user)("ana"), await db(make_user)("ben")
    created = await db(services.create_table)(host=ana, game="countgame", seats=4, bots=1)
    await db(services.join_table)(created, ben)
    program = await open_socket(ana, created.pk, api=True)
    browser = await open_socket(ben, created.pk)
    await opened(program)
    await opened(browser)
    await program.send_json_to({"type": "salt", "salt": "x"})
    assert [f["code"] for f in json_frames(await answered(program, api=True)) if f["type"] == "error"] == ["bad_request"]
    await program.send_json_to({"type": "salt", "salt": "program-salt-1"})
    assert {"type": "salted", "salt": "program-salt-1"} in json_frames(await answered(program, api=True))
    await browser.send_to(text_data=json.dumps({"type": "salt", "salt": "browser-salt-2"}))
    await answered(browser, api=False)  # the salt was handled before the probe
    assert (await db(table)(created.pk)).salts == ["program-salt-1", "browser-salt-2", None, None]
    await db(services.join_table)(created, await db(make_user)("carl"))
    started = await db(table)(created.pk)
    assert started.state is not None and started.deal_seed != started.seed
    # The deal's frames: the commitment, never the seed.
    dealt = await up_to(program, started.version) + await up_to(browser, started.version)
    assert dealt and all(str(started.seed) not in frame and str(started.deal_seed) not in frame for frame in dealt)
    assert any(started.commitment in frame for frame in dealt)
    await program.send_json_to({"type": "salt", "salt": "too-late-salt"})
    assert [f["code"] for f in json_frames(await answered(program, api=True)) if f["type"] == "error"] == ["illegal"]
    assert (await db(table)(started.pk)).salts == ["program-salt-1", "browser-salt-2", None, None]
    await program.disconnect()
    await browser.disconnect()


def test_a_report_links_moderators_to_the_reported_moment(finished):
    from django.contrib.admin import site

    from pigparlor.moderation.models import Report

    report_admin = site._registry[Report]
    assert f'/tables/{finished.pk}/replay/?v=3&amp;view=all"' in report_admin.replay_link(
        Report(table=finished, table_version=3))
    assert report_admin.replay_link(Report(table=None)) == "once the table is over"
