"""The installable shell: web app manifest, root-scoped service worker, offline page."""
import json

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from pigparlor.pwa.shell import shell_urls, shell_version

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
        "start_url": "/",
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
    }
    return JsonResponse(data, content_type="application/manifest+json", json_dumps_params={"indent": 2})


@require_GET
@cache_control(no_cache=True)
def service_worker(request):
    """Served from the site root so its scope is the whole site."""
    response = render(request, "pwa/sw.js", {
        "version": shell_version(),
        "shell_urls": json.dumps(shell_urls()),
        "static_prefix": settings.STATIC_URL,
        "offline_url": reverse("pwa:offline"),
    }, content_type="application/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def offline(request):
    return render(request, "pwa/offline.html")
