"""The leaderboard page per game, and how ratings work (docs/ratings.md)."""
from __future__ import annotations

from pathlib import Path

import markdown
from django.conf import settings
from django.http import Http404
from django.shortcuts import render
from django.utils.safestring import mark_safe

from pigparlor.ratings import queries
from pigparlor.ratings.models import Rating
from pigparlor.tables.registry import UnknownGame, all_games, get_game

ABOUT = Path(settings.BASE_DIR) / "docs" / "ratings.md"


def leaderboard(request, slug):
    """The top 100 established players, and the visitor's own place if not among them."""
    try:
        game = get_game(slug)
    except UnknownGame:
        raise Http404("no such game") from None
    top = queries.leaderboard(slug)
    mine = None
    if request.user.is_authenticated and not any(placed.row.user_id == request.user.pk for placed in top):
        row = Rating.objects.filter(user=request.user, game=slug).select_related("user").first()
        if row is not None:
            mine = {"row": row, "place": queries.place(row)}
    return render(request, "ratings/leaderboard.html", {
        "game": game, "top": top, "mine": mine, "games": all_games(), "size": queries.LEADERBOARD_SIZE})


def about(request):
    """docs/ratings.md, ours (in the repository), so its HTML is trusted."""
    text = ABOUT.read_text(encoding="utf-8")
    return render(request, "ratings/about.html", {"text": mark_safe(markdown.markdown(text, extensions=["tables"]))})
