"""``/healthz`` for load balancers and probes, ``/metrics`` for Prometheus (docs/operations.md
"Watching it run")."""
from __future__ import annotations

import asyncio
import ipaddress
import logging

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import Http404, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache

from pigparlor.accounts.mfa import has_second_factor
from pigparlor.ops import metrics as site_metrics

log = logging.getLogger(__name__)
LAYER_TIMEOUT_S = 2.0


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as failure:
        log.warning("health check: the database does not answer (%s)", failure.__class__.__name__)
        return "down"
    return "ok"


async def _channel_layer() -> str:
    """A message to a fresh channel of this process, back through the layer (Redis, scaled out)."""
    layer = get_channel_layer()
    if layer is None:
        return "down"
    try:
        async with asyncio.timeout(LAYER_TIMEOUT_S):
            channel = await layer.new_channel("healthz.")
            await layer.send(channel, {"type": "health.ping"})
            message = await layer.receive(channel)
    except Exception as failure:
        log.warning("health check: the channel layer does not answer (%s)", failure.__class__.__name__)
        return "down"
    return "ok" if message.get("type") == "health.ping" else "down"


@never_cache
async def healthz(request):
    """200 ``{"ok": true, "database": "ok", "channel_layer": "ok"}``, or 503 with what is down.
    Cheap (one ``SELECT 1``, one message), no secrets, no session or database writes."""
    database = await sync_to_async(_database, thread_sensitive=True)()
    channel_layer = await _channel_layer()
    ok = database == "ok" and channel_layer == "ok"
    return JsonResponse({"ok": ok, "database": database, "channel_layer": channel_layer}, status=200 if ok else 503)


def _address_allowed(address: str) -> bool:
    try:
        client = ipaddress.ip_address(address)
    except ValueError:
        return False
    for allowed in settings.PIGPARLOR_METRICS_ALLOWED:
        try:
            if client in ipaddress.ip_network(allowed, strict=False):
                return True
        except ValueError:
            continue
    return False


def may_scrape(request) -> bool:
    """Addresses in ``PIGPARLOR_METRICS_ALLOWED`` (the client's own: REMOTE_ADDR, from
    X-Forwarded-For behind the proxy), and signed-in staff with their second factor (as the admin
    asks of them: pigparlor/accounts/mfa.py)."""
    if _address_allowed(request.META.get("REMOTE_ADDR", "")):
        return True
    user = getattr(request, "user", None)
    return bool(user is not None and user.is_authenticated and user.is_staff and has_second_factor(user))


@never_cache
def metrics(request):
    if not may_scrape(request):
        raise Http404("no such page")  # to everyone else there is nothing here
    return HttpResponse(site_metrics.exposition(), content_type="text/plain; version=0.0.4; charset=utf-8")
