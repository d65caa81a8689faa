"""The installable shell: web app manifest, root-scoped service worker, offline page,
the start page an installed app opens, and "your tables"."""
import json

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from games.core.cards import with_article
from games.core.registry import all_games
from pigparlor.pwa.shell import shell_urls, shell_version
from pigparlor.pwa.turns import tables_waiting_on
from pigparlor.tables.models import OPEN, RUNNING, Table

THEME_COLOUR = "#c2255c"
BACKGROUND_COLOUR = "#fff4e8"


@require_GET
@cache_control(max_age=3600)
def manifest(request):
    data = {
        "id": "/",
        "name": "Pig Parlor",
        "short_name": "Pig Parlor",
        "description": "Four pig card games — Oink!, Pig Pile, Piggy Piggy and Snout! — live with friends and bots.",
        "start_url": reverse("pwa:start"),
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "categories": ["games"],
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {"src": static("icons/maskable-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "maskable"},
            {"src": static("icons/maskable-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
        ],
        "shortcuts": shortcuts(),
    }
    return JsonResponse(data, content_type="application/manifest+json", json_dumps_params={"indent": 2})


@require_GET
@cache_control(max_age=86400, public=True)
def favicon(request):
    """``/favicon.ico``, which browsers ask for where a page names no icon (a JSON answer,
    an image): our pig, served with the other static files."""
    return redirect(static("icons/favicon.ico"))


def shortcuts() -> list[dict]:
    """The app icon's long-press menu: your tables, then "Play now" for each game."""
    icons = [{"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"}]
    items = [{"name": "Your tables", "short_name": "Your tables", "description": "The tables you are playing at",
              "url": reverse("pwa:your_tables"), "icons": icons}]
    for game in all_games():
        items.append({"name": f"Play {game.title} now", "short_name": f"{game.title}"[:12],
                      "description": f"Quick play: a seat at {with_article(game.title)} table",
                      "url": reverse("lobby:game", args=[game.slug]) + "#quick-play", "icons": icons})
    return items


@require_GET
@cache_control(no_cache=True)
def service_worker(request):
    """Served from the site root so its scope is the whole site."""
    response = render(request, "pwa/sw.js", {
        "version": shell_version(),
        "shell_urls": json.dumps(shell_urls()),
        "static_prefix": settings.STATIC_URL,
        "offline_url": reverse("pwa:offline"),
        "icon": static("icons/icon-192.png"),
        "badge_icon": static("icons/pig.svg"),
    }, content_type="application/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def offline(request):
    return render(request, "pwa/offline.html")


def your_running_tables(user):
    return Table.objects.filter(status=RUNNING, seat_set__user=user, seat_set__resigned=False).distinct()


@require_GET
def start(request):
    """Where the installed app opens: your running tables when you have any, else the games."""
    if request.user.is_authenticated and your_running_tables(request.user).exists():
        return redirect("pwa:your_tables")
    return redirect("home")


@require_GET
@login_required
def your_tables(request):
    """Your running and open tables, those waiting on your move first."""
    waiting = tables_waiting_on(request.user.pk)
    waiting_ids = {table.pk for table in waiting}
    running = [table for table in your_running_tables(request.user).order_by("-started_at")
               if table.pk not in waiting_ids]
    open_tables = list(Table.objects.filter(status=OPEN, seat_set__user=request.user).distinct()
                       .order_by("-created_at"))
    return render(request, "pwa/your_tables.html", {
        "waiting": waiting, "running": running, "open_tables": list(open_tables)})
