"""What the admin shows of a table may not break its secrecy (fairness) nor its
rated history: a moderator holding a seat sees a running table's log only as a
spectator does, and a finished rated table cannot be edited in the admin."""
import html
import logging
import re
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.core.registry import get_game
from games.core.viewcheck import cards_in_html
from pigparlor.moderation.chat import table_room
from pigparlor.moderation.models import Report
from pigparlor.moderation.reports import file_report
from pigparlor.ratings.models import Rating, RatingEvent
from pigparlor.ratings.service import rate_table
from pigparlor.tables import services as tables
from pigparlor.tables.errors import TableError
from pigparlor.tables.models import RUNNING, ActionLog, Seat, Table
from tests.moderation.helpers import make_moderator, two_player_table
from tests.support.mfa import enrol
from tests.support.tables import finished_table, make_user, step_clock, table

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


def superuser_client() -> Client:
    root = make_user("root")
    root.is_staff = root.is_superuser = True
    root.save()
    enrol(root)
    client = Client()
    client.force_login(root)
    return client


EDITABLE = re.compile(r'<(?:input|select|textarea)[^>]*name="([^"]+)"')
RATED_FIELDS = {"rated", "status", "game", "options", "host", "seats", "seat_set-0-user", "seat_set-1-user",
                "seat_set-0-bot_kind", "seat_set-0-replaced"}


def test_a_finished_rated_table_is_read_only_in_the_admin_even_for_a_superuser(count_game):
    eve, fay, gus = make_user("eve"), make_user("fay"), make_user("gus")
    rated = finished_table([eve, fay], [1, 2])
    rate_table(rated.pk)
    before = (list(Table.objects.filter(pk=rated.pk).values()), list(Seat.objects.filter(table=rated).values()),
              list(Rating.objects.order_by("pk").values()), list(RatingEvent.objects.order_by("pk").values()))
    client = superuser_client()
    url = reverse("admin:tables_table_change", args=[rated.pk])
    page = client.get(url)
    assert page.status_code == 200
    editable = set(EDITABLE.findall(page.content.decode()))
    assert not RATED_FIELDS & editable, editable
    seats = list(Seat.objects.filter(table=rated).order_by("index"))
    response = client.post(url, {
        "game": "countgame", "status": "running", "rated": "", "host": gus.pk, "options": "{}", "seats": "2",
        "seat_set-TOTAL_FORMS": "2", "seat_set-INITIAL_FORMS": "2", "seat_set-MIN_NUM_FORMS": "0",
        "seat_set-MAX_NUM_FORMS": "1000",
        **{f"seat_set-{n}-id": seat.pk for n, seat in enumerate(seats)},
        **{f"seat_set-{n}-table": rated.pk for n in range(2)},
        **{f"seat_set-{n}-user": gus.pk for n in range(2)},
        **{f"seat_set-{n}-index": n for n in range(2)}})
    assert response.status_code == 403
    assert client.post(reverse("admin:tables_table_delete", args=[rated.pk]), {"post": "yes"}).status_code == 403
    after = (list(Table.objects.filter(pk=rated.pk).values()), list(Seat.objects.filter(table=rated).values()),
             list(Rating.objects.order_by("pk").values()), list(RatingEvent.objects.order_by("pk").values()))
    assert after == before
    call_command("ratings", "--check")


def test_no_admin_door_rewrites_a_finished_tables_history(count_game):
    """Not the changelist's "delete selected", nor the action log's pages: the log replays, verifies and rates."""
    eve, fay = make_user("eve"), make_user("fay")
    rated, unrated = finished_table([eve, fay], [1, 2]), finished_table([eve, fay], [2, 1], rated=False)
    rate_table(rated.pk)
    ActionLog.objects.bulk_create(ActionLog(table=over, version=2, seat=0, action={"type": "count"}, at_ms=0)
                                  for over in (rated, unrated))
    history = lambda: (list(Table.objects.order_by("pk").values()), list(Seat.objects.order_by("pk").values()),  # noqa: E731
                       list(ActionLog.objects.order_by("pk").values()), list(RatingEvent.objects.order_by("pk").values()))
    before = history()
    client = superuser_client()
    for chosen in (rated, unrated):
        client.post(reverse("admin:tables_table_changelist"),
                    {"action": "delete_selected", "_selected_action": [chosen.pk], "post": "yes"})
    line = ActionLog.objects.filter(table=rated).first()
    assert client.post(reverse("admin:tables_actionlog_delete", args=[line.pk]), {"post": "yes"}).status_code == 403
    assert client.post(reverse("admin:tables_actionlog_change", args=[line.pk]), {"seat": "1"}).status_code == 403
    assert client.get(reverse("admin:tables_actionlog_add")).status_code == 403
    client.post(reverse("admin:tables_actionlog_changelist"),
                {"action": "delete_selected", "_selected_action": [line.pk], "post": "yes"})
    assert history() == before
    call_command("ratings", "--check")


def test_a_running_table_cannot_be_edited_in_the_admin(count_game):
    ana, ben = make_user("ana"), make_user("ben")
    running = tables.create_table(host=ana, game="countgame", seats=2)
    tables.join_table(running, ben)
    before = list(Table.objects.filter(pk=running.pk).values()), list(Seat.objects.filter(table=running).values())
    client = superuser_client()
    url = reverse("admin:tables_table_change", args=[running.pk])
    editable = set(EDITABLE.findall(client.get(url).content.decode()))
    assert not (RATED_FIELDS | {"state", "version", "seed", "salts"}) & editable, editable
    assert client.post(url, {"status": "finished", "host": ben.pk, "seats": "2", "game": "countgame"}).status_code == 403
    assert before == (list(Table.objects.filter(pk=running.pk).values()), list(Seat.objects.filter(table=running).values()))


@pytest.mark.parametrize("role", ["anonymous", "player", "staff"])
def test_a_refused_moderator_action_is_a_quiet_403(count_game, role, caplog):
    ana, ben, table_id = two_player_table()
    client = Client()
    if role != "anonymous":
        user = make_user("pat")
        user.is_staff = role == "staff"
        user.save()
        enrol(user)
        client.force_login(user)
    caplog.set_level(logging.DEBUG)
    url = reverse("admin:moderation_act", args=["close-table", table_id])
    assert client.get(url).status_code == 403
    assert client.post(url, {"reason": "spam"}).status_code == 403
    if role == "staff":  # the admin lets staff in; the moderators' pages refuse them alike
        for page in (reverse("admin:moderation_liveroom_changelist"),
                     reverse("admin:moderation_liveroom_change", args=[table_id])):
            assert client.get(page).status_code == 403
    assert not [record for record in caplog.records if record.exc_info], [r.getMessage() for r in caplog.records]
    assert all(record.levelno <= logging.INFO for record in caplog.records), [r.getMessage() for r in caplog.records]
    assert table(table_id).status == RUNNING


def test_one_reporter_files_at_most_ten_reports_a_day(count_game):
    reporter = make_user("rex")
    room = table_room(two_player_table()[2])
    for n in range(10):
        file_report(reporter, room, make_user(f"p{n}").get_username(), "abuse")
    with pytest.raises(TableError, match="10 reports in the last 24 hours"):
        file_report(reporter, room, "ana", "abuse")
    assert Report.objects.filter(reporter=reporter).count() == 10
    Report.objects.update(created_at=timezone.now() - timedelta(days=1, seconds=1))
    assert file_report(reporter, room, "ana", "abuse").target.get_username() == "ana"


@pytest.mark.parametrize("slug", ["snout", "pigpile", "oink", "piggypiggy"])
def test_a_seated_moderators_live_room_shows_no_hidden_card_through_play(slug):
    """The moderator plays seat 0 against bots; the live room is checked at every version."""
    engine = get_game(slug).engine
    seats = min(max(engine.min_seats, 3), engine.max_seats)
    moderator = make_moderator()
    created = tables.create_table(host=moderator, game=slug, seats=seats, bots=seats - 1)
    client = Client()
    client.force_login(moderator)
    checked = 0
    for _ in range(40):
        current = table(created.pk)
        if current.status != RUNNING:
            break
        assert_no_secret(live_room(client, created.pk), created.pk, 0)
        checked += 1
        legal = engine.legal_actions(engine.load(current.state), 0)
        if legal and (current.wake_at_ms is None or checked % 2):
            tables.act(created.pk, 0, legal[0], current.version, user=moderator)
        elif not step_clock(created.pk):
            break
    assert checked >= 10
