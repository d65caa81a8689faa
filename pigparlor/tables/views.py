"""The table page: the shell and the game's parts as of now; the socket takes over from there."""
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render

from pigparlor.tables import rendering
from pigparlor.tables.errors import TableError


@login_required
def table_page(request, table_id: int):
    invite = request.GET.get("invite")
    try:
        snapshot = rendering.load_snapshot(table_id)
        viewer = rendering.viewer_for(snapshot, request.user, invite)
    except TableError:
        raise Http404("No such table, or it is private.") from None
    query = f"?invite={invite}" if invite else ""
    return render(request, "tables/table.html", {
        "table": snapshot.table, "seat": viewer, "game": snapshot.game,
        "parts": rendering.html_parts(snapshot, viewer).values(),
        "ws_url": f"/ws/tables/{table_id}/{query}",
    })
