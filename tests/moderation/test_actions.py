"""Moderator actions seen by the players: a close, a kick, a ban, a removed
line and a timeout reach the sockets live; the ratings' replay voids a table."""
import json

import pytest
from django.core.management import call_command
from django.test import Client

from pigparlor.moderation import services
from pigparlor.moderation.models import ChatLine, Kick, ModAction
from pigparlor.moderation.permissions import GROUP
from pigparlor.ratings.models import Rating, VoidedTable
from pigparlor.ratings.service import rate_table
from pigparlor.tables import services as tables
from pigparlor.tables.errors import TableError
from pigparlor.tables.models import ABORTED, FINISHED, Seat, Table
from tests.moderation.helpers import chat_frames, error_frames, make_moderator, moderator_group, two_player_table
from tests.support.sockets import WAIT_SECONDS, answered, db, open_socket, until
from tests.support.tables import finished_table, make_user

pytestmark = [pytest.mark.django_db(transaction=True)]


def has_state(predicate):
    return lambda frames: any(frame["type"] == "state" and predicate(frame) for frame in map(json.loads, frames))


@pytest.mark.asyncio
async def test_a_closed_table_sends_json_players_a_final_aborted_state_with_the_reason(count_game):
    ana, ben, table_id = await db(two_player_table)()
    moderator = await db(make_moderator)()
    program, page = await open_socket(ana, table_id, api=True), await open_socket(ben, table_id)
    await answered(program, api=True), await answered(page, api=False)
    await db(services.close_table)(moderator, table_id, "abusive chat")
    frames = await until(program, has_state(lambda frame: frame["status"] == "aborted"))
    final = [frame for frame in map(json.loads, frames) if frame["type"] == "state"][-1]
    assert final["status"] == "aborted" and final["reason"] == "closed by a moderator: abusive chat"
    assert final["legal"] == [] and final["deadline_ms"] is None  # nothing left to play
    html = "".join(await until(page, lambda got: any("closed by a moderator" in frame for frame in got)))
    assert "closed by a moderator: abusive chat" in html
    table = await db(Table.objects.get)(pk=table_id)
    assert (table.status, table.rated) == (ABORTED, False)
    # Over now: acting again is a clear error, and nothing more is logged.
    with pytest.raises(TableError, match="the game is over"):
        await db(services.close_table)(moderator, table_id, "again")
    assert await db(ModAction.objects.count)() == 1
    await program.send_json_to({"type": "act", "version": final["version"], "action": {"type": "count"}})
    assert error_frames(await until(program, lambda got: error_frames(got)))[0]["code"] == "illegal"
    await program.disconnect(), await page.disconnect()


@pytest.mark.asyncio
async def test_a_kicked_seat_gets_a_bot_and_its_player_cannot_sit_again(count_game):
    ana, ben, table_id = await db(two_player_table)()
    moderator = await db(make_moderator)()
    program = await open_socket(ben, table_id, api=True)
    await answered(program, api=True)
    await db(services.kick_seat)(moderator, table_id, 1, "stalling")
    frames = await until(program, has_state(lambda frame: frame["seat"] is None))
    assert [frame for frame in map(json.loads, frames) if frame["type"] == "state"][-1]["seat"] is None
    seat = await db(Seat.objects.get)(table_id=table_id, index=1)
    assert (seat.user_id, seat.bot_kind) == (None, "sensible")
    assert await db(Kick.objects.filter(table_id=table_id, user=ben).exists)()
    with pytest.raises(TableError, match="that seat is a bot's"):
        await db(services.kick_seat)(moderator, table_id, 1, "again")
    await program.disconnect()


def test_a_kicked_player_cannot_rejoin_an_open_table(count_game):
    ana, ben = make_user("ana"), make_user("ben")
    table = tables.create_table(host=ana, game="countgame", seats=3)
    tables.join_table(table, ben)
    services.kick_seat(make_moderator(), table.pk, 1, "rude")
    with pytest.raises(TableError, match="a moderator removed you from this table"):
        tables.join_table(table, ben)


@pytest.mark.asyncio
async def test_a_removed_line_is_replaced_for_everyone_live(count_game):
    ana, ben, table_id = await db(two_player_table)()
    moderator = await db(make_moderator)()
    program, page = await open_socket(ana, table_id, api=True), await open_socket(ben, table_id)
    await program.send_json_to({"type": "chat", "text": "nasty"})
    line = chat_frames(await until(program, lambda got: chat_frames(got)))[0]
    await answered(page, api=False)
    await db(services.remove_chat_line)(moderator, line["id"], "abuse")
    removed = chat_frames(await until(program, lambda got: chat_frames(got)))[0]
    assert removed == {**line, "text": "removed by a moderator", "removed": True}
    html = "".join(await until(page, lambda got: any("removed by a moderator" in frame for frame in got)))
    assert "nasty" not in html
    assert (await db(ChatLine.objects.get)(pk=line["id"])).text == "nasty"  # marked, never deleted
    await program.disconnect(), await page.disconnect()


@pytest.mark.asyncio
async def test_a_timeout_reaches_the_players_sockets_and_refuses_their_chat(count_game):
    ana, ben, table_id = await db(two_player_table)()
    moderator = await db(make_moderator)()
    program = await open_socket(ben, table_id, api=True)
    await answered(program, api=True)
    await db(services.time_out)(moderator, ben.pk, 60, "shouting")
    status = [json.loads(frame) for frame in await until(program, lambda got: any('"chat_status"' in f for f in got))]
    # How long, not until when: a clock time in the message would be the server's zone.
    assert "for 60 more minutes" in status[-1]["message"] and status[-1]["timeout_until"] is not None
    await program.send_json_to({"type": "chat", "text": "hey"})
    refusal = error_frames(await until(program, lambda got: error_frames(got)))[0]
    assert refusal["code"] == "forbidden" and "timed you out of chat for 60 more minutes" in refusal["message"]
    with pytest.raises(TableError, match="10, 60 or 1440"):
        await db(services.time_out)(moderator, ben.pk, 30, "odd length")
    await program.disconnect()


@pytest.mark.asyncio
async def test_a_ban_closes_the_players_sockets_hands_their_seat_to_a_bot_and_is_lifted(count_game):
    ana, ben, table_id = await db(two_player_table)()
    moderator = await db(make_moderator)()
    program, page = await open_socket(ben, table_id, api=True), await open_socket(ben, table_id)
    await answered(program, api=True), await answered(page, api=False)
    await db(services.ban_player)(moderator, ben.pk, "cheating")
    closed = await program.receive_output(timeout=WAIT_SECONDS)
    while closed["type"] != "websocket.close":
        closed = await program.receive_output(timeout=WAIT_SECONDS)
    assert closed["code"] == 4401
    seat = await db(Seat.objects.get)(table_id=table_id, index=1)
    assert (seat.user_id, seat.bot_kind) == (None, "sensible")
    ben = await db(type(ben).objects.get)(pk=ben.pk)
    assert not ben.is_active
    await db(services.lift_ban)(moderator, ben.pk, "appeal accepted")
    assert (await db(type(ben).objects.get)(pk=ben.pk)).is_active
    await page.disconnect()
    await program.disconnect()  # closed by the ban: let its consumer end before the database is flushed


def test_a_banned_player_is_told_why_on_the_login_page(count_game):
    ben = make_user("ben")
    services.ban_player(make_moderator(), ben.pk, "cheating at Snout")
    client = Client()
    response = client.post("/accounts/login/", {"login": "ben", "password": "a-long-test-password"}, follow=True)
    assert "This account is banned: cheating at Snout" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_voiding_uses_the_ratings_replay_and_the_check_passes(count_game, capsys):
    eve, fay = make_user("eve"), make_user("fay")
    first = finished_table([eve, fay], [1, 2])
    second = finished_table([eve, fay], [2, 1])
    rate_table(first.pk), rate_table(second.pk)
    moderator = make_moderator()
    services.void_ratings(moderator, first.pk, "win trading")
    assert VoidedTable.objects.filter(table=first).exists()
    assert Rating.objects.get(user=eve, game="snout").games == 1
    call_command("ratings", "--check")
    with pytest.raises(TableError, match="already void"):
        services.void_ratings(moderator, first.pk, "again")
    running = two_player_table(("gus", "hal"))[2]
    with pytest.raises(TableError, match="only a finished table that was rated"):
        services.void_ratings(moderator, running, "not over")
    assert ModAction.objects.filter(action=ModAction.VOID).count() == 1


def test_the_moderator_command_adds_and_removes(count_game):
    moderator_group()
    pat = make_user("pat")
    call_command("moderator", "pat")
    pat.refresh_from_db()
    assert pat.is_staff and pat.groups.filter(name=GROUP).exists()
    call_command("moderator", "pat", "--remove")
    pat.refresh_from_db()
    assert not pat.is_staff and not pat.groups.exists()


def test_a_closed_finished_table_refuses(count_game):
    table = finished_table([make_user("ivy"), "sensible"], [1, 2])
    with pytest.raises(TableError, match="the game is over"):
        services.close_table(make_moderator(), table.pk, "late")
    assert Table.objects.get(pk=table.pk).status == FINISHED


def test_the_reporter_sees_the_outcome_on_their_profile(count_game):
    from pigparlor.moderation.chat import table_room
    from pigparlor.moderation.reports import file_report

    ana, ben, table_id = two_player_table()
    report = file_report(ana, table_room(table_id), "ben", "stalling", "waits out every turn")
    client = Client()
    client.force_login(ana)
    assert "received, a moderator will look at it." in client.get("/profile/").content.decode()
    services.resolve_report(make_moderator(), report.pk, "action_taken", "warned")
    page = client.get("/profile/").content.decode()
    assert "Your reports" in page and "a moderator took action" in page
    with pytest.raises(TableError, match="already resolved"):
        services.resolve_report(make_moderator("mod2"), report.pk, "no_action", "again")
