"""Push notifications over HTTP (docs/api.md "Push notifications"), for the signed-in browser.

JSON in and out, with the protocol's error shape
(``{"type": "error", "code", "message"}``); the session cookie and the
``X-CSRFToken`` header authenticate, as for the site's other forms. The
profile's forms (device list, kinds) post here too and go back to the profile.
"""
from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from pigparlor.api.views import error, json_body
from pigparlor.pwa import invites, subscriptions, turns, vapid
from pigparlor.tables.errors import TableError


def signed_in_json(view):
    """A JSON door for the signed-in browser: 401 JSON (not a login page) without a session,
    and every ``TableError`` answered in the protocol's shape."""
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return JsonResponse({"type": "error", "code": "unauthorized", "message": "log in first"}, status=401)
        try:
            return view(request, *args, **kwargs)
        except TableError as refusal:
            return error(refusal.code, refusal.message)
    return wrapped


@require_GET
def public_key(request):
    """The application server key a browser subscribes with."""
    return JsonResponse({"public_key": vapid.public_key()})


@require_POST
@signed_in_json
def subscribe(request):
    body = json_body(request, ("endpoint", "keys", "expirationTime", "device"))
    if "endpoint" not in body or "keys" not in body:
        raise TableError("bad_request", 'send the browser\'s subscription: {"endpoint", "keys": {"p256dh", "auth"}}')
    device, created = subscriptions.subscribe(request.user, body["endpoint"], body["keys"], body.get("device", ""))
    return JsonResponse({"id": device.pk, "kinds": subscriptions.kinds_of(request.user.pk)},
                        status=201 if created else 200)


@require_POST
@signed_in_json
def unsubscribe(request):
    body = json_body(request, ("endpoint",))
    if "endpoint" not in body:
        raise TableError("bad_request", 'send {"endpoint"}')
    return JsonResponse({"removed": subscriptions.unsubscribe(request.user, body["endpoint"])})


@require_POST
@login_required
def remove_device(request, device_id):
    if subscriptions.remove_device(request.user, device_id):
        messages.success(request, "Notifications are off for that device.")
    else:
        messages.error(request, "No such device.")
    return redirect("accounts:profile")


@require_POST
@signed_in_json
def kinds(request):
    """JSON ``{"kinds": [...]}``, or the profile's form (checkboxes named ``kinds``)."""
    if request.content_type == "application/json":
        body = json_body(request, ("kinds",))
        if "kinds" not in body:
            raise TableError("bad_request", 'send {"kinds": [...]}')
        return JsonResponse({"kinds": subscriptions.set_kinds(request.user, body["kinds"])})
    try:
        subscriptions.set_kinds(request.user, request.POST.getlist("kinds"))
    except TableError as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, "Notification choices saved.")
    return redirect("accounts:profile")


@require_GET
def badge(request):
    """How many tables wait on you (the app icon's badge), and which: none when signed out
    (a page left open past its session asks too, and gets a clear badge, not an error)."""
    waiting = turns.tables_waiting_on(request.user.pk) if request.user.is_authenticated else []
    return JsonResponse({"waiting": len(waiting), "tables": [
        {"id": table.pk, "game": table.game, "title": table.display_title, "url": reverse("table", args=[table.pk])}
        for table in waiting]})


@require_POST
@login_required
def invite(request, table_id):
    """The waiting room's "invite a player by name" form."""
    try:
        invitation = invites.invite_player(table_id, request.user, request.POST.get("username", ""))
    except TableError as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, f"Invited {invitation.invitee.get_username()}: they get a notification "
                                  "if they turned them on, and can join with the link.")
    room = reverse("lobby:table", args=[table_id])
    if request.headers.get("HX-Request"):  # the room's form, re-rendered by its socket, posts with htmx
        response = HttpResponse(status=204)
        response["HX-Redirect"] = room
        return response
    return redirect(room)


@require_POST
@login_required
def mute(request, user_id):
    """The profile's "Mute" button on an invitation: no more invitation pushes from that player."""
    try:
        muted = invites.mute(request.user, user_id).muted
    except TableError as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, f"Muted {muted.get_username()}: their invitations will not notify you.")
    return redirect(reverse("accounts:profile") + "#notifications")


@require_POST
@login_required
def unmute(request, user_id):
    if invites.unmute(request.user, user_id):
        messages.success(request, "Unmuted: their invitations notify you again.")
    else:
        messages.error(request, "You had not muted that player.")
    return redirect(reverse("accounts:profile") + "#notifications")
