"""Staff in the Django admin: see tournaments, cancel one with a reason, remove a player."""
from datetime import timedelta

import pytest
from django.test import Client

from pigparlor.tournaments.models import Entry, Series, Tournament
from pigparlor.tournaments.series import create_due_editions
from tests.support.tables import make_user
from tests.tournaments.helpers import make_tournament

pytestmark = pytest.mark.django_db

STAGES = [{"game": "snout", "format": "swiss", "table_size": 4, "rounds": 2}]


@pytest.fixture
def staff_client():
    user = make_user("boss")
    user.is_staff = user.is_superuser = True
    user.save()
    client = Client()
    client.force_login(user)
    return client


def test_staff_see_cancel_with_a_reason_and_remove_a_player(staff_client):
    tournament, users = make_tournament(STAGES, players=3)
    page = staff_client.get("/admin/tournaments/tournament/")
    assert page.status_code == 200 and b"Test cup" in page.content
    asked = staff_client.post("/admin/tournaments/tournament/", {"action": "cancel_selected",
                                                                 "_selected_action": [tournament.pk]})
    assert asked.status_code == 200 and b"Reason" in asked.content
    entry = Entry.objects.get(user=users[0])
    staff_client.post("/admin/tournaments/entry/", {"action": "remove_selected", "_selected_action": [entry.pk],
                                                    "apply": "1", "reason": "multiple accounts"})
    entry.refresh_from_db()
    assert (entry.status, entry.removed_reason) == ("removed", "multiple accounts")
    staff_client.post("/admin/tournaments/tournament/", {"action": "cancel_selected", "apply": "1",
                                                         "_selected_action": [tournament.pk], "reason": "no hall"})
    tournament.refresh_from_db()
    assert (tournament.status, tournament.cancel_reason) == ("cancelled", "no hall")


def test_a_series_makes_its_editions_once(staff_client):
    from django.utils import timezone

    now = timezone.now()
    series = Series.objects.create(name="Nightly Snout", cadence="daily", time=(now + timedelta(hours=2)).time(),
                                   template={"stages": STAGES, "capacity": {"min": 2, "max": 8}}, ahead_hours=24)
    made = create_due_editions(now)
    assert len(made) == 1 and made[0].series == series and made[0].stages.get().game == "snout"
    assert create_due_editions(now) == []
    assert Tournament.objects.filter(series=series).count() == 1
    refused = staff_client.post("/admin/tournaments/series/add/", {
        "name": "Bad", "cadence": "daily", "time": "18:00", "ahead_hours": 24, "active": "on",
        "template": '{"stages": [{"game": "snout", "format": "swiss", "table_size": 9, "rounds": 2}]}'})
    assert refused.status_code == 200 and b"cannot seat 9" in refused.content


def test_manage_tournaments_create_due():
    from io import StringIO

    from django.core.management import call_command
    from django.utils import timezone

    Series.objects.create(name="Weekly", cadence="weekly", weekday=(timezone.now() + timedelta(days=1)).weekday(),
                          time=timezone.now().time(), template={"stages": STAGES}, ahead_hours=48)
    out = StringIO()
    call_command("tournaments", "--create-due", stdout=out)
    assert "1 edition(s) created" in out.getvalue()
    assert Tournament.objects.get().starts_at.weekday() == (timezone.now() + timedelta(days=1)).weekday()


def test_cancelling_tells_every_registered_player(django_capture_on_commit_callbacks):
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    from pigparlor.tournaments import services
    from pigparlor.tournaments.announce import player_group

    tournament, users = make_tournament(STAGES, players=2)
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(player_group(users[1].pk), channel)
    with django_capture_on_commit_callbacks(execute=True):
        services.cancel_tournament(tournament.pk, "the hall is flooded")
    message = async_to_sync(layer.receive)(channel)
    assert message == {"type": "tournament.cancelled", "tournament_id": tournament.pk,
                       "reason": "the hall is flooded"}
