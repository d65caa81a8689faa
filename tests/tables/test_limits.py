"""Per-user limits on creating tables (issue 9 item 8): at most
PIGPARLOR_MAX_UNFINISHED_TABLES hosted tables not yet over, at most
PIGPARLOR_TABLES_PER_MINUTE created in any minute; counted from the database,
refused with ``rate_limited`` (HTTP 429) and creating nothing."""
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from pigparlor.tables import services
from pigparlor.tables.errors import RATE_LIMITED, TableError
from pigparlor.tables.models import ABORTED, FINISHED, OPEN, RUNNING, Table
from tests.api.test_http import api
from tests.support.tables import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def limits(settings):
    settings.PIGPARLOR_MAX_UNFINISHED_TABLES = 3
    settings.PIGPARLOR_TABLES_PER_MINUTE = 5
    return settings


def create(user, **extra):
    return services.create_table(host=user, game="countgame", seats=2, **extra)


def age(table, seconds):
    Table.objects.filter(pk=table.pk).update(created_at=timezone.now() - timedelta(seconds=seconds))


def test_a_user_hosts_at_most_the_cap_of_unfinished_tables(count_game, limits):
    ana = make_user("ana")
    waiting = create(ana)
    create(ana, bots=1)  # running at once
    create(ana)
    with pytest.raises(TableError) as refusal:
        create(ana)
    assert refusal.value.code == RATE_LIMITED and "3 tables" in refusal.value.message
    assert Table.objects.count() == 3
    Table.objects.filter(pk=waiting.pk).update(status=FINISHED)
    create(ana)
    assert Table.objects.filter(status__in=[OPEN, RUNNING]).count() == 3


def test_finished_and_aborted_tables_and_other_hosts_do_not_count(count_game, limits):
    ana, ben = make_user("ana"), make_user("ben")
    for status in (FINISHED, ABORTED, FINISHED):
        Table.objects.filter(pk=create(ana).pk).update(status=status, created_at=timezone.now() - timedelta(hours=1))
    for _ in range(3):
        create(ben)
    for _ in range(3):
        create(ana)
    assert Table.objects.filter(host=ana, status=OPEN).count() == 3


def test_a_user_creates_at_most_the_rate_per_minute(count_game, limits):
    ana = make_user("ana")
    made = []
    for _ in range(5):
        made.append(create(ana))
        Table.objects.filter(pk=made[-1].pk).update(status=FINISHED)
    with pytest.raises(TableError) as refusal:
        create(ana)
    assert refusal.value.code == RATE_LIMITED and refusal.value.retry_after_s is not None
    assert 1 <= refusal.value.retry_after_s <= 60
    assert Table.objects.count() == 5
    age(made[0], 61)  # the oldest slides out of the window
    create(ana)
    assert Table.objects.count() == 6


def test_the_http_api_answers_429_rate_limited_with_retry_after(count_game, limits):
    call = api(make_user("ana"))
    for _ in range(3):
        assert call("post", "/api/tables/", {"game": "countgame", "seats": 2}).status_code == 201
    response = call("post", "/api/tables/", {"game": "countgame", "seats": 2})
    assert response.status_code == 429
    assert response.json()["type"] == "error" and response.json()["code"] == "rate_limited"
    assert "3 tables" in response.json()["message"]
    Table.objects.update(status=FINISHED)
    for _ in range(2):
        assert call("post", "/api/tables/", {"game": "countgame", "seats": 2}).status_code == 201
    Table.objects.update(status=FINISHED)
    response = call("post", "/api/tables/", {"game": "countgame", "seats": 2})
    assert (response.status_code, response.json()["code"]) == (429, "rate_limited")
    assert 1 <= int(response["Retry-After"]) <= 60
    assert Table.objects.count() == 5


def test_the_lobby_form_shows_the_limit(client, count_game, limits):
    ana = make_user("ana")
    for _ in range(3):
        create(ana)
    client.force_login(ana)
    response = client.post(reverse("lobby:create", args=["countgame"]),
                           {"seats": 2, "bots": 0, "title": "", "opt_turn_seconds": 30})
    assert response.status_code == 200
    assert "you already host 3 tables that are not over" in response.content.decode()
    assert Table.objects.count() == 3


def test_the_defaults_are_five_unfinished_tables_and_ten_a_minute():
    from pigparlor import settings

    assert (settings.PIGPARLOR_MAX_UNFINISHED_TABLES, settings.PIGPARLOR_TABLES_PER_MINUTE) == (5, 10)


def test_a_limit_of_zero_refuses_every_table(count_game, settings):
    settings.PIGPARLOR_TABLES_PER_MINUTE = 0
    with pytest.raises(TableError) as refusal:
        create(make_user("ana"))
    assert refusal.value.code == RATE_LIMITED and refusal.value.retry_after_s == 60
