"""The table page: the shell and the game's parts as of now; the socket takes over from there.

Anyone may watch a public table, with or without an account; a private one
needs its invite.
"""
from functools import cache

from django.conf import settings
from django.contrib.staticfiles import finders
from django.db.models import Max
from django.http import Http404
from django.shortcuts import render

from pigparlor.tables import rendering
from pigparlor.tables.errors import TableError
from pigparlor.tables.lessons import lesson_offered
from pigparlor.tables.models import TIMEOUTS_BEFORE_BOT, ActionLog

# How many tables' "a bot played for you" notices a session remembers having shown.
NOTICES_KEPT = 20
HOWTO_NOW = "table-now"


def table_page(request, table_id: int):
    invite = request.GET.get("invite")
    try:
        snapshot = rendering.load_snapshot(table_id)
        viewer = rendering.viewer_for(snapshot, request.user, invite)
    except TableError:
        raise Http404("No such table, or it is private.") from None
    query = f"?invite={invite}" if invite else ""
    parts = rendering.html_parts(snapshot, viewer)
    coach = snapshot.game.coach
    return render(request, "tables/table.html", {
        "table": snapshot.table, "seat": viewer, "game": snapshot.game,
        # The "How to play" panel holds the part that says what the viewer can do now.
        "parts": [html for element_id, html in parts.items() if element_id != HOWTO_NOW],
        "howto_now": parts.get(HOWTO_NOW, ""), "samples": coach.samples() if coach else {},
        "lesson_offer": coach is not None and viewer is not None and lesson_offered(request.user, snapshot.table),
        "ws_url": f"/ws/tables/{table_id}/{query}",
        "bot_moves": bot_moves_while_away(request, snapshot, viewer),
        "min_show_ms": 0 if snapshot.game.engine.realtime else settings.PIGPARLOR_MIN_SHOW_MS,
        "realtime": snapshot.game.engine.realtime,
        "game_stylesheet": game_stylesheet(snapshot.game.slug),
        "turns_before_bot": TIMEOUTS_BEFORE_BOT, "grace_s": settings.PIGPARLOR_SEAT_GRACE_MS // 1000,
    })


@cache
def game_stylesheet(slug: str) -> str | None:
    """``css/<slug>.css`` when the game has one. The head links it, so the first paint
    is the board: linked only in the game's part (in the body), it came after the
    first paint on a slow link and the whole board moved (Lighthouse: CLS 0.8)."""
    name = f"css/{slug}.css"
    return name if finders.find(name) else None


def bot_moves_while_away(request, snapshot, viewer) -> int:
    """Coming back to a seat a stand-in bot is playing: how many moves it made
    since the player's own last move (or since this session last said so)."""
    if viewer is None or not snapshot.seats[viewer].replaced:
        return 0
    table = snapshot.table
    shown = request.session.get("bot_notices", {})
    since = max(shown.get(str(table.pk), 0),
                ActionLog.objects.filter(table=table, user=request.user).aggregate(at=Max("version"))["at"] or 0)
    moves = ActionLog.objects.filter(table=table, seat=viewer, user__isnull=True, version__gt=since).count()
    if moves:
        shown = {key: value for key, value in shown.items() if key != str(table.pk)}
        shown[str(table.pk)] = table.version
        request.session["bot_notices"] = dict(list(shown.items())[-NOTICES_KEPT:])
    return moves
