"""The moderators' tools on the site and in the admin: superusers hold every
moderator power; a "Moderate" link for moderators; ban and time out from the
chat lines list, from a player looked up by name and from a player's profile;
a ban hides every chat line of the player, for everyone, live."""

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from pigparlor.moderation import services
from pigparlor.moderation.chat import REMOVED_TEXT, history, lobby_room, post_chat, table_room
from pigparlor.moderation.models import Ban, ChatLine, ChatTimeout, ModAction
from tests.moderation.helpers import make_moderator, two_player_table
from tests.support.sockets import WAIT_SECONDS, db, until
from tests.support.tables import make_user

pytestmark = pytest.mark.django_db


def superuser():
    return type(make_user("x"))._default_manager.create_superuser("root", password="a-long-password")


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def spam(count_game):
    """Spam from "spammer" in the count game's lobby and at a table, and a line from ana."""
    ana, ben, table_id = two_player_table()
    spammer = make_user("spammer")
    lobby = lobby_room("countgame")
    for n in range(3):
        post_chat(spammer, lobby, f"buy cheap chips {n}")
    post_chat(ana, lobby, "anyone for a count?")
    ChatLine.objects.create(room=f"table:{table_id}", table_id=table_id, author=spammer, text="chips at the table")
    return ana, spammer, table_id


@pytest.mark.parametrize("role", ["superuser", "moderator"])
def test_a_ban_from_the_chat_lines_list_hides_the_authors_lines_for_everyone(count_game, role):
    ana, spammer, table_id = spam(count_game)
    client = client_of(superuser() if role == "superuser" else make_moderator())
    chosen = ChatLine.objects.filter(author=spammer, room="lobby:countgame").first()
    changelist = reverse("admin:moderation_chatline_changelist")
    listing = client.get(changelist).content.decode()
    assert "Ban the author(s)" in listing and "Time out the author(s) 1 h" in listing
    # The action asks for a reason first…
    asked = client.post(changelist, {"action": "ban_authors", "_selected_action": [chosen.pk], "index": "0"})
    assert asked.status_code == 200 and "spammer" in asked.content.decode() and 'name="reason"' in asked.content.decode()
    refused = client.post(changelist, {"action": "ban_authors", "_selected_action": [chosen.pk], "apply": "1",
                                       "reason": "  "})
    assert refused.status_code == 400 and "a reason is required" in refused.content.decode()
    assert not Ban.objects.exists()
    # …then bans.
    done = client.post(changelist, {"action": "ban_authors", "_selected_action": [chosen.pk], "apply": "1",
                                    "reason": "chip spam"}, follow=True)
    assert "Ban the author(s): spammer (4 chat lines hidden) — logged." in done.content.decode()
    assert Ban.objects.filter(user=spammer, lifted_at=None).exists()
    assert ModAction.objects.get().action == ModAction.BAN
    # Marked, not deleted: the words stay stored; every room shows the removal, to anyone.
    assert ChatLine.objects.filter(author=spammer).count() == 4
    assert not ChatLine.objects.filter(author=spammer, removed_at=None).exists()
    for viewer in (make_user("cy"), None):
        lobby = history(lobby_room("countgame"), viewer)
        assert [line["text"] for line in lobby] == [REMOVED_TEXT] * 3 + ["anyone for a count?"]
        assert all("chips" not in line["text"] for line in history(table_room(table_id), viewer))


def test_a_time_out_from_the_chat_lines_list_lasts_an_hour(count_game):
    ana, spammer, _ = spam(count_game)
    client = client_of(make_moderator())
    lines = list(ChatLine.objects.filter(author__in=[ana, spammer]).values_list("pk", flat=True))
    client.post(reverse("admin:moderation_chatline_changelist"),
                {"action": "time_out_authors", "_selected_action": lines, "apply": "1", "reason": "flooding"})
    assert sorted(ChatTimeout.objects.values_list("user__username", flat=True)) == ["ana", "spammer"]
    assert {entry.target for entry in ModAction.objects.all()} == {"ana for 1 h", "spammer for 1 h"}


async def lobby_socket(user):
    from pigparlor.lobby.routing import websocket_urlpatterns

    socket = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/lobby/countgame/")
    socket.scope["user"] = user
    assert (await socket.connect(timeout=WAIT_SECONDS))[0]
    return socket


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_ban_updates_the_open_lobby_chats_at_once(count_game):
    ana, spammer, _ = await db(spam)(count_game)
    watcher = await lobby_socket(await db(make_user)("cy"))
    opening = "".join(await until(watcher, lambda got: any("buy cheap chips" in frame for frame in got)))
    assert "buy cheap chips 2" in opening
    await db(services.ban_player)(await db(make_moderator)(), spammer.pk, "chip spam")
    update = (await until(watcher, lambda got: any(REMOVED_TEXT in frame for frame in got)))[-1]
    assert 'id="chat-lines"' in update and "chips" not in update and "anyone for a count?" in update
    late = await lobby_socket(await db(make_user)("dee"))
    fresh = "".join(await until(late, lambda got: any("anyone for a count?" in frame for frame in got)))
    assert "chips" not in fresh
    await watcher.disconnect(), await late.disconnect()


def test_the_bans_list_adds_a_ban_for_a_player_looked_up_by_name(count_game):
    spam(count_game)
    client = client_of(make_moderator())
    add = reverse("admin:moderation_ban_add")
    assert reverse("admin:moderation_ban_add") in client.get(reverse("admin:moderation_ban_changelist")).content.decode()
    assert client.get(add).status_code == 200
    wrong = client.post(add, {"username": "spamer", "reason": "chip spam"})
    assert wrong.status_code == 400 and "No player is named “spamer”." in wrong.content.decode()
    close = client.post(add, {"username": "spam", "reason": "chip spam"}).content.decode()
    assert "Did you mean: spammer?" in close
    assert "This field is required" in client.post(add, {"username": "spammer", "reason": ""}).content.decode()
    assert not Ban.objects.exists()
    done = client.post(add, {"username": "Spammer", "reason": "chip spam"})
    assert done.status_code == 302 and Ban.objects.filter(user__username="spammer").exists()
    again = client.post(add, {"username": "spammer", "reason": "chip spam"})
    assert again.status_code == 400 and "spammer is already banned" in again.content.decode()
    timeouts = reverse("admin:moderation_chattimeout_add")
    assert client.post(timeouts, {"username": "ana", "minutes": "10", "reason": "rude"}).status_code == 302
    assert ChatTimeout.objects.get().user.get_username() == "ana"


def test_staff_outside_the_group_cannot_add_a_ban(count_game):
    spam(count_game)
    staff = make_user("stu")
    staff.is_staff = True
    staff.save()
    client = client_of(staff)
    assert client.post(reverse("admin:moderation_ban_add"), {"username": "spammer", "reason": "x"}).status_code == 403
    assert client.post(reverse("admin:moderation_chatline_changelist"),
                       {"action": "ban_authors", "_selected_action": [ChatLine.objects.first().pk], "apply": "1",
                        "reason": "x"}).status_code == 403
    assert not Ban.objects.exists()


def test_the_moderate_link_is_for_moderators_only():
    staff = make_user("stu")
    staff.is_staff = True
    staff.save()
    for user, shown in ((make_moderator(), True), (superuser(), True), (make_user("pat"), False), (staff, False),
                        (None, False)):
        client = client_of(user) if user else Client()
        page = client.get(reverse("home")).content.decode()
        link = f'<a href="{reverse("admin:app_list", args=["moderation"])}" id="moderate-link">Moderate</a>'
        assert (link in page) == shown, user
    moderator_client = client_of(make_moderator("mod2"))
    assert moderator_client.get(reverse("admin:app_list", args=["moderation"])).status_code == 200


def test_a_moderator_times_out_and_bans_from_a_players_profile(count_game):
    ana, spammer, _ = spam(count_game)
    profile = reverse("accounts:player", args=["spammer"])
    assert "Moderate" not in client_of(ana).get(profile).content.decode()
    # A player posting the profile's form is refused quietly, and nothing changes.
    assert client_of(ana).post(reverse("admin:moderation_act", args=["ban", spammer.pk]),
                               {"reason": "x", "next": profile}).status_code == 403
    moderator = client_of(make_moderator())
    page = moderator.get(profile).content.decode()
    assert 'id="moderate"' in page
    assert reverse("admin:moderation_act", args=["timeout", spammer.pk]) in page
    assert reverse("admin:moderation_act", args=["ban", spammer.pk]) in page
    timed = moderator.post(reverse("admin:moderation_act", args=["timeout", spammer.pk]),
                           {"reason": "flooding", "minutes": "10", "next": profile})
    assert timed.status_code == 302 and timed["Location"] == profile
    assert ChatTimeout.objects.filter(user=spammer).exists()
    banned = moderator.post(reverse("admin:moderation_act", args=["ban", spammer.pk]),
                            {"reason": "chip spam", "next": profile}, follow=True)
    assert Ban.objects.filter(user=spammer, lifted_at=None).exists()
    assert not ChatLine.objects.filter(author=spammer, removed_at=None).exists()
    assert banned.status_code == 200 and "Lift the ban" in banned.content.decode()
