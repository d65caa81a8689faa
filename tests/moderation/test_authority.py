"""The authority matrix: every moderator action of the admin × anonymous, a
player, staff outside the Moderator group, a superuser outside it, and a
moderator — the moderator and the superuser succeed (the superuser holds every
moderator power: the site owner ``createsuperuser`` makes must reach the
moderation tools without joining the group); every other request is a 403 and
changes nothing."""
import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from pigparlor.moderation.models import Ban, ChatLine, ModAction, Report
from pigparlor.moderation.permissions import GROUP, PERMISSIONS
from pigparlor.ratings.service import rate_table
from pigparlor.tables.models import Seat, Table
from tests.moderation.helpers import make_moderator, two_player_table
from tests.support.tables import finished_table, make_user

pytestmark = pytest.mark.django_db

ACTIONS = ["close-table", "kick-seat", "remove-chat", "timeout", "ban", "lift-ban", "void-ratings", "resolve-report"]
ROLES = ["anonymous", "player", "staff", "superuser", "moderator"]
MAY_ACT = ("superuser", "moderator")


def world(count_game):
    ana, ben, table_id = two_player_table()
    line = ChatLine.objects.create(room=f"table:{table_id}", table_id=table_id, author=ben, text="rude words")
    report = Report.objects.create(reporter=ana, target=ben, reason=Report.ABUSE, room=f"table:{table_id}")
    banned = make_user("dan")
    banned.is_active = False
    banned.save()
    Ban.objects.create(user=banned, reason="spam")
    rated = finished_table([make_user("eve"), make_user("fay")], [1, 2])
    rate_table(rated.pk)
    return {
        "close-table": (table_id, {}), "kick-seat": (table_id, {"seat": "2"}), "remove-chat": (line.pk, {}),
        "timeout": (ben.pk, {"minutes": "10"}), "ban": (ben.pk, {}), "lift-ban": (banned.pk, {}),
        "void-ratings": (rated.pk, {}), "resolve-report": (report.pk, {"outcome": "no_action"}),
    }


def client_for(role) -> Client:
    client = Client()
    if role == "player":
        client.force_login(make_user("pat"))
    elif role == "staff":
        staff = make_user("stu")
        staff.is_staff = True
        staff.save()
        client.force_login(staff)
    elif role == "superuser":
        client.force_login(type(make_user("x"))._default_manager.create_superuser("sue", password="a-long-password"))
    elif role == "moderator":
        client.force_login(make_moderator())
    return client


def snapshot():
    return {
        "log": ModAction.objects.count(),
        "tables": list(Table.objects.order_by("pk").values_list("status", "closed_reason", "seats_rev")),
        "seats": list(Seat.objects.order_by("pk").values_list("user_id", "bot_kind")),
        "lines": list(ChatLine.objects.values_list("removed_at", flat=True)),
        "bans": list(Ban.objects.order_by("pk").values_list("lifted_at", flat=True)),
        "reports": list(Report.objects.values_list("status", flat=True)),
    }


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", ACTIONS)
def test_only_a_moderator_may_act(count_game, action, role):
    targets = world(count_game)
    client = client_for(role)
    pk, extra = targets[action]
    url = reverse("admin:moderation_act", args=[action, pk])
    before = snapshot()
    response = client.post(url, {"reason": "testing the matrix", **extra})
    if role in MAY_ACT:
        assert response.status_code == 302, response.content.decode()[:500]
        assert ModAction.objects.count() == 1
        assert snapshot() != before
    else:
        assert response.status_code == 403
        assert client.get(url).status_code == 403
        assert snapshot() == before


@pytest.mark.parametrize("action", ACTIONS)
def test_a_reason_is_required(count_game, action):
    targets = world(count_game)
    client = client_for("moderator")
    pk, extra = targets[action]
    before = snapshot()
    response = client.post(reverse("admin:moderation_act", args=[action, pk]), {"reason": "  ", **extra})
    assert response.status_code == 400 and "a reason is required" in response.content.decode()
    assert snapshot() == before


def test_the_group_holds_exactly_the_moderation_permissions():
    group = Group.objects.get(name=GROUP)
    assert sorted(group.permissions.values_list("content_type__app_label", "codename")) == sorted(
        ("moderation", codename) for codename in PERMISSIONS)


def test_staff_outside_the_group_see_none_of_it(count_game):
    client = client_for("staff")
    index = client.get(reverse("admin:index"))
    assert index.status_code == 200 and "Moderation" not in index.content.decode()
    for name in ("liveroom", "report", "chatline", "modaction", "ban", "chattimeout"):
        assert client.get(reverse(f"admin:moderation_{name}_changelist")).status_code == 403


def test_the_superuser_createsuperuser_makes_sees_every_moderator_page(count_game):
    """Superusers hold every moderator power (before, they got "Not allowed" unless in the group)."""
    client = client_for("superuser")
    index = client.get(reverse("admin:index")).content.decode()
    assert "Moderation" in index and reverse("admin:moderation_liveroom_changelist") in index
    assert client.get(reverse("admin:app_list", args=["moderation"])).status_code == 200
    for name in ("liveroom", "report", "chatline", "modaction", "ban", "chattimeout"):
        assert client.get(reverse(f"admin:moderation_{name}_changelist")).status_code == 200


def test_an_inactive_superuser_is_no_moderator():
    from pigparlor.moderation.permissions import is_moderator

    root = type(make_user("x"))._default_manager.create_superuser("sue", password="a-long-password")
    assert is_moderator(root, "ban_player")
    root.is_active = False
    assert not is_moderator(root) and not is_moderator(root, "ban_player")


def test_the_mod_log_cannot_be_edited_or_deleted_in_the_admin_even_by_a_superuser(count_game):
    targets = world(count_game)
    moderator = make_moderator()
    client = Client()
    client.force_login(moderator)
    client.post(reverse("admin:moderation_act", args=["close-table", targets["close-table"][0]]), {"reason": "spam"})
    entry = ModAction.objects.get()
    moderator.is_superuser = True
    moderator.save()
    assert client.get(reverse("admin:moderation_modaction_changelist")).status_code == 200
    assert client.post(reverse("admin:moderation_modaction_change", args=[entry.pk]), {"reason": "edited"}).status_code == 403
    assert client.post(reverse("admin:moderation_modaction_delete", args=[entry.pk]), {"post": "yes"}).status_code == 403
    assert client.get(reverse("admin:moderation_modaction_add")).status_code == 403
    assert ModAction.objects.get().reason == "spam"
    assert ModAction.objects.count() == 1


def test_a_moderator_sees_the_live_rooms_and_a_tables_transcript(count_game):
    targets = world(count_game)
    client = client_for("moderator")
    table_id = targets["close-table"][0]
    listing = client.get(reverse("admin:moderation_liveroom_changelist")).content.decode()
    assert f">{table_id}<" in listing and "ben: rude words" in listing
    page = client.get(reverse("admin:moderation_liveroom_change", args=[table_id])).content.decode()
    assert "rude words" in page and "Close table" in page and "Action log" in page
    queue = client.get(reverse("admin:moderation_report_changelist")).content.decode()
    assert "ben" in queue
