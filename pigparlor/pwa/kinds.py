"""The kinds of push notification a player can turn on or off.

A kind is data: its name (stored in preferences, sent in the payload), the
words the profile shows, and how long a push service should keep trying to
deliver it (``ttl_s``: "your turn" from an hour ago is no use to anyone).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Kind:
    name: str
    label: str
    help: str
    ttl_s: int


TURN, INVITE, TOURNAMENT_CHECKIN, TOURNAMENT_TABLE, REMATCH = (
    "turn", "invite", "tournament_checkin", "tournament_table", "rematch")

KINDS = (
    Kind(TURN, "Your turn", "When a table is waiting on you and you don't have it open.", 15 * 60),
    Kind(INVITE, "Invitations", "When a player invites you to a private table.", 24 * 3600),
    Kind(TOURNAMENT_CHECKIN, "Tournament check-in", "When check-in opens for a tournament you registered for.",
         2 * 3600),
    Kind(TOURNAMENT_TABLE, "Tournament table ready", "When your table in a tournament round is ready.", 15 * 60),
    Kind(REMATCH, "Rematch offers", "When the players of a finished table offer you a rematch.", 10 * 60),
)
BY_NAME = {kind.name: kind for kind in KINDS}
NAMES = tuple(BY_NAME)
