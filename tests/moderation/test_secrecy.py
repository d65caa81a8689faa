"""What the admin shows of a table may not break its secrecy (fairness) nor its
rated history: a moderator holding a seat sees a running table's log only as a
spectator does, and a finished rated table cannot be edited in the admin."""
import html

import pytest
from django.test import Client
from django.urls import reverse

from games.core.viewcheck import cards_in_html
from pigparlor.tables import services as tables
from pigparlor.tables.models import RUNNING, ActionLog
from pigparlor.tables.registry import get_game
from tests.moderation.helpers import make_moderator
from tests.tables.helpers import make_user, table

pytestmark = pytest.mark.django_db


def live_room(client, table_id) -> str:
    response = client.get(reverse("admin:moderation_liveroom_change", args=[table_id]))
    assert response.status_code == 200
    return response.content.decode()


def assert_no_secret(page, table_id, seat):
    """No card hidden from the moderator's seat (``hidden_cards``), and no logged
    action of the running table, which may name such a card (a Snout! pass)."""
    current = table(table_id)
    engine = get_game(current.game).engine
    state = engine.load(current.state)
    assert not cards_in_html(page) & engine.hidden_cards(state, seat)
    for entry in ActionLog.objects.filter(table=current):
        assert html.escape(str(entry.action)) not in page, entry.action


def test_a_seated_moderator_sees_no_secret_snout_pass_in_the_live_room():
    moderator = make_moderator()
    ben, carl = make_user("ben"), make_user("carl")
    created = tables.create_table(host=moderator, game="snout", seats=3)
    tables.join_table(created, ben)
    tables.join_table(created, carl)
    client = Client()
    client.force_login(moderator)
    engine = get_game("snout").engine
    for seat, user in ((1, ben), (2, carl)):
        current = table(created.pk)
        assert current.status == RUNNING
        action = engine.legal_actions(engine.load(current.state), seat)[0]
        assert action["type"] == "pass"
        tables.act(created.pk, seat, action, current.version, user=user)
        assert_no_secret(live_room(client, created.pk), created.pk, 0)
    page = live_room(client, created.pk)
    assert "As a spectator sees it" in page
