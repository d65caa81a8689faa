"""The lobby's create form refuses a table name other players could be fooled by
(issue 9 items 7 and 10): control and invisible characters, a right-to-left
override. The same rule as the JSON API's title."""
import pytest
from django.urls import reverse

from pigparlor.tables.models import Table
from tests.support.tables import make_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("title", ["Swill \u202eevil", "\u200b", "Swill\u2066", "Tab\there"], ids=ascii)
def test_a_title_with_invisible_characters_is_refused(client, count_game, title):
    client.force_login(make_user("ana"))
    response = client.post(reverse("lobby:create", args=["countgame"]),
                           {"seats": 2, "bots": 0, "title": title, "opt_turn_seconds": 30})
    assert response.status_code == 200 and "invisible character" in str(response.context["form"].errors["title"])
    assert not Table.objects.exists()


def test_an_ordinary_title_is_kept(client, count_game):
    client.force_login(make_user("ana"))
    client.post(reverse("lobby:create", args=["countgame"]),
                {"seats": 2, "bots": 0, "title": "Sunday swill 🐷", "opt_turn_seconds": 30})
    assert Table.objects.get().title == "Sunday swill 🐷"
