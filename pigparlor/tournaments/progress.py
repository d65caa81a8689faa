"""How far a running table has got, in words ("round 3 of 5"), for the
tournament pages.

The platform knows no game's rules, so it asks the engine (``engine.progress(state)``,
a ``games.core.Progress``): ``round`` with ``rounds`` (Pig Pile plays 5), or ``round``
with ``target`` and the leading score (Snout! plays to 100), or ``round`` or
``turn_number`` alone. Each table's text is worked out once per version.
"""
from __future__ import annotations

import logging
from collections import OrderedDict

from games.core import Progress
from games.core.registry import UnknownGame, get_game
from pigparlor.tables.models import ABORTED, FINISHED, OPEN, RUNNING, Table

log = logging.getLogger(__name__)

CACHE_SIZE = 2048
# Table id → ((seed, version), words): a version's words never change.
_cache: OrderedDict[int, tuple[tuple[int, int], str]] = OrderedDict()


def words(found: Progress) -> str:
    """The progress in words, or "" if the game tells none."""
    round_, rounds, target, leading = found.round, found.rounds, found.target, found.leading
    if _count(round_) and _count(rounds):
        return f"round {round_} of {rounds}"
    if _count(round_) and _count(target) and (_count(leading) or leading == 0):
        return f"round {round_} · top score {leading} of {target}"
    if _count(round_):
        return f"round {round_}"
    if _count(found.turn_number):
        return f"turn {found.turn_number}"
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
        text = words(engine.progress(engine.load(table.state))) or "playing"
    except (UnknownGame, KeyError, TypeError, ValueError):
        log.warning("no progress for table %s", table.pk, exc_info=True)
        text = "playing"
    _cache[table.pk] = (key, text)
    _cache.move_to_end(table.pk)
    while len(_cache) > CACHE_SIZE:
        _cache.popitem(last=False)
    return text
