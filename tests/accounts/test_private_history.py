"""A private table stays private on player pages (issue 9 item 9): its title and
result show only to the people who sat at it, never to other visitors."""
import pytest
from django.urls import reverse

from pigparlor.accounts.history import finished_tables, tallies
from tests.support.tables import PASSWORD, finished_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    return {name: django_user_model.objects.create_user(name, password=PASSWORD) for name in ("ana", "bea", "carl")}


@pytest.fixture
def tables(people):
    ana, bea = people["ana"], people["bea"]
    secret = finished_table([ana, bea, None], [1, 2, 3], game="pigpile", scores=[9, 5, 2], rated=False, title="Secret swill")
    secret.private = True
    secret.invite_code = "secret-code"
    secret.save()
    finished_table([ana, None], [2, 1], game="snout", scores=[40, 100], rated=False, title="Open snout")
    return secret


def page(client, viewer, username="ana"):
    if viewer is not None:
        client.force_login(viewer)
    response = client.get(reverse("accounts:player", args=[username]))
    return response, response.content.decode()


@pytest.mark.parametrize("viewer", ["carl", None], ids=["another player", "anonymous"])
def test_a_private_table_is_hidden_from_who_did_not_sit_at_it(client, people, tables, viewer):
    response, html = page(client, people.get(viewer))
    assert response.status_code == 200
    assert "Secret swill" not in html
    assert "Open snout" in html
    assert [row.slug for row in response.context["tallies"]] == ["snout"]
    assert [row.table.title for row in response.context["history"]] == ["Open snout"]


def test_a_player_who_sat_at_the_private_table_sees_it_on_the_others_page(client, people, tables):
    response, html = page(client, people["bea"])
    assert "Secret swill" in html and "Open snout" in html
    assert {row.slug: row.played for row in response.context["tallies"]} == {"pigpile": 1, "snout": 1}


def test_the_owner_sees_every_table_on_their_own_profile(client, people, tables):
    client.force_login(people["ana"])
    html = client.get(reverse("accounts:profile")).content.decode()
    assert "Secret swill" in html and "Open snout" in html


def test_the_history_helpers_take_the_viewer(people, tables):
    ana, bea, carl = people["ana"], people["bea"], people["carl"]
    assert [row.table.title for row in finished_tables(ana, viewer=carl)] == ["Open snout"]
    assert {row.table.title for row in finished_tables(ana, viewer=bea)} == {"Secret swill", "Open snout"}
    assert {row.table.title for row in finished_tables(ana, viewer=ana)} == {"Secret swill", "Open snout"}
    assert [row.slug for row in tallies(ana, viewer=carl)] == ["snout"]
