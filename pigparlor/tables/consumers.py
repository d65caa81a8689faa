"""The browser's table socket: htmx's ws extension on the other end.

Frames are HTML: out-of-band swaps by element id, only the parts that changed
since this socket's last frame, plus ``#table-version`` carrying the version and
the version the frame builds on (``data-base``; empty for a full snapshot) so
the page can spot a gap and ask for a snapshot. Actions come from ``ws-send``
forms: ``{"version": "7", "action": "<json>", "HEADERS": {...}}``; the chat
panel's forms send ``{"type": "chat", "text": "…", "HEADERS": {...}}`` (and
``mute``, ``unmute``, ``report``), answered with swaps into the panel.
"""
from __future__ import annotations

import asyncio
import re

from django.utils.html import format_html

from pigparlor.moderation.sockets import CHAT_TYPES, HtmlChat
from pigparlor.tables import presence, rendering, strict_json
from pigparlor.tables.broadcast import call_then_send
from pigparlor.tables.errors import BAD_REQUEST, FORBIDDEN, GAME_OVER, GAME_OVER_SENTENCE, ILLEGAL, TableError
from pigparlor.tables.fragments import out_of_band
from pigparlor.tables.sockets import TableSocket

VERSION_TEXT = re.compile(r"[0-9]{1,18}")


class TableConsumer(HtmlChat, TableSocket):
    sent_parts: dict[str, str]
    anonymous_watchers = True  # a public table can be watched without an account

    async def send_state(self, snapshot, full: bool):
        if full or not hasattr(self, "sent_parts"):
            self.sent_parts = {}
        base = "" if full or self.sent_key is None else self.sent_key[0]
        parts = rendering.HTML.get((*snapshot.key, self.viewer))
        if parts is None:
            # Rendering reads no database: keep it off the one thread the ORM calls share,
            # and off the event loop. A plain executor: asgiref's sync_to_async carried
            # the consumer's context over and back for every viewer of every version,
            # which a render (no request, no database) does not use (issue 14).
            parts = await asyncio.get_running_loop().run_in_executor(
                rendering.RENDER_THREADS, rendering.html_parts, snapshot, self.viewer)
        frame = rendering.html_frame(parts, self.sent_parts)
        self.sent_parts = dict(parts)
        marker = format_html('<div id="table-version" hx-swap-oob="true" hidden data-version="{}" data-base="{}"></div>',
                             snapshot.table.version, base)
        await self.send(text_data=frame + marker)

    async def send_error(self, refusal: TableError):
        # A tap that comes after the end (a close that had not reached this page yet) reads as a sentence.
        message = GAME_OVER_SENTENCE if refusal.message == GAME_OVER else refusal.message
        element = format_html('<div id="table-error" class="table-error" role="alert" data-code="{}">{}</div>',
                              refusal.code, message)
        if hasattr(self, "sent_parts"):
            self.sent_parts["table-error"] = element
        await self.send(text_data=out_of_band(element))

    async def send_ping(self, ping_id: int):
        await self.send(text_data=f'<div id="table-ping" hx-swap-oob="true" hidden data-ping="{ping_id}"></div>')

    async def handle(self, message):
        if not isinstance(message, dict):
            raise TableError(BAD_REQUEST, "messages are JSON objects")
        kind = message.get("type")
        if kind == "snapshot":
            await self.resend()
        elif kind == "pong":
            self.round_trip.pong(message.get("id"))
        elif kind == "salt":
            try:
                await self.salt(message)
            except TableError as refusal:
                if refusal.code != ILLEGAL:  # dealt a moment ago: the page had nothing to say to a player
                    raise
        elif kind in CHAT_TYPES:
            await self.handle_chat(message)
        elif message.get("control") == "reclaim":
            if self.user is None:
                raise TableError(FORBIDDEN, "watchers have no seat to take back")
            await call_then_send(presence.reclaim_seat, self.table_id, self.user)
        elif "version" in message and "action" in message:
            await self.submit(parse_version(message["version"]), parse_action(message["action"]))
        else:
            raise self.unknown(kind)


def parse_version(value) -> int:
    """A form sends the version as a string of ASCII digits (``"7"``); a JSON
    integer is fine too. Anything else — ``3.9``, ``true``, ``"3.9"``, ``" 7"`` —
    is refused, never rounded into a version that plays the move."""
    if isinstance(value, str) and VERSION_TEXT.fullmatch(value):
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise TableError(BAD_REQUEST, "version must be an integer")


def parse_action(value) -> dict:
    if isinstance(value, str):
        value = strict_json.loads(value, "action")
    if not isinstance(value, dict):
        raise TableError(BAD_REQUEST, "action must be a JSON object")
    return value
