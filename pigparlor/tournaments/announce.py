"""After a tournament's change commits: its pages hear the new revision, and
players just seated hear where their table is.

Groups (Channels): ``tournament-<id>`` gets ``{"type": "tournament.changed",
"tournament_id", "revision"}``; ``tournaments`` (the list) the same; each
seated player's ``player-<user_id>`` gets ``{"type": "tournament.table_ready",
"tournament_id", "table_id"}``; when a tournament is cancelled each registered
player's gets ``{"type": "tournament.cancelled", "tournament_id", "reason"}``.
"""
from __future__ import annotations

from django.db import transaction

from pigparlor.tables.broadcast import group_send

LIST_GROUP = "tournaments"


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def player_group(user_id: int) -> str:
    return f"player-{user_id}"


def changed(tournament) -> None:
    """Bump the revision (the caller saves) and tell the pages once the transaction commits."""
    tournament.revision += 1
    _send_after_commit(tournament.pk, tournament.revision)


def _send_after_commit(tournament_id: int, revision: int) -> None:
    message = {"type": "tournament.changed", "tournament_id": tournament_id, "revision": revision}

    def send():
        group_send(tournament_group(message["tournament_id"]), message)
        group_send(LIST_GROUP, message)

    transaction.on_commit(send)


def table_ready(tournament_id: int, table_id: int, user_ids: list[int]) -> None:
    def send():
        for user_id in user_ids:
            group_send(player_group(user_id), {"type": "tournament.table_ready", "tournament_id": tournament_id,
                                               "table_id": table_id})

    transaction.on_commit(send)


def cancelled(tournament_id: int, reason: str, user_ids: list[int]) -> None:
    def send():
        for user_id in user_ids:
            group_send(player_group(user_id), {"type": "tournament.cancelled", "tournament_id": tournament_id,
                                               "reason": reason})

    transaction.on_commit(send)
