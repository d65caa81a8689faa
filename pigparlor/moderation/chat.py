"""Chat in a room: a table (``table:<id>``) or a game's lobby (``lobby:<slug>``).

``post_chat`` is the one door for a chat line, from either socket transport:
it checks the text (a string, not empty, at most 200 characters, nothing
invisible), the author (not banned, not timed out, not a spectator of a table
whose chat is read-only for spectators) and the per-user rate, stores the line
and, after the commit, sends it to the room's group. Every refusal is a
``TableError`` with the protocol's codes and stores nothing. Text is stored as
written and escaped wherever it is shown; links are never made clickable.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from pigparlor.accounts.guests import CHAT_REFUSAL, refuse_guest
from pigparlor.lobby.listing import group_for_game
from pigparlor.moderation.models import CHAT_MAX_LENGTH, Ban, ChatLine, ChatMute, ChatTimeout
from pigparlor.tables import inputs
from pigparlor.tables.broadcast import group_name, group_send, user_group
from pigparlor.tables.errors import BAD_REQUEST, FORBIDDEN, NOT_FOUND, RATE_LIMITED, TableError
from pigparlor.tables.models import Seat, Table
from pigparlor.tables.rendering import display_name

HISTORY = 50
REMOVED_TEXT = "removed by a moderator"
QUICK_PHRASES = ("Hello!", "Good game", "Well played", "Oops", "Thanks")


@dataclass(frozen=True)
class Room:
    key: str
    group: str  # the channel group whose sockets hear the room
    table_id: int | None = None


def table_room(table_id: int) -> Room:
    return Room(f"table:{table_id}", group_name(table_id), table_id)


def lobby_room(slug: str) -> Room:
    return Room(f"lobby:{slug}", group_for_game(slug))


def epoch_ms(moment) -> int:
    return int(moment.timestamp() * 1000)


def line_json(line: ChatLine) -> dict:
    """The JSON protocol's chat frame (docs/api.md); a removed line keeps its id and author."""
    frame = {"type": "chat", "id": line.pk, "from": line.author.get_username(), "name": display_name(line.author),
             "text": REMOVED_TEXT if line.removed_at else line.text, "at": epoch_ms(line.created_at)}
    if line.removed_at:
        frame["removed"] = True
    return frame


def history(room: Room, user=None) -> list[dict]:
    """The room's last ``HISTORY`` lines, oldest first, without the authors ``user`` muted."""
    lines = ChatLine.objects.filter(room=room.key).select_related("author", "author__profile")
    muted = muted_ids(user)
    if muted:
        lines = lines.exclude(author_id__in=muted)
    return [line_json(line) for line in reversed(lines.order_by("-id")[:HISTORY])]


def muted_ids(user) -> frozenset[int]:
    if user is None or not user.is_authenticated:
        return frozenset()
    return frozenset(ChatMute.objects.filter(user=user).values_list("muted_id", flat=True))


def muted_usernames(user) -> list[str]:
    return sorted(ChatMute.objects.filter(user=user).values_list("muted__username", flat=True))


def timeout_of(user) -> ChatTimeout | None:
    """The chat timeout in force for ``user`` now, if any (the one lasting longest)."""
    if user is None or not user.is_authenticated:
        return None
    return ChatTimeout.objects.filter(user=user, until__gt=timezone.now()).order_by("-until").first()


def minutes_left(until) -> int:
    return max(1, math.ceil((until - timezone.now()).total_seconds() / 60))


def time_left(until) -> str:
    """How long a timeout still runs, short: "45 min", "3 h"."""
    minutes = minutes_left(until)
    return f"{minutes} min" if minutes < 120 else f"{math.ceil(minutes / 60)} h"


def more_time(until) -> str:
    """How long a timeout still runs, in words: "45 more minutes", "3 more hours"."""
    minutes = minutes_left(until)
    if minutes < 120:
        return f"{minutes} more minute{'s' if minutes != 1 else ''}"
    return f"{math.ceil(minutes / 60)} more hours"


def timeout_message(timeout: ChatTimeout) -> str:
    """The refusal a timed-out player's chat line gets (socket error and JSON chat_status):
    no clock time, which would be in the server's zone, not the reader's."""
    return f"a moderator timed you out of chat for {more_time(timeout.until)}: {timeout.reason}"


def chat_text(text) -> str:
    if not isinstance(text, str):
        raise TableError(BAD_REQUEST, "chat text must be a string")
    text = text.strip()
    if not text:
        raise TableError(BAD_REQUEST, "chat text is empty")
    return inputs.visible_text(text, "chat text", CHAT_MAX_LENGTH)


def check_author(user, room: Room) -> None:
    """Refuse a user who may not write in ``room`` now (nothing is stored)."""
    if user is None or not user.is_authenticated:
        raise TableError(FORBIDDEN, "log in to chat")
    refuse_guest(user, CHAT_REFUSAL)  # guests are cheap to make: they read, and sign up to write
    if not user.is_active or Ban.objects.filter(user=user, lifted_at__isnull=True).exists():
        raise TableError(FORBIDDEN, "you are banned")
    timeout = timeout_of(user)
    if timeout is not None:
        raise TableError(FORBIDDEN, timeout_message(timeout))
    if room.table_id is not None:
        table = Table.objects.filter(pk=room.table_id).only("spectators_chat").first()
        if table is None:
            raise TableError(NOT_FOUND, "no such table")
        if not table.spectators_chat and not Seat.objects.filter(table_id=room.table_id, user=user).exists():
            raise TableError(FORBIDDEN, "spectators can only read this table's chat")


def check_rate(user) -> None:
    """At most ``PIGPARLOR_CHAT_BURST`` lines in any ``PIGPARLOR_CHAT_WINDOW_S`` seconds,
    counted in the database so the limit holds over every socket and process."""
    window = timedelta(seconds=settings.PIGPARLOR_CHAT_WINDOW_S)
    burst = settings.PIGPARLOR_CHAT_BURST
    recent = list(ChatLine.objects.filter(author=user, created_at__gt=timezone.now() - window)
                  .order_by("-created_at").values_list("created_at", flat=True)[:burst])
    if len(recent) >= burst:
        wait = max(1, math.ceil((recent[-1] + window - timezone.now()).total_seconds()))
        raise TableError(RATE_LIMITED, f"you are chatting too fast: wait {wait} s", retry_after_s=wait)


@transaction.atomic
def post_chat(user, room: Room, text) -> ChatLine:
    text = chat_text(text)
    # The author's row locked: two sockets of one user are counted one after the other.
    list(get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True))
    check_author(user, room)
    check_rate(user)
    line = ChatLine.objects.create(room=room.key, table_id=room.table_id, author=user, text=text)
    line = ChatLine.objects.select_related("author", "author__profile").get(pk=line.pk)
    announce_line(room.group, line)
    return line


def announce_line(group: str, line: ChatLine) -> None:
    frame, author_id = line_json(line), line.author_id
    transaction.on_commit(lambda: group_send(group, {"type": "chat.line", "line": frame, "author_id": author_id}))


def hide_lines_of(author) -> int:
    """Mark every line of ``author`` not yet removed as removed (a ban: their words stay
    stored, every room shows "removed by a moderator" in their place), and tell each room's
    open sockets after the commit. Returns how many lines it hid."""
    now = timezone.now()
    lines = ChatLine.objects.select_for_update().filter(author=author, removed_at__isnull=True)
    ids = list(lines.values_list("pk", flat=True))
    if not ids:
        return 0
    ChatLine.objects.filter(pk__in=ids).update(removed_at=now)
    rooms: dict[str, list[dict]] = {}
    hidden = ChatLine.objects.filter(pk__in=ids).select_related("author", "author__profile").order_by("id")
    for line in hidden:
        rooms.setdefault(line.room, []).append(line_json(line))
    author_id = author.pk
    for key, frames in rooms.items():
        _send_after_commit(room_group(key), {"type": "chat.removed", "lines": frames[-HISTORY:], "author_id": author_id})
    return len(ids)


def _send_after_commit(group: str, event: dict) -> None:
    transaction.on_commit(lambda: group_send(group, event))


def room_group(key: str) -> str:
    kind, _, name = key.partition(":")
    return group_name(int(name)) if kind == "table" else group_for_game(name)


def _other_user(user, username) -> object:
    if not isinstance(username, str):
        raise TableError(BAD_REQUEST, "username must be a string")
    other = get_user_model().objects.filter(username=username).first()
    if other is None:
        raise TableError(NOT_FOUND, f"no player {username[:40]!r}")
    if other.pk == user.pk:
        raise TableError(BAD_REQUEST, "you cannot mute or report yourself")
    return other


@transaction.atomic
def set_mute(user, username, muted: bool) -> list[str]:
    """Mute (or unmute) a player for ``user`` alone; remembered on the account.
    Returns the usernames ``user`` has muted; every socket of ``user`` follows."""
    if user is None or not user.is_authenticated:
        raise TableError(FORBIDDEN, "log in to mute players")
    other = _other_user(user, username)
    if muted:
        ChatMute.objects.get_or_create(user=user, muted=other)
    else:
        ChatMute.objects.filter(user=user, muted=other).delete()
    user_id = user.pk
    transaction.on_commit(lambda: group_send(user_group(user_id), {"type": "chat.mutes"}))
    return muted_usernames(user)
