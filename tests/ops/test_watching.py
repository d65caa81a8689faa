"""Watching it run: /healthz answers cheaply and says what is down; /metrics is only for the
addresses and staff the settings name, and shows act's latency moving after a move."""
from __future__ import annotations

import re
from unittest import mock

import pytest
from django.contrib.sessions.models import Session
from django.db import OperationalError
from django.urls import reverse

from pigparlor.ops import views
from pigparlor.tables import services
from tests.moderation.helpers import two_player_table
from tests.support.mfa import enrol
from tests.support.tables import make_user, table

pytestmark = pytest.mark.django_db
OUTSIDER = "203.0.113.9"


@pytest.fixture(autouse=True)
def _hosts(settings):
    settings.ALLOWED_HOSTS = ["testserver"]


def scrape(client, address="127.0.0.1") -> str:
    response = client.get(reverse("metrics"), REMOTE_ADDR=address)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    return response.content.decode()


def sample(text: str, name: str, **labels) -> float:
    """One sample's value from the exposition (0 if it is not there yet)."""
    wanted = ",".join(f'{key}="{value}"' for key, value in sorted(labels.items()))
    match = re.search(rf"^{re.escape(name)}{{{re.escape(wanted)}}} (\S+)$" if labels else rf"^{re.escape(name)} (\S+)$",
                      text, re.MULTILINE)
    return float(match.group(1)) if match else 0.0


def test_healthz_says_ok_and_writes_nothing(client):
    response = client.get(reverse("healthz"), REMOTE_ADDR=OUTSIDER)
    assert response.status_code == 200
    assert response.json() == {"ok": True, "database": "ok", "channel_layer": "ok"}
    assert "sessionid" not in response.cookies and not Session.objects.exists()
    assert response["Cache-Control"].startswith("max-age=0")


def test_healthz_is_503_when_the_database_does_not_answer(client, caplog):
    with mock.patch.object(views.connection, "cursor", side_effect=OperationalError("unable to open database file")):
        response = client.get(reverse("healthz"))
    assert response.status_code == 503
    assert response.json() == {"ok": False, "database": "down", "channel_layer": "ok"}
    assert "unable to open" not in response.content.decode(), "no details for strangers"
    assert "the database does not answer" in caplog.text


def test_healthz_is_503_when_the_channel_layer_does_not_answer(client):
    class Down:
        async def new_channel(self, prefix):
            raise ConnectionError("redis is gone")

    with mock.patch.object(views, "get_channel_layer", return_value=Down()):
        response = client.get(reverse("healthz"))
    assert response.status_code == 503
    assert response.json() == {"ok": False, "database": "ok", "channel_layer": "down"}


def test_metrics_are_refused_to_outsiders_and_players(client, settings):
    assert client.get(reverse("metrics"), REMOTE_ADDR=OUTSIDER).status_code == 404
    client.force_login(make_user("ana"))
    assert client.get(reverse("metrics"), REMOTE_ADDR=OUTSIDER).status_code == 404


def test_metrics_are_served_to_named_networks_and_to_staff_with_their_second_factor(client, settings):
    settings.PIGPARLOR_METRICS_ALLOWED = ["10.1.0.0/16", "not an address"]
    assert client.get(reverse("metrics"), REMOTE_ADDR="10.1.2.3").status_code == 200
    assert client.get(reverse("metrics"), REMOTE_ADDR="127.0.0.1").status_code == 404, "the setting replaces the default"
    boss = make_user("boss")
    boss.is_staff = True
    boss.save()
    client.force_login(boss)
    assert client.get(reverse("metrics"), REMOTE_ADDR=OUTSIDER).status_code == 404
    enrol(boss)
    assert client.get(reverse("metrics"), REMOTE_ADDR=OUTSIDER).status_code == 200


def test_a_move_shows_in_act_latency_actions_and_running_tables(client, count_game):
    before = scrape(client)
    ana, ben, table_id = two_player_table()
    current = table(table_id)
    engine = count_game.engine
    seat = engine.load(current.state).turn
    mover = (ana, ben)[seat]
    action = engine.legal_actions(engine.load(current.state), seat)[0]
    services.act(table_id, seat, action, current.version, user=mover)
    with pytest.raises(services.TableError):
        services.act(table_id, seat, action, current.version, user=mover)  # stale: refused
    after = scrape(client)
    count = "pigparlor_act_seconds_count"
    assert sample(after, count, game="countgame") == sample(before, count, game="countgame") + 2
    assert sample(after, "pigparlor_act_seconds_bucket", game="countgame", le="+Inf") >= 2
    assert sample(after, "pigparlor_act_seconds_sum", game="countgame") > sample(before, "pigparlor_act_seconds_sum", game="countgame")
    assert (sample(after, "pigparlor_actions_total", game="countgame", by="player")
            == sample(before, "pigparlor_actions_total", game="countgame", by="player") + 1)
    assert sample(after, "pigparlor_act_refused_total", code="stale") == sample(before, "pigparlor_act_refused_total", code="stale") + 1
    assert sample(after, "pigparlor_running_tables", game="countgame") == 1
    for name in ("pigparlor_open_sockets", "pigparlor_clock_lag_seconds", "pigparlor_push_queue_depth",
                 "pigparlor_push_sent_total", "pigparlor_rating_updates_total"):
        assert f"# TYPE {name.removesuffix('_total')}" in after, name


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_open_sockets_count_table_and_lobby_sockets_while_open(count_game):
    from pigparlor.ops import metrics
    from tests.support.sockets import connect, db, open_socket

    def now(kind: str) -> float:
        return metrics.OPEN_SOCKETS.labels(kind)._value.get()

    tables_before, lobbies_before = now("table"), now("lobby")
    ana, _, table_id = await db(two_player_table)()
    socket = await open_socket(ana, table_id)
    lobby, connected = await connect("/ws/lobby/countgame/", ana)
    assert connected
    assert (now("table"), now("lobby")) == (tables_before + 1, lobbies_before + 1)
    await socket.disconnect()
    await lobby.disconnect()
    assert (now("table"), now("lobby")) == (tables_before, lobbies_before)
