"""The leaderboard page per game, a player's rating history in a game, and how
ratings work (docs/ratings.md)."""
from __future__ import annotations

from pathlib import Path

import markdown
from django.conf import settings
from django.contrib.auth import get_user_model
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import mark_safe

from games.core.registry import UnknownGame, all_games, get_game
from pigparlor.ratings import queries
from pigparlor.ratings.models import Rating
from pigparlor.ratings.pages import bot_levels, history_rows
from pigparlor.ratings.scale import PROVISIONAL_GAMES

ABOUT = Path(settings.BASE_DIR) / "docs" / "ratings.md"


def _game(slug: str):
    try:
        return get_game(slug)
    except UnknownGame:
        raise Http404("no such game") from None


def leaderboard(request, slug):
    """The top 100 established players, the visitor's own place if not among them,
    apart the active provisional players, and the bots' fixed ratings."""
    game = _game(slug)
    top = queries.leaderboard(slug)
    mine = None
    if request.user.is_authenticated and not any(placed.row.user_id == request.user.pk for placed in top):
        row = Rating.objects.filter(user=request.user, game=slug).select_related("user").first()
        if row is not None:
            mine = {"row": row, "place": queries.place(row), "to_go": PROVISIONAL_GAMES - row.games}
    return render(request, "ratings/leaderboard.html", {
        "game": game, "top": top, "mine": mine, "games": all_games(), "size": queries.LEADERBOARD_SIZE,
        "newcomers": queries.provisional_players(slug), "active_days": queries.ACTIVE_DAYS,
        "bots": bot_levels(game), "provisional_games": PROVISIONAL_GAMES})


def history(request, username, slug):
    """Every change to a player's rating in one game, newest first, each with why."""
    game = _game(slug)
    player = get_object_or_404(get_user_model().objects.select_related("profile"), username=username)
    row = Rating.objects.filter(user=player, game=slug).first()
    return render(request, "ratings/history.html", {
        "game": game, "player": player, "row": row, "rows": history_rows(player, slug),
        "is_self": player == request.user})


def about(request):
    """docs/ratings.md, ours (in the repository), so its HTML is trusted."""
    text = ABOUT.read_text(encoding="utf-8")
    return render(request, "ratings/about.html", {"text": mark_safe(markdown.markdown(text, extensions=["tables"]))})
