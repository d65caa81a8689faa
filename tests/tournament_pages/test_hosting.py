"""Tournaments anyone can host: the "Create a tournament" page (every field,
adding and removing stages, every bad input refused with a clear error and
nothing created), the daily limit, casual unless staff make it rated, the
host cancelling before the start, and the scheduled start for a player's
tournament (the command and the clock) as for staff ones."""
import random
import re
from datetime import datetime, timedelta
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from pigparlor.tournaments import services
from pigparlor.tournaments.models import Entry, Tournament
from tests.support.mfa import enrol
from tests.support.tables import make_user
from tests.tournament_pages.helpers import play_out

pytestmark = pytest.mark.django_db
CREATE = "/tournaments/new/"


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def local(moment: datetime, zone: str = "UTC") -> str:
    return moment.astimezone(ZoneInfo(zone)).strftime("%Y-%m-%dT%H:%M")


def form(stages=None, **fields) -> dict:
    stages = stages if stages is not None else [{"game": "countgame", "format": "swiss", "table_size": 2,
                                                 "rounds": 3}]
    data = {"name": "Porch cup", "starts_at": local(timezone.now() + timedelta(hours=2)), "time_zone": "UTC",
            "min_players": 4, "max_players": 6, "min_rating": "", "max_rating": "", "min_games": "",
            "stage-TOTAL_FORMS": len(stages), "stage-INITIAL_FORMS": 0, "stage-MIN_NUM_FORMS": 1,
            "stage-MAX_NUM_FORMS": 5, "create": "1", **fields}
    for index, stage in enumerate(stages):
        for key, value in stage.items():
            data[f"stage-{index}-{key}"] = value
    return data


@pytest.fixture
def host(client, count_game):
    ana = make_user("ana")
    client.force_login(ana)
    return ana


def test_the_list_offers_to_host_and_the_page_asks_for_everything_a_tournament_needs(client, count_game):
    assert "Log in to host a tournament" in client.get(reverse("tournaments:list")).content.decode()
    assert client.get(CREATE).status_code == 302
    client.force_login(make_user("ana"))
    assert 'href="/tournaments/new/"' in client.get(reverse("tournaments:list")).content.decode()
    html = client.get(CREATE).content.decode()
    for name in ("name", "starts_at", "time_zone", "min_players", "max_players", "rated", "min_rating",
                 "max_rating", "min_games", "established", "stage-0-game", "stage-0-format", "stage-0-table_size",
                 "stage-0-rounds", "stage-0-advance"):
        assert f'name="{name}"' in html, name
    assert 'type="datetime-local"' in html and 'value="elimination"' in html and 'value="swiss"' in html
    assert "You may host 3 more today." in text(html) and "Ask staff to make it rated" in html
    assert "Pig Pile 3–6" in text(html)


def test_a_player_hosts_a_casual_tournament_in_their_own_time_zone(client, host):
    starts = (timezone.now() + timedelta(days=2)).replace(second=0, microsecond=0)
    response = client.post(CREATE, form(
        name="Porch cup", starts_at=local(starts, "America/New_York"), time_zone="America/New_York",
        rated="on", min_rating=1400, max_rating=1800, min_games=2, established="on",
        stages=[{"game": "countgame", "format": "swiss", "table_size": 2, "rounds": 3, "advance": 2},
                {"game": "countgame", "format": "elimination", "table_size": 2, "advance": 1, "rounds": 7}]))
    made = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("tournaments:detail", args=[made.pk])
    assert (made.name, made.starts_at, made.created_by, made.min_players, made.max_players) == (
        "Porch cup", starts, host, 4, 6)
    assert (made.rated, made.rated_requested) == (False, True)
    assert (made.min_rating, made.max_rating, made.min_games, made.established) == (1400, 1800, 2, True)
    assert [(stage.index, stage.format, stage.table_size, stage.rounds, stage.advance)
            for stage in made.stages.all()] == [(0, "swiss", 2, 3, 2), (1, "elimination", 2, None, 1)]
    html = client.get(response["Location"]).content.decode()
    assert "Your tournament is open for registration" in html
    assert "You host this tournament; you asked staff to make it rated." in text(html)
    assert "casual" in text(html) and 'id="t-cancel"' in html


@pytest.mark.parametrize("zone", ["", "Mars/Olympus", "../etc/passwd", "\x00", "x" * 500])
def test_a_missing_or_strange_time_zone_reads_the_start_in_utc(client, host, zone):
    starts = (timezone.now() + timedelta(hours=3)).replace(second=0, microsecond=0)
    assert client.post(CREATE, form(starts_at=local(starts), time_zone=zone)).status_code == 302
    assert Tournament.objects.get().starts_at == starts


def test_add_a_stage_and_remove_one_show_the_form_again_and_create_nothing(client, host):
    response = client.post(CREATE, {**form(), "add_stage": "1", "create": ""})
    html = response.content.decode()
    assert response.status_code == 200 and 'name="stage-1-game"' in html and "Remove stage 2" in html
    assert re.search(r'name="stage-1-format" value="elimination"[^>]*checked', html)  # most often the final
    assert 'value="Porch cup"' in html and "errorlist" not in html
    two = [{"game": "countgame", "format": "swiss", "table_size": 2, "rounds": 3, "advance": 2},
           {"game": "countgame", "format": "elimination", "table_size": 3, "advance": 1}]
    html = client.post(CREATE, {**form(stages=two), "remove_stage": "0", "create": ""}).content.decode()
    assert 'name="stage-1-game"' not in html and 'name="stage-0-table_size" value="3"' in html
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(("changes", "message"), [
    ({"name": ""}, "This field is required."),
    ({"name": "Cup\u202e"}, "Name contains a control or invisible character"),
    ({"starts_at": ""}, "This field is required."),
    ({"starts_at": "tomorrow"}, "Enter a valid date/time."),
    ({"starts_at": local(timezone.now() - timedelta(hours=1))}, "Pick a time in the future."),
    ({"starts_at": local(timezone.now() + timedelta(days=45))}, "The start must be within 30 days."),
    ({"min_players": 1}, "Ensure this value is greater than or equal to 2."),
    ({"min_players": 8, "max_players": 4}, "At most must not be below at least."),
    ({"min_rating": 1800, "max_rating": 1200}, "The highest rating must not be below the lowest."),
    ({"min_games": -1}, "Ensure this value is greater than or equal to 0."),
    ({"stages": [{"game": "mahjong", "format": "swiss", "table_size": 2, "rounds": 2}]},
     "Select a valid choice. mahjong is not one of the available choices."),
    ({"stages": [{"game": "countgame", "format": "knockout", "table_size": 2, "rounds": 2}]},
     "Select a valid choice. knockout is not one of the available choices."),
    ({"stages": [{"game": "countgame", "format": "swiss", "table_size": 6, "rounds": 2}]},
     "Stage 1: Count to Ten cannot seat 6: it takes 2 to 4 players"),
    ({"stages": [{"game": "countgame", "format": "swiss", "table_size": 2, "rounds": ""}]},
     "Stage 1: a Swiss stage needs"),
    ({"stages": [{"game": "countgame", "format": "elimination", "table_size": 2, "advance": ""}]},
     "Stage 1: an elimination stage needs"),
    ({"stages": [{"game": "countgame", "format": "elimination", "table_size": 2, "advance": 2}]},
     "Stage 1.advance must be less than the table size (2)"),
    ({"stages": [{"game": "countgame", "format": "swiss", "table_size": 2, "rounds": 2},
                 {"game": "countgame", "format": "swiss", "table_size": 2, "rounds": 2}]},
     "Stage 1: a Swiss stage before another needs"),
    ({"stages": []}, "Please submit at least 1 form."),
    ({"stages": [{"game": "countgame", "format": "swiss", "table_size": 2, "rounds": 2}] * 6},
     "Please submit at most 5 forms."),
])
def test_bad_input_gets_a_clear_error_and_creates_nothing(client, host, changes, message):
    response = client.post(CREATE, form(**changes))
    assert response.status_code == 400
    assert message in text(response.content.decode()).replace("&#x27;", "'"), text(response.content.decode())[:3000]
    assert not Tournament.objects.exists()


def test_a_player_hosts_a_few_a_day_and_staff_host_rated_ones_without_a_limit(client, host, settings):
    settings.PIGPARLOR_TOURNAMENTS_PER_DAY = 2
    for _ in range(2):
        assert client.post(CREATE, form()).status_code == 302
    assert "You may host 0 more today." in text(client.get(CREATE).content.decode())
    refused = client.post(CREATE, form(name="One too many"))
    assert refused.status_code == 429
    assert re.search(r"You have hosted 2 tournaments in the last 24 hours: you can host another in 2[34] h \d+ min",
                     text(refused.content.decode()))
    assert Tournament.objects.count() == 2 and not Tournament.objects.filter(name="One too many").exists()
    Tournament.objects.update(created_at=timezone.now() - timedelta(days=1, minutes=1))
    assert client.post(CREATE, form(name="Next day")).status_code == 302

    boss = make_user("boss")
    boss.is_staff = True
    boss.save()
    staff = Client()
    staff.force_login(boss)
    assert "rated tournaments, as many as you like" in staff.get(CREATE).content.decode()
    for number in range(3):
        assert staff.post(CREATE, form(name=f"Staff cup {number}", rated="on")).status_code == 302
    assert list(Tournament.objects.filter(created_by=boss).values_list("rated", flat=True)) == [True] * 3


def test_staff_make_a_player_hosted_tournament_rated_in_the_admin(client, host):
    client.post(CREATE, form(rated="on"))
    made = Tournament.objects.get()
    boss = make_user("boss")
    boss.is_staff = boss.is_superuser = True
    boss.save()
    enrol(boss)
    staff = Client()
    staff.force_login(boss)
    assert "Porch cup" in staff.get("/admin/tournaments/tournament/?rated_requested__exact=1").content.decode()
    stage = made.stages.get()
    starts = timezone.localtime(made.starts_at)
    response = staff.post(f"/admin/tournaments/tournament/{made.pk}/change/", {
        "name": made.name, "starts_at_0": starts.strftime("%Y-%m-%d"), "starts_at_1": starts.strftime("%H:%M:%S"),
        "min_players": 4, "max_players": 6, "rated": "on", "min_games": 0,
        "stages-TOTAL_FORMS": 1, "stages-INITIAL_FORMS": 1, "stages-MIN_NUM_FORMS": 0, "stages-MAX_NUM_FORMS": 1000,
        "stages-0-id": stage.pk, "stages-0-tournament": made.pk, "stages-0-game": "countgame",
        "stages-0-format": "swiss", "stages-0-table_size": 2, "stages-0-rounds": 3, "stages-0-options": "{}",
        "entries-TOTAL_FORMS": 0, "entries-INITIAL_FORMS": 0, "entries-MIN_NUM_FORMS": 0,
        "entries-MAX_NUM_FORMS": 1000})
    assert response.status_code == 302, text(response.content.decode())[-2000:]
    made.refresh_from_db()
    assert (made.rated, made.rated_requested, made.created_by) == (True, False, host)


def test_the_host_cancels_before_the_start_and_nobody_else_can(client, host, django_capture_on_commit_callbacks):
    client.post(CREATE, form())
    made = Tournament.objects.get()
    bea = make_user("bea")
    services.register(made.pk, bea)
    other = Client()
    other.force_login(bea)
    assert 'id="t-cancel"' not in other.get(reverse("tournaments:detail", args=[made.pk])).content.decode()
    refused = other.post(reverse("tournaments:cancel", args=[made.pk]), {"reason": "mine now"})
    assert refused.status_code == 403 and "only the tournament&#x27;s host can cancel it" in refused.content.decode()
    assert Client().post(reverse("tournaments:cancel", args=[made.pk])).status_code == 302  # to log in
    assert client.post(reverse("tournaments:cancel", args=[made.pk + 99])).status_code == 404
    assert client.get(reverse("tournaments:cancel", args=[made.pk])).status_code == 405
    refused = client.post(reverse("tournaments:cancel", args=[made.pk]), {"reason": "x" * 161})
    assert refused.status_code == 400 and "the reason is longer than 160 characters" in refused.content.decode()
    made.refresh_from_db()
    assert made.status == "upcoming"

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("tournaments:cancel", args=[made.pk]), {"reason": "rain"})
    assert response.status_code == 302
    made.refresh_from_db()
    assert (made.status, made.cancel_reason) == ("cancelled", "the host called it off: rain")
    assert "This tournament was cancelled: the host called it off: rain" in text(
        other.get(reverse("tournaments:detail", args=[made.pk])).content.decode())
    assert client.post(reverse("tournaments:cancel", args=[made.pk])).status_code == 409

    client.post(CREATE, form(name="Started cup"))
    started = Tournament.objects.get(name="Started cup")
    Tournament.objects.filter(pk=started.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    refused = client.post(reverse("tournaments:cancel", args=[started.pk]))
    assert refused.status_code == 409 and "the tournament has started: only staff can stop it now" in text(
        refused.content.decode())


def _hosted_and_filled(client, name: str, players: int) -> tuple[Tournament, list]:
    assert client.post(CREATE, form(name=name, min_players=players, max_players=players)).status_code == 302
    made = Tournament.objects.get(name=name)
    users = [make_user(f"{name[:3]}{number}") for number in range(players)]
    for user in users:
        services.register(made.pk, user)
        Entry.objects.filter(tournament=made, user=user).update(status=Entry.CHECKED_IN)
    Tournament.objects.filter(pk=made.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    return made, users


def test_a_player_hosted_tournament_starts_on_schedule_from_the_command_and_the_clock(client, host):
    by_command, _ = _hosted_and_filled(client, "Command cup", 4)
    out = StringIO()
    call_command("tournaments", "--create-due", "--advance", stdout=out)
    assert "1 tournament(s) moved on, 2 table(s) seated" in out.getvalue()
    by_command.refresh_from_db()
    assert by_command.status == "running" and by_command.rated is False
    play_out(by_command, random.Random(1))
    by_command.refresh_from_db()
    assert by_command.status == "finished"

    from pigparlor.tables.timing import epoch_ms
    from pigparlor.tournaments.ticks import on_clock_tick

    by_clock, _ = _hosted_and_filled(client, "Clock cup", 5)
    for _ in range(10):  # it starts, then it seats its tables, then the clock has nothing more to do at once
        now = epoch_ms()
        if on_clock_tick(None, now_ms=now) != now:
            break
    by_clock.refresh_from_db()
    assert by_clock.status == "running"
    round_one = by_clock.rounds.get()
    assert round_one.tables.filter(table__isnull=False).count() == 2 and round_one.results.filter(bye=True).count() == 1
