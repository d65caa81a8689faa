"""Staff in the Django admin: see tournaments, cancel one with a reason, remove a player."""
from datetime import timedelta

import pytest
from django.test import Client

from pigparlor.tournaments.models import Entry, Series, Tournament
from pigparlor.tournaments.series import create_due_editions
from tests.support.mfa import enrol
from tests.support.tables import make_user
from tests.tournaments.helpers import make_tournament

pytestmark = pytest.mark.django_db

STAGES = [{"game": "snout", "format": "swiss", "table_size": 4, "rounds": 2}]


@pytest.fixture
def staff_client():
    user = make_user("boss")
    user.is_staff = user.is_superuser = True
    user.save()
    enrol(user)
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


# -- adding and changing a tournament with its stages -------------------------------------

def _form(name="Admin cup", stages=(), *, initial=0, starts_in=timedelta(hours=2), **fields) -> dict:
    from django.utils import timezone

    starts = timezone.now() + starts_in
    data = {"name": name, "starts_at_0": starts.strftime("%Y-%m-%d"), "starts_at_1": starts.strftime("%H:%M:%S"),
            "min_players": 2, "max_players": 8, "rated": "on", "min_games": 0,
            "stages-TOTAL_FORMS": len(stages), "stages-INITIAL_FORMS": initial, "stages-MIN_NUM_FORMS": 0,
            "stages-MAX_NUM_FORMS": 1000, "entries-TOTAL_FORMS": 0, "entries-INITIAL_FORMS": 0,
            "entries-MIN_NUM_FORMS": 0, "entries-MAX_NUM_FORMS": 1000, **fields}
    for index, stage in enumerate(stages):
        for key, value in {"options": "{}", **stage}.items():
            data[f"stages-{index}-{key}"] = value
    return data


def test_add_tournament_offers_a_stage_row_and_another_on_demand(staff_client):
    html = staff_client.get("/admin/tournaments/tournament/add/").content.decode()
    assert 'name="stages-0-game"' in html and 'name="stages-0-table_size"' in html
    assert 'id="stages-empty"' in html  # the row "Add another Stage" copies
    assert '<option value="pigpile">Pig Pile</option>' in html


def test_the_admin_refuses_a_tournament_without_a_stage_and_creates_nothing(staff_client):
    blank = {"game": "", "format": "", "table_size": "", "advance": "", "rounds": "", "points": ""}
    for stages in ([], [blank]):
        response = staff_client.post("/admin/tournaments/tournament/add/", _form(stages=stages))
        assert response.status_code == 200
        assert "A tournament needs at least one stage" in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_admin_judges_each_stage_as_the_api_does(staff_client):
    too_big = {"game": "snout", "format": "swiss", "table_size": 9, "rounds": 2}
    no_advance = {"game": "pigpile", "format": "elimination", "table_size": 4}
    response = staff_client.post("/admin/tournaments/tournament/add/",
                                 _form(stages=[too_big, {**no_advance, "advance": 2}]))
    assert "Stage 1: Snout! cannot seat 9: it takes 2 to 6 players" in response.content.decode()
    response = staff_client.post("/admin/tournaments/tournament/add/", _form(stages=[no_advance]))
    assert "Stage 1: an elimination stage needs" in response.content.decode()
    response = staff_client.post("/admin/tournaments/tournament/add/",
                                 _form(stages=[{**no_advance, "advance": 2}], min_players=9, max_players=4))
    assert "capacity must have 2 &lt;= min &lt;= max" in response.content.decode()
    response = staff_client.post("/admin/tournaments/tournament/add/",
                                 _form(stages=[{**no_advance, "advance": 2}], starts_in=-timedelta(hours=1)))
    assert "The start must be in the future." in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_admin_adds_a_tournament_with_its_stages_and_edits_them_while_upcoming(staff_client):
    from django.test import Client

    swiss = {"game": "snout", "format": "swiss", "table_size": 4, "rounds": 3, "advance": 4}
    final = {"game": "pigpile", "format": "elimination", "table_size": 4, "advance": 1}
    response = staff_client.post("/admin/tournaments/tournament/add/", _form(stages=[swiss, final]))
    assert response.status_code == 302, response.content.decode()[-3000:]
    made = Tournament.objects.get()
    assert made.created_by.username == "boss" and made.revision > 0
    assert [(stage.index, stage.game, stage.table_size, stage.rounds) for stage in made.stages.all()] == [
        (0, "snout", 4, 3), (1, "pigpile", 4, None)]
    assert made.stages.get(index=0).options["turn_seconds"] == 30  # the game's defaults, cleaned
    assert Client().get(f"/tournaments/{made.pk}/").status_code == 200

    ids = list(made.stages.values_list("pk", flat=True))
    change = _form(stages=[{**swiss, "id": ids[0], "tournament": made.pk, "table_size": 3},
                           {**final, "id": ids[1], "tournament": made.pk, "DELETE": "on"}], initial=2)
    response = staff_client.post(f"/admin/tournaments/tournament/{made.pk}/change/", change)
    assert response.status_code == 302, response.content.decode()[-3000:]
    assert [(stage.index, stage.game, stage.table_size, stage.advance) for stage in made.stages.all()] == [
        (0, "snout", 3, 4)]
    only = made.stages.get()
    response = staff_client.post(f"/admin/tournaments/tournament/{made.pk}/change/", _form(
        stages=[{**swiss, "id": only.pk, "tournament": made.pk, "DELETE": "on"}], initial=1))
    assert "A tournament needs at least one stage" in response.content.decode()
    assert made.stages.count() == 1


def test_a_started_tournament_is_read_only_in_the_admin(staff_client):
    from tests.tournaments.helpers import check_everyone_in, start_now

    tournament, users = make_tournament(STAGES, players=4)
    check_everyone_in(tournament, users)
    start_now(tournament)
    html = staff_client.get(f"/admin/tournaments/tournament/{tournament.pk}/change/").content.decode()
    assert 'name="stages-0-game"' not in html and 'name="name"' not in html
    staff_client.post(f"/admin/tournaments/tournament/{tournament.pk}/change/", _form(name="Renamed"))
    tournament.refresh_from_db()
    assert tournament.name == "Test cup" and tournament.stages.count() == 1
