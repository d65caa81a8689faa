"""Chat over the table sockets, on both transports (issue 13, "Tests": escaping,
caps, rate limit, history on connect, timeout refusal)."""
import json
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from pigparlor.moderation.models import ChatLine, ChatTimeout
from pigparlor.tables.models import Table
from tests.moderation.helpers import chat_frames, error_frames, two_player_table
from tests.support.sockets import WAIT_SECONDS, answered, db, open_socket, until
from tests.support.tables import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def has(kind):
    return lambda frames: any(json.loads(frame)["type"] == kind for frame in frames)


def html_has(text):
    return lambda frames: any(text in frame for frame in frames)


def form(**fields):
    return json.dumps({**fields, "HEADERS": {"HX-Request": "true"}})


def lines():
    return list(ChatLine.objects.order_by("id").values_list("author__username", "text"))


async def test_a_json_chat_line_reaches_both_transports_escaped(count_game):
    ana, ben, table_id = await db(two_player_table)()
    program, browser = await open_socket(ana, table_id, api=True), await open_socket(ben, table_id)
    await answered(program, api=True), await answered(browser, api=False)
    await program.send_json_to({"type": "chat", "text": "<b>hi</b> & see http://x.example"})
    got = chat_frames(await until(program, has("chat")))
    assert got[0]["from"] == "ana" and got[0]["text"] == "<b>hi</b> & see http://x.example"
    assert set(got[0]) == {"type", "id", "from", "name", "text", "at"} and isinstance(got[0]["at"], int)
    html = "".join(frame for frame in await until(browser, html_has("chat-line-")) if "chat-line-" in frame)
    assert "&lt;b&gt;hi&lt;/b&gt; &amp; see http://x.example" in html
    assert "<b>hi" not in html and "<a " not in html  # escaped, and the link is not made clickable
    assert await db(lines)() == [("ana", "<b>hi</b> & see http://x.example")]
    await program.disconnect(), await browser.disconnect()


async def test_a_browser_form_posts_a_line_and_quick_phrases_work(count_game):
    ana, ben, table_id = await db(two_player_table)()
    browser, program = await open_socket(ana, table_id), await open_socket(ben, table_id, api=True)
    await answered(browser, api=False), await answered(program, api=True)
    await browser.send_to(text_data=form(type="chat", text="Good game"))
    got = chat_frames(await until(program, has("chat")))
    assert [(frame["from"], frame["text"]) for frame in got] == [("ana", "Good game")]
    await browser.disconnect(), await program.disconnect()


async def test_history_of_the_last_50_lines_on_connect(count_game):
    ana, ben, table_id = await db(two_player_table)()

    def write():
        for number in range(55):
            ChatLine.objects.create(room=f"table:{table_id}", table_id=table_id, author=ana, text=f"line {number}")

    await db(write)()
    program = await open_socket(ben, table_id, api=True)
    got = chat_frames(await until(program, lambda frames: len(chat_frames(frames)) >= 50) + await answered(program, api=True))
    assert [frame["text"] for frame in got] == [f"line {number}" for number in range(5, 55)]
    browser = await open_socket(ben, table_id)
    html = "".join(await until(browser, html_has("line 54")))
    assert html.count('<li id="chat-line-') == 50 and "line 54" in html and "line 4<" not in html
    await program.disconnect(), await browser.disconnect()


@pytest.mark.parametrize("text, message", [
    ("x" * 201, "chat text is longer than 200 characters"),
    ("   ", "chat text is empty"),
    (42, "chat text must be a string"),
    (None, "chat text must be a string"),
    ("evil\u202etext", "chat text contains a control or invisible character (U+202E RIGHT-TO-LEFT OVERRIDE)"),
])
async def test_bad_chat_text_is_refused_with_the_protocol_error_and_nothing_stored(count_game, text, message):
    ana, _, table_id = await db(two_player_table)()
    program = await open_socket(ana, table_id, api=True)
    await answered(program, api=True)
    await program.send_json_to({"type": "chat", "text": text})
    assert error_frames(await until(program, has("error"))) == [
        {"type": "error", "code": "bad_request", "message": message}]
    assert await db(lines)() == []
    await program.disconnect()


async def test_200_characters_is_allowed(count_game):
    ana, _, table_id = await db(two_player_table)()
    program = await open_socket(ana, table_id, api=True)
    await answered(program, api=True)
    await program.send_json_to({"type": "chat", "text": "y" * 200})
    assert chat_frames(await until(program, has("chat")))[0]["text"] == "y" * 200
    await program.disconnect()


async def test_unknown_fields_are_refused(count_game):
    ana, _, table_id = await db(two_player_table)()
    program = await open_socket(ana, table_id, api=True)
    await answered(program, api=True)
    await program.send_json_to({"type": "chat", "text": "hi", "colour": "red"})
    assert error_frames(await until(program, has("error")))[0]["code"] == "bad_request"
    assert await db(lines)() == []
    await program.disconnect()


async def test_the_rate_limit_gives_a_clear_error_not_a_silent_drop(count_game, settings):
    settings.PIGPARLOR_CHAT_BURST, settings.PIGPARLOR_CHAT_WINDOW_S = 3, 3600
    ana, _, table_id = await db(two_player_table)()
    program, browser = await open_socket(ana, table_id, api=True), await open_socket(ana, table_id)
    await answered(program, api=True), await answered(browser, api=False)
    for number in range(3):
        await program.send_json_to({"type": "chat", "text": f"m{number}"})
        await until(program, has("chat"))
    await program.send_json_to({"type": "chat", "text": "one too many"})
    refusal = error_frames(await until(program, has("error")))[0]
    assert refusal["code"] == "rate_limited" and refusal["message"].startswith("you are chatting too fast: wait ")
    # The limit is the user's, over every socket: the browser is refused too, in the chat panel.
    await answered(browser, api=False)
    await browser.send_to(text_data=form(type="chat", text="from the page"))
    html = "".join(await until(browser, html_has('id="chat-error"')))
    assert 'data-code="rate_limited"' in html and "you are chatting too fast" in html
    assert [text for _, text in await db(lines)()] == ["m0", "m1", "m2"]
    await program.disconnect(), await browser.disconnect()


async def test_a_timed_out_player_is_refused_with_the_time_left_on_both_transports(count_game):
    ana, _, table_id = await db(two_player_table)()
    await db(ChatTimeout.objects.create)(user=ana, until=timezone.now() + timedelta(minutes=10), reason="rude")
    program = await open_socket(ana, table_id, api=True)
    frames = await until(program, has("chat_status"))
    status = [json.loads(frame) for frame in frames if json.loads(frame)["type"] == "chat_status"]
    assert status and status[0]["timeout_until"] is not None and "for 10 more minutes" in status[0]["message"]
    await program.send_json_to({"type": "chat", "text": "still here"})
    refusal = error_frames(await until(program, has("error")))[0]
    # "for N more minutes": the refusal names no clock time (it would be the server's zone).
    assert refusal["code"] == "forbidden" and "timed you out of chat for 10 more minutes" in refusal["message"]
    assert "until" not in refusal["message"] and refusal["message"].endswith(": rude")
    browser = await open_socket(ana, table_id)
    banner = "".join(await until(browser, html_has("You are timed out of chat until")))
    assert "can chat again" not in banner and "(10 min left)" in banner
    # The time in the reader's zone (static/js/tournaments.js localises it), UTC without script.
    assert re.search(r'<time datetime="[0-9T:-]+\+00:00" data-local="time">\d\d:\d\d UTC</time>', banner), banner
    await browser.send_to(text_data=form(type="chat", text="hello?"))
    html = "".join(await until(browser, html_has('data-code="forbidden"')))
    assert "timed you out of chat" in html
    assert await db(lines)() == []
    await program.disconnect(), await browser.disconnect()


async def test_spectators_of_a_read_only_table_cannot_chat_but_read(count_game):
    ana, _, table_id = await db(two_player_table)()
    await db(Table.objects.filter(pk=table_id).update)(spectators_chat=False)
    watcher = await db(make_user)("cat")
    spectator, player = await open_socket(watcher, table_id, api=True), await open_socket(ana, table_id, api=True)
    await answered(spectator, api=True), await answered(player, api=True)
    await spectator.send_json_to({"type": "chat", "text": "hi from the rail"})
    assert error_frames(await until(spectator, has("error"))) == [
        {"type": "error", "code": "forbidden", "message": "spectators can only read this table's chat"}]
    await player.send_json_to({"type": "chat", "text": "players may"})
    assert chat_frames(await until(spectator, has("chat")))[0]["text"] == "players may"
    assert await db(lines)() == [("ana", "players may")]
    await spectator.disconnect(), await player.disconnect()


async def test_a_mute_hides_that_players_lines_for_the_muter_only_and_is_remembered(count_game):
    ana, ben, table_id = await db(two_player_table)()
    muter, other = await open_socket(ana, table_id, api=True), await open_socket(ben, table_id, api=True)
    await answered(muter, api=True), await answered(other, api=True)
    await muter.send_json_to({"type": "mute", "username": "ben"})
    assert json.loads((await until(muter, has("mutes")))[-1]) == {"type": "mutes", "muted": ["ben"]}
    await other.send_json_to({"type": "chat", "text": "can you hear me"})
    assert chat_frames(await until(other, has("chat")))[0]["text"] == "can you hear me"
    # The muter's own line, sent after ben's, reaches the muter after ben's would have: the
    # chat lines the muter got up to it are the muter's own only.
    await muter.send_json_to({"type": "chat", "text": "after ben"})
    heard = chat_frames(await until(muter, lambda got: any("after ben" in frame for frame in got)))
    assert [frame["text"] for frame in heard] == ["after ben"]
    await muter.disconnect()
    again = await open_socket(ana, table_id, api=True)
    history = chat_frames(await answered(again, api=True))
    assert [frame["text"] for frame in history] == ["after ben"]  # remembered on the account: history leaves ben out
    await again.send_json_to({"type": "unmute", "username": "ben"})
    await until(again, has("mutes"))
    await again.send_json_to({"type": "mute", "username": "nobody-here"})
    assert error_frames(await until(again, has("error")))[0]["code"] == "not_found"
    await again.disconnect(), await other.disconnect()


async def test_a_report_keeps_the_evidence_and_one_open_report_per_pair(count_game):
    from pigparlor.moderation.models import Report

    ana, ben, table_id = await db(two_player_table)()
    reporter, rude = await open_socket(ana, table_id, api=True), await open_socket(ben, table_id, api=True)
    await answered(reporter, api=True), await answered(rude, api=True)
    await rude.send_json_to({"type": "chat", "text": "you are terrible"})
    line = chat_frames(await until(reporter, has("chat")))[0]
    await reporter.send_json_to({"type": "report", "username": "ben", "reason": "abuse", "line": line["id"]})
    ack = json.loads((await until(reporter, has("report")))[-1])
    assert ack["type"] == "report" and ack["status"] == "received"
    report = await db(Report.objects.get)(pk=ack["id"])
    assert (report.table_id, report.room, report.reason, report.line_id) == (table_id, f"table:{table_id}", "abuse", line["id"])
    assert report.table_version == (await db(Table.objects.get)(pk=table_id)).version
    assert [each["text"] for each in report.evidence] == ["you are terrible"]
    await reporter.send_json_to({"type": "report", "username": "ben", "reason": "cheating"})
    assert error_frames(await until(reporter, has("error")))[0]["code"] == "rate_limited"
    await reporter.send_json_to({"type": "report", "username": "ben", "reason": "rudeness"})
    assert error_frames(await until(reporter, has("error")))[-1]["message"].startswith("reason must be one of")
    assert await db(Report.objects.count)() == 1
    await reporter.disconnect(), await rude.disconnect()


async def test_the_host_makes_spectators_read_only_when_creating_over_the_api(count_game):
    from pigparlor.tables import services

    host = await db(make_user)("ana")
    created = await db(services.create_table)(host=host, game="countgame", seats=2, spectators_chat=False)
    assert not (await db(Table.objects.get)(pk=created.pk)).spectators_chat
    with pytest.raises(Exception, match="spectators_chat must be true or false"):
        await db(services.create_table)(host=host, game="countgame", seats=2, spectators_chat="false")


@pytest.mark.parametrize("text, message", [
    ("x" * 201, "chat text is longer than 200 characters"),
    ("", "chat text is empty"),
])
async def test_bad_chat_text_from_the_page_shows_in_the_chat_panel(count_game, text, message):
    ana, _, table_id = await db(two_player_table)()
    browser = await open_socket(ana, table_id)
    await answered(browser, api=False)
    await browser.send_to(text_data=form(type="chat", text=text))
    html = "".join(await until(browser, html_has('id="chat-error"')))
    assert 'data-code="bad_request"' in html and message in html
    assert await db(lines)() == []
    await browser.disconnect()


async def test_a_banned_player_cannot_chat(count_game):
    from pigparlor.moderation.chat import post_chat, table_room
    from pigparlor.moderation.models import Ban
    from pigparlor.tables.errors import TableError

    ana, _, table_id = await db(two_player_table)()
    await db(Ban.objects.create)(user=ana, reason="spam")
    with pytest.raises(TableError, match="you are banned"):
        await db(post_chat)(ana, table_room(table_id), "let me in")
    assert await db(lines)() == []


async def test_the_lobby_socket_chats_with_the_same_checks(count_game):
    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator
    from django.contrib.auth.models import AnonymousUser

    from pigparlor.lobby.routing import websocket_urlpatterns

    ana = await db(make_user)("ana")

    async def lobby(user):
        socket = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/lobby/countgame/")
        socket.scope["user"] = user
        assert (await socket.connect(timeout=WAIT_SECONDS))[0]
        return socket

    player, visitor = await lobby(ana), await lobby(AnonymousUser())
    await until(player, bool), await until(visitor, bool)  # the listing's first frame
    await player.send_to(text_data=form(type="chat", text="<i>anyone</i> for a count?"))
    html = "".join(await until(visitor, html_has("chat-line-")))
    assert "&lt;i&gt;anyone&lt;/i&gt; for a count?" in html
    await visitor.send_to(text_data=form(type="chat", text="me"))
    assert "log in to chat" in "".join(await until(visitor, html_has('id="chat-error"')))
    await until(player, html_has("chat-line-"))
    await player.send_to(text_data="{not json")
    assert "the message is not JSON" in "".join(await until(player, html_has("is not JSON")))
    assert await db(lines)() == [("ana", "<i>anyone</i> for a count?")]
    late = await lobby(AnonymousUser())
    assert "for a count?" in "".join(await until(late, html_has("for a count?")))  # the lobby's history comes with the first frame
    await player.disconnect(), await visitor.disconnect(), await late.disconnect()
