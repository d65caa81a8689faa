"""How far a running table has got, in words ("round 3 of 5"), for the
tournament pages.

The platform knows no game's rules, so this reads only the spectator view
(``engine.view(state, None)``, what anyone watching may see) and the keys
games share there: ``round`` with ``rounds`` (Pig Pile plays 5), or ``round``
with ``target`` and ``scores`` (Snout! plays to 100), or ``round`` or
``turn_number`` alone. Each table's text is worked out once per version.
"""
from __future__ import annotations

import logging
from collections import OrderedDict

from games.core.registry import UnknownGame, get_game
from pigparlor.tables.models import ABORTED, FINISHED, OPEN, RUNNING, Table

log = logging.getLogger(__name__)

CACHE_SIZE = 2048
# Table id → ((seed, version), words): a version's words never change.
_cache: OrderedDict[int, tuple[tuple[int, int], str]] = OrderedDict()


def words(view: dict) -> str:
    """The progress a spectator view shows, or "" if it shows none we know."""
    round_, rounds, target = view.get("round"), view.get("rounds"), view.get("target")
    if _count(round_) and _count(rounds):
        return f"round {round_} of {rounds}"
    scores = view.get("scores")
    if _count(round_) and _count(target) and isinstance(scores, list) and scores \
            and all(_count(score) or score == 0 for score in scores):
        return f"round {round_} · top score {max(scores)} of {target}"
    if _count(round_):
        return f"round {round_}"
    if _count(view.get("turn_number")):
        return f"turn {view['turn_number']}"
    return ""


def _count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def table_progress(table: Table | None) -> str:
    """"seating", "waiting for players", "round 3 of 5", "finished", "abandoned"."""
    if table is None:
        return "seating"
    if table.status == OPEN:
        return "waiting for players"
    if table.status == FINISHED:
        return "finished"
    if table.status == ABORTED:
        return "abandoned"
    if table.status != RUNNING or not table.state:
        return "playing"
    key = (table.seed, table.version)
    cached = _cache.get(table.pk)
    if cached is not None and cached[0] == key:
        return cached[1]
    try:
        engine = get_game(table.game).engine
        text = words(engine.view(engine.load(table.state), None)) or "playing"
    except (UnknownGame, KeyError, TypeError, ValueError):
        log.warning("no progress for table %s", table.pk, exc_info=True)
        text = "playing"
    _cache[table.pk] = (key, text)
    _cache.move_to_end(table.pk)
    while len(_cache) > CACHE_SIZE:
        _cache.popitem(last=False)
    return text
