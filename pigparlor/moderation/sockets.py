"""Chat over the sockets the site already has (table sockets on both
transports, the game lobbies' sockets).

``ChatSocket`` is mixed into a consumer that has ``self.user`` and
``self.room`` (a ``chat.Room``) and has joined the room's group and the
user's group (``broadcast.user_group``). It reads the chat message types —
``chat``, ``mute``, ``unmute``, ``report`` — hands each to one service call,
and passes the room's events (``chat.line``, ``chat.removed``, ``chat.mutes``, ``chat.status``)
on in the transport's own format: ``HtmlChat`` for browsers (out-of-band
swaps into the chat panel), the JSON consumer's methods for programs.
"""
from __future__ import annotations

import json
from datetime import UTC

from channels.db import database_sync_to_async
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from pigparlor.moderation import chat, reports
from pigparlor.tables import inputs
from pigparlor.tables.errors import TableError

CHAT_TYPES = ("chat", "mute", "unmute", "report")
FIELDS = {"chat": ("type", "text"), "mute": ("type", "username"), "unmute": ("type", "username"),
          "report": ("type", "username", "reason", "comment", "line")}


class ChatSocket:
    room: chat.Room | None = None
    muted: frozenset[int] = frozenset()
    # Fields a transport adds to every message (htmx's ws extension sends "HEADERS").
    transport_fields: tuple[str, ...] = ()

    async def join_chat(self):
        """After connecting: the room's last lines, and a timeout in force."""
        user = self.scope.get("user")
        self.muted = await database_sync_to_async(chat.muted_ids)(user)
        lines = await database_sync_to_async(chat.history)(self.room, user)
        if lines:  # an empty room sends nothing (the page's list starts empty)
            await self.send_chat_lines(lines, history=True)
        timeout = await database_sync_to_async(chat.timeout_of)(user)
        if timeout is not None:
            await self.send_chat_status(timeout, chat.timeout_message(timeout))

    async def handle_chat(self, message: dict) -> None:
        """One chat message (``message["type"]`` is in ``CHAT_TYPES``): a refusal
        goes to this socket only and changes nothing."""
        kind = message["type"]
        try:
            inputs.fields(message, FIELDS[kind] + self.transport_fields)
            user = self.scope.get("user")
            if kind == "chat":
                await database_sync_to_async(chat.post_chat)(user, self.room, message.get("text"))
                await self.chat_accepted(kind, None)
            elif kind in ("mute", "unmute"):
                await database_sync_to_async(chat.set_mute)(user, message.get("username"), kind == "mute")
            else:
                report = await database_sync_to_async(reports.file_report)(
                    user, self.room, message.get("username"), message.get("reason"), message.get("comment", ""),
                    self.chat_line_id(message.get("line")))
                await self.chat_accepted(kind, report)
        except TableError as refusal:
            await self.chat_refused(refusal)

    def chat_line_id(self, value):
        """The reported line's id as this transport sends it (JSON: an integer or absent)."""
        return value

    # -- the room's events -----------------------------------------------------
    async def chat_line(self, event):
        if event["author_id"] not in self.muted:
            await self.send_chat_lines([event["line"]], history=False)

    async def chat_removed(self, event):
        """Many lines of one author removed at once (a ban): one update, not one per line."""
        if event["author_id"] not in self.muted and event["lines"]:
            await self.send_chat_lines(event["lines"], history=False)

    async def chat_mutes(self, event):
        user = self.scope.get("user")
        self.muted = await database_sync_to_async(chat.muted_ids)(user)
        await self.mutes_changed(await database_sync_to_async(chat.muted_usernames)(user))

    async def chat_status(self, event):
        timeout = await database_sync_to_async(chat.timeout_of)(self.scope.get("user"))
        await self.send_chat_status(timeout, chat.timeout_message(timeout) if timeout is not None else "")

    # -- per transport ---------------------------------------------------------
    async def send_chat_lines(self, lines: list[dict], history: bool):
        raise NotImplementedError

    async def send_chat_status(self, timeout, message: str):
        raise NotImplementedError

    async def chat_refused(self, refusal: TableError):
        raise NotImplementedError

    async def chat_accepted(self, kind: str, result):
        raise NotImplementedError

    async def mutes_changed(self, usernames: list[str]):
        raise NotImplementedError


def line_items(lines: list[dict]) -> str:
    # Each line is our template's output, its text escaped there.
    return mark_safe("".join(render_to_string("moderation/_chat_line.html", {"line": line}) for line in lines))


def lines_html(lines: list[dict]) -> str:
    """The whole list, swapped in place of the page's."""
    return render_to_string("moderation/_chat_lines.html", {"items": line_items(lines), "oob": True})


def status_html(timeout) -> str:
    """The chat panel's banner: "You are timed out of chat until 17:33 (45 min left)." The
    time is a ``<time data-local>`` that static/js/tournaments.js shows in the reader's own
    time zone; without script it reads in UTC, and says so."""
    if timeout is None:
        return '<p id="chat-status" class="chat-status" hx-swap-oob="true" data-until=""></p>'
    until = timeout.until.astimezone(UTC)
    return format_html(
        '<p id="chat-status" class="chat-status" hx-swap-oob="true" data-until="{}">You are timed out of chat until '
        '<time datetime="{}" data-local="time">{} UTC</time> ({} left).</p>',
        chat.epoch_ms(until), until.isoformat(timespec="seconds"), f"{until:%H:%M}", chat.time_left(until))


class HtmlChat(ChatSocket):
    """The chat panel's swaps (templates/moderation/_chat.html)."""

    transport_fields = ("HEADERS",)

    def chat_line_id(self, value):
        if value in (None, ""):
            return None
        if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 18:
            return int(value)
        return value  # the service refuses it

    async def opening_html(self) -> str:
        """The chat panel's first swaps (the room's last lines, a timeout in force),
        for a socket that sends them within its own first frame."""
        user = self.scope.get("user")
        self.muted = await database_sync_to_async(chat.muted_ids)(user)
        html = lines_html(await database_sync_to_async(chat.history)(self.room, user))
        timeout = await database_sync_to_async(chat.timeout_of)(user)
        return html + (status_html(timeout) if timeout is not None else "")

    async def send_chat_lines(self, lines, history):
        if history:
            await self.send(text_data=lines_html(lines))
        elif lines and lines[0].get("removed"):
            # The whole list again: the removed line may be older than what the page
            # holds, and a swap with no target makes the table page reload.
            history = await database_sync_to_async(chat.history)(self.room, self.scope.get("user"))
            await self.send_chat_lines(history, history=True)
        else:
            await self.send(text_data=f'<ol id="chat-lines" hx-swap-oob="beforeend">{line_items(lines)}</ol>')

    async def send_chat_status(self, timeout, message):
        await self.send(text_data=status_html(timeout))

    async def chat_refused(self, refusal):
        await self.send(text_data=format_html(
            '<p id="chat-error" class="chat-error" role="alert" hx-swap-oob="true" data-code="{}">{}</p>',
            refusal.code, refusal.message))

    async def chat_accepted(self, kind, result):
        notice = "Report received: a moderator will look at it." if kind == "report" else ""
        await self.send(text_data='<p id="chat-error" class="chat-error" role="alert" hx-swap-oob="true"></p>'
                        + format_html('<p id="chat-notice" class="chat-notice" role="status" hx-swap-oob="true">{}</p>',
                                      notice))

    async def mutes_changed(self, usernames):
        await self.send(text_data=format_html('<div id="chat-muted" hidden hx-swap-oob="true" data-muted="{}"></div>',
                                              json.dumps(usernames)))
        user = self.scope.get("user")
        await self.send_chat_lines(await database_sync_to_async(chat.history)(self.room, user), history=True)


class JsonChat(ChatSocket):
    """The JSON protocol's chat frames (docs/api.md)."""

    async def send_chat_lines(self, lines, history):
        for line in lines:
            await self.send(text_data=json.dumps(line, separators=(",", ":")))

    async def send_chat_status(self, timeout, message):
        await self.send(text_data=json.dumps({
            "type": "chat_status", "timeout_until": chat.epoch_ms(timeout.until) if timeout is not None else None,
            "message": message}))

    async def chat_refused(self, refusal):
        await self.send_error(refusal)

    async def chat_accepted(self, kind, result):
        if kind == "report":
            await self.send(text_data=json.dumps({"type": "report", "id": result.pk, "status": "received"}))

    async def mutes_changed(self, usernames):
        await self.send(text_data=json.dumps({"type": "mutes", "muted": usernames}))
