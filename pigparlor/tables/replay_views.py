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

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.html import escape, format_html
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from games.core.registry import get_game
from games.core.viewcheck import cards_in_html
from pigparlor.tables import rendering, replay
from pigparlor.tables.errors import FORBIDDEN, NOT_FOUND, TableError
from pigparlor.tables.fragments import split_top_level
from pigparlor.tables.models import FINISHED, RUNNING, Table
from pigparlor.tables.rendering import Snapshot

EVERYTHING = "all"
SHELL_PARTS = ("table-turn", "table-players", "table-status", "table-log")
FIRST_ID = re.compile(r'^(<[a-zA-Z][\w-]*\b[^>]*?)\sid="[^"]*"')
YOUR = re.compile(r'(aria-label="|>)Your (hand|table)')


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
        version = found.moments[found.moment_of(_version(request.GET.get("v"), found.last))]
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


def _parts(found: replay.Replay, version: int, viewer: int | None, names: dict[int, str]) -> dict[str, str]:
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
    parts["table-turn"] = turn_part(found, version, names)
    parts.update(split_top_level(render_to_string(snapshot.game.table_template, ctx)))
    # The game's own script drives a live table; a replay only shows it.
    return {part: html for part, html in parts.items() if not html.lstrip().startswith("<script")}


def _as_seat(html: str, name: str) -> str:
    """A seat's own part shown beside the board under the seat's name: without its id (it
    would clash with the board's), and "Your hand" said as "ana’s hand" (the page is anyone's,
    and every seat's hand would otherwise be one more region of the same name)."""
    html = FIRST_ID.sub(r"\1", html, count=1)
    return YOUR.sub(lambda found: f"{found[1]}{escape(name)}’s {found[2]}", html)


def sentence(text: str, capital: bool = True) -> str:
    """A log line as a sentence of its own: a full stop, and a capital first letter unless
    it starts with a player's name (which is theirs to spell)."""
    text = text.strip()
    if not text:
        return text
    if capital:
        text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?…" else text + "."


def step_sentences(found: replay.Replay, moment: int, names: dict[int, str], humans: set[int]) -> list[str]:
    """What happened in one moment, one sentence per event of the game's log (named as the
    page names seats); with nothing logged, whose move it was. A bot's move at a player's
    seat says so. Never "you": a replay is watched by anyone."""
    if moment == 0:
        return ["The cards are dealt."]
    before, version = found.moments[moment - 1], found.moments[moment]
    step = found.steps[before - 1]  # the action that made version ``before + 1``
    said = [sentence(f"{names[event['seat']]} {rendering.seat_names(event['text'], names)}", capital=False)
            if event.get("seat") in names else sentence(rendering.seat_names(event["text"], names))
            for event in found.events(before, version)]
    if not said:
        who = names.get(step.seat, f"Seat {step.seat + 1}") if step.seat is not None else "The clock"
        said.append(f"{who}’s move ({step.action.get('type', 'move').replace('_', ' ')}).")
    if step.seat is not None and not step.by_user and step.seat in humans:
        said.insert(0, f"A bot played for {names.get(step.seat, f'seat {step.seat + 1}')}.")
    return said


def step_time(found: replay.Replay, moment: int) -> str:
    """When the moment's first action came, in minutes and seconds since the start."""
    step = found.step(found.moments[moment - 1] + 1) if moment else None
    seconds = max(0, step.at_ms) // 1000 if step else 0
    return f"{seconds // 60}:{seconds % 60:02d}"


def turn_part(found: replay.Replay, version: int, names: dict[int, str]) -> str:
    """The replay's own turn line: whose move it was, said alike to everyone (the live table's
    "Your turn" / "You are watching" are for the people at the table then)."""
    if version == found.last:
        text = "Game over" if found.table.status == FINISHED else "Table closed"
    else:
        view = found.engine.view(found.state(version), None)
        turn = view.get("turn")
        phase = getattr(found.engine, "phase_names", {}).get(view.get("phase"))
        text = (format_html("<bdi>{}</bdi>’s move", names[turn]) if isinstance(turn, int) and turn in names
                else phase or "Everyone plays")
    return format_html('<div id="table-turn" class="table-turn"><span class="table-turn__text">{}</span></div>', text)


def seat_names(table) -> dict[int, str]:
    """Each seat's name as the table page shows it."""
    return Snapshot(table, tuple(rendering.seats_at(table)), None).names


def step_context(found: replay.Replay, version: int, viewer) -> dict:
    seats = rendering.seats_at(found.table)
    names = seat_names(found.table)
    humans = {seat.index for seat in seats if seat.user_id is not None}
    moment = found.moment_of(version)
    if viewer == EVERYTHING:
        board = _parts(found, version, None, names)
        unseen = found.engine.hidden_cards(found.state(version), None)
        hands = []
        for seat in seats:
            own = _parts(found, version, seat.index, names)
            private = [_as_seat(html, names[seat.index]) for html in own.values() if cards_in_html(html) & unseen]
            hands.append({"name": names[seat.index], "parts": private})
    else:
        board, hands = _parts(found, version, viewer, names), []
    return {"board": board.values(), "hands": hands, "version": version, "moment": moment,
            "moments": len(found.moments) - 1, "at": step_time(found, moment),
            "sentences": step_sentences(found, moment, names, humans)}


@with_replay
def replay_page(request, found, version, viewer):
    names = seat_names(found.table)
    salts = list(found.table.salts or ())
    return render(request, "tables/replay.html", {
        "table": found.table, "game": get_game(found.table.game),
        "seats": [{"index": index, "name": name} for index, name in names.items()],
        "salted": [{"name": names[index], "salt": salt} for index, salt in enumerate(salts) if salt],
        "viewer": viewer, "rounds": found.round_starts(), "moment_versions": found.moments,
        **step_context(found, version, viewer),
    })


@with_replay
def replay_step(request, found, version, viewer):
    return HttpResponse(render_to_string("tables/_replay_step.html", step_context(found, version, viewer)))


def fairness(request):
    return render(request, "tables/fairness.html")


@with_replay
@cache_control(private=True, max_age=86400)
def replay_proof(request, found, version, viewer):
    """What the page's Verify button checks in the browser (static/js/replay.js), fetched
    when the page opens so the check itself needs no server: the seed, the commitment,
    the salts, the deal seed, and for each version the digest logged when it was played
    with the state this replay rebuilt for it (the engine's dump; all of it may be shown
    once the table is over, as the seed already reveals it). Numbers too big for a
    browser's doubles travel as JSON numbers all the same: the page reads their digits."""
    table = found.table
    engine = found.engine
    return JsonResponse({
        "id": table.pk, "seed": table.seed, "commitment": table.commitment,
        "salts": list(table.salts or ()), "deal_seed": table.deal_seed, "last": found.last,
        "versions": [{"version": step.version, "digest": step.state_sha,
                      "state": engine.dump(found.state(step.version))} for step in found.steps if step.state_sha],
    })
