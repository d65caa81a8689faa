"""The JSON table protocol's socket (docs/api.md).

Server → ``{"type": "state", ...}`` on connect and after every change (with
``"outcome"`` once finished), ``{"type": "error", "code", "message"}``, and for
real-time games ``{"type": "ping", "id"}``, and the table's chat (``{"type":
"chat", "id", "from", "name", "text", "at"}``, ``mutes``, ``chat_status``,
``report``). Client → ``{"type": "act", "version", "action"}``, ``{"type":
"snapshot"}``, ``{"type": "pong", "id"}``, ``{"type": "salt", "salt"}``
(answered ``{"type": "salted", "salt"}``), ``{"type": "chat", "text"}``,
``{"type": "mute"|"unmute", "username"}``, ``{"type": "report", "username",
"reason", "comment"?, "line"?}``.
"""
from __future__ import annotations

import json

import orjson

from pigparlor.moderation.sockets import CHAT_TYPES, JsonChat
from pigparlor.tables import rendering
from pigparlor.tables.broadcast import token_group
from pigparlor.tables.errors import BAD_REQUEST, TableError
from pigparlor.tables.sockets import TableSocket


class ApiTableConsumer(JsonChat, TableSocket):
    last_frame: dict | None = None

    def revocation_groups(self) -> list[str]:
        token_id = self.scope.get("api_token_id")
        return [token_group(token_id)] if token_id is not None else []

    async def send_state(self, snapshot, full: bool):
        frame = rendering.JSON.get((*snapshot.key, self.viewer))
        if frame is None:
            frame = rendering.json_state(snapshot, self.viewer)
        last = self.last_frame
        if not full and last is not None and last["version"] == frame["version"] and frame == last:
            return  # only seats changed (someone connected): nothing a program sees
        self.last_frame = frame
        # orjson: encoding every seat's frame was a tenth of the server's CPU flat out
        # (docs/benchmarks.md, issue 14); the same compact JSON, non-ASCII left as is.
        await self.send(text_data=orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode())

    async def send_error(self, refusal: TableError):
        await self.send(text_data=json.dumps(refusal.as_json()))

    async def send_ping(self, ping_id: int):
        await self.send(text_data=json.dumps({"type": "ping", "id": ping_id}))

    async def handle(self, message):
        if not isinstance(message, dict):
            raise TableError(BAD_REQUEST, "messages are JSON objects")
        kind = message.get("type")
        if kind == "act":
            if "version" not in message or "action" not in message:
                raise TableError(BAD_REQUEST, "act needs \"version\" and \"action\"")
            if not isinstance(message["action"], dict):
                raise TableError(BAD_REQUEST, "action must be a JSON object")
            await self.submit(message["version"], message["action"])
        elif kind == "snapshot":
            await self.resend()
        elif kind == "pong":
            self.round_trip.pong(message.get("id"))
        elif kind == "salt":
            await self.salt(message)
            await self.send(text_data=json.dumps({"type": "salted", "salt": message["salt"]}))
        elif kind in CHAT_TYPES:
            await self.handle_chat(message)
        else:
            raise self.unknown(kind)
