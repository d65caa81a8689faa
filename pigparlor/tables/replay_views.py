"""The replay page of a finished table: every version, as one seat saw it or all of it.

The page holds the controls; each step is a fragment rendered by the game's own
table template from the state the engine rebuilt (pigparlor.tables.replay),
with no actions offered and no timers running. "Everything" shows the
spectator's board plus, for each seat, the parts of that seat's page that show
a card the spectator could not see (its hand): allowed because only a table
that is over is ever replayed. Cards no seat could see (a draw pile) stay face
down: views are the only way a state is shown.
"""
from __future__ import annotations

import copy
import re
from functools import wraps

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from games.core.viewcheck import cards_in_html
from pigparlor.tables import rendering, replay
from pigparlor.tables.errors import FORBIDDEN, NOT_FOUND, TableError
from pigparlor.tables.fragments import split_top_level
from pigparlor.tables.models import RUNNING, Table
from pigparlor.tables.registry import get_game
from pigparlor.tables.rendering import Snapshot

EVERYTHING = "all"
SHELL_PARTS = ("table-turn", "table-players", "table-status", "table-log")
FIRST_ID = re.compile(r'^(<[a-zA-Z][\w-]*\b[^>]*?)\sid="[^"]*"')


def with_replay(view):
    """Hand ``view`` the replay (and the version and viewer asked for), or answer
    the refusal: 404 unknown, 403 private, 409 not over (with the commitment only)."""
    @require_GET
    @wraps(view)
    def wrapped(request, table_id: int):
        try:
            found = replay.replay_for(table_id, request.user)
        except TableError as refusal:
            if refusal.code == NOT_FOUND:
                raise Http404(refusal.message) from None
            table = Table.objects.filter(pk=table_id).first()
            status = 403 if refusal.code == FORBIDDEN else 409
            return render(request, "tables/replay_refused.html", {
                "message": refusal.message, "table": table if status == 409 else None}, status=status)
        version = _version(request.GET.get("v"), found.last)
        viewer = _viewer(request.GET.get("view"), found.table.seats)
        return view(request, found, version, viewer)
    return wrapped


def _viewer(value: str | None, seats: int):
    if value in (None, "", EVERYTHING):
        return EVERYTHING
    if value == "spectator":
        return None
    if value.isdigit() and int(value) < seats:
        return int(value)
    return EVERYTHING


def _version(value: str | None, last: int) -> int:
    if value is not None and value.isdigit():
        return min(max(1, int(value)), last)
    return 1


def _parts(found: replay.Replay, version: int, viewer: int | None) -> dict[str, str]:
    """The shell's and the game's parts for one viewer at one version, as a page
    that can no longer act shows them."""
    table = found.table
    if version < found.last:
        table = copy.copy(table)
        table.status, table.outcome, table.version = RUNNING, None, version
    snapshot = Snapshot(table, tuple(rendering.seats_at(found.table)), found.state(version))
    ctx = rendering.context(snapshot, viewer)
    # Who was connected or stood in for whom at that moment is not recorded: show neither.
    ctx.update(legal=[], deadline_ms=None, replaced=False, stand_in=False, notice=None, turn_is_you=False,
               players=[{**player, "connected": True, "replaced": False, "is_bot": player["is_bot"] and not player["replaced"],
                         "label": rendering.seat_label(player["name"], player["is_you"], False)}
                        for player in ctx["players"]])
    parts = split_top_level(render_to_string(rendering.SHELL_TEMPLATE, ctx))
    parts = {part: html for part, html in parts.items() if part in SHELL_PARTS}
    parts.update(split_top_level(render_to_string(snapshot.game.table_template, ctx)))
    # The game's own script drives a live table; a replay only shows it.
    return {part: html for part, html in parts.items() if not html.lstrip().startswith("<script")}


def _without_id(html: str) -> str:
    """A seat's own part shown beside the board: its id would clash with the board's."""
    return FIRST_ID.sub(r"\1", html, count=1)


def _step_text(found: replay.Replay, version: int, names: dict[int, str], humans: set[int]) -> str:
    """When, and what the game's log says happened (else who moved: a player,
    a bot standing in for one, the clock)."""
    step = found.step(version)
    if step is None:
        return "The deal"
    seconds = max(0, step.at_ms) // 1000
    engine = found.engine
    seen = max((event["n"] for event in engine.view(found.state(version - 1), None).get("log", ())), default=-1)
    said = [(f"{names[event['seat']]} " if event.get("seat") in names else "") + event["text"]
            for event in engine.view(found.state(version), None).get("log", ()) if event["n"] > seen]
    if step.seat is None:
        who = "Time ran out"
    else:
        who = names.get(step.seat, f"Seat {step.seat + 1}")
        if not step.by_user and step.seat in humans:
            who += " (a bot playing)"
    what = " ".join(said) if said else f"{who}: {step.action.get('type', 'move')}"
    return f"at {seconds // 60}:{seconds % 60:02d} · {what}"


def seat_names(table) -> dict[int, str]:
    """Each seat's name as the table page shows it."""
    return Snapshot(table, tuple(rendering.seats_at(table)), None).names


def step_context(found: replay.Replay, version: int, viewer) -> dict:
    seats = rendering.seats_at(found.table)
    names = seat_names(found.table)
    humans = {seat.index for seat in seats if seat.user_id is not None}
    if viewer == EVERYTHING:
        board = _parts(found, version, None)
        unseen = found.engine.hidden_cards(found.state(version), None)
        hands = []
        for seat in seats:
            own = _parts(found, version, seat.index)
            private = [_without_id(html) for html in own.values() if cards_in_html(html) & unseen]
            hands.append({"name": names[seat.index], "parts": private})
    else:
        board, hands = _parts(found, version, viewer), []
    return {"board": board.values(), "hands": hands, "version": version, "last": found.last,
            "step_text": _step_text(found, version, names, humans)}


@with_replay
def replay_page(request, found, version, viewer):
    names = seat_names(found.table)
    salts = list(found.table.salts or ())
    return render(request, "tables/replay.html", {
        "table": found.table, "game": get_game(found.table.game),
        "seats": [{"index": index, "name": name} for index, name in names.items()],
        "salted": [{"name": names[index], "salt": salt} for index, salt in enumerate(salts) if salt],
        "viewer": viewer, "rounds": found.round_starts(), **step_context(found, version, viewer),
    })


@with_replay
def replay_step(request, found, version, viewer):
    return HttpResponse(render_to_string("tables/_replay_step.html", step_context(found, version, viewer)))


def fairness(request):
    return render(request, "tables/fairness.html")


@with_replay
def replay_verify(request, found, version, viewer):
    checks = replay.verify(found.table)
    return HttpResponse(render_to_string("tables/_replay_verify.html", {
        "checks": checks, "ok": all(check.ok for check in checks), "table": found.table}))
