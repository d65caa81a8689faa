"""The admin's moderator actions: one view per action, each a form with a
required reason that calls one service (``services``).

The views sit under ``/admin/moderation/modaction/act/<action>/<id>/``
(``ModActionAdmin.get_urls``) but are deliberately not wrapped in the admin's
login redirect: anyone who is neither a superuser nor in the Moderator group —
anonymous, a player, staff outside the group — gets a 403 and
nothing changes, logged as one INFO line without a traceback. A refusal of the action itself (no reason, a table that is
over, a seat that is a bot's) shows the form again with the message: 400 for
bad input, 404 for a missing target, 409 when the target cannot be acted on.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import get_resolver, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.log import log_response
from django.views.decorators.cache import never_cache

from pigparlor.moderation import services
from pigparlor.moderation.models import Report
from pigparlor.moderation.permissions import is_moderator
from pigparlor.tables.errors import BAD_REQUEST, ILLEGAL, NOT_FOUND, TableError

STATUS = {BAD_REQUEST: 400, NOT_FOUND: 404, ILLEGAL: 409}


def _whole(value):
    """A form's whole number ("3"), or the text itself for the service to refuse."""
    return int(value) if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 10 else value


@dataclass(frozen=True)
class Action:
    title: str
    permission: str
    run: Callable  # (moderator, pk, reason, POST) -> ModAction
    # Extra choices the form offers: (field name, label, [(value, label)]).
    choice: tuple | None = None


ACTIONS = {
    "close-table": Action("Close table", "close_table",
                          lambda user, pk, reason, data: services.close_table(user, pk, reason)),
    "kick-seat": Action("Kick seat", "kick_seat",
                        lambda user, pk, reason, data: services.kick_seat(user, pk, _seat(data), reason)),
    "remove-chat": Action("Remove chat line", "remove_chat",
                          lambda user, pk, reason, data: services.remove_chat_line(user, pk, reason)),
    "timeout": Action("Time out chat", "timeout_player",
                      lambda user, pk, reason, data: services.time_out(user, pk, _whole(data.get("minutes")), reason),
                      ("minutes", "For", [(str(minutes), label) for minutes, label in services.TIMEOUT_MINUTES.items()])),
    "ban": Action("Ban player", "ban_player", lambda user, pk, reason, data: services.ban_player(user, pk, reason)),
    "lift-ban": Action("Lift ban", "ban_player", lambda user, pk, reason, data: services.lift_ban(user, pk, reason)),
    "void-ratings": Action("Void ratings", "void_ratings",
                           lambda user, pk, reason, data: services.void_ratings(user, pk, reason)),
    "resolve-report": Action("Resolve report", "resolve_report",
                             lambda user, pk, reason, data: services.resolve_report(user, pk, data.get("outcome"), reason),
                             ("outcome", "Outcome", Report.OUTCOMES)),
}


def _seat(data):
    """The admin numbers seats from 1, as the table page does."""
    seat = _whole(data.get("seat"))
    return seat - 1 if isinstance(seat, int) else seat


def action_url(name: str, pk: int, **query) -> str:
    url = reverse("admin:moderation_act", args=[name, pk])
    return url + ("?" + "&".join(f"{key}={value}" for key, value in query.items()) if query else "")


def refused(request):
    """The 403 page, logged as one INFO line: a refusal is expected traffic (a
    player who follows a moderator's link), not an error, and raising
    ``PermissionDenied`` would log it as a warning with its traceback."""
    response = get_resolver().resolve_error_handler(403)(request, PermissionDenied("only moderators may do that"))
    log_response("Refused moderator action: %s", request.path, response=response, request=request, level="info")
    return response


@never_cache
def action_view(request, name: str, pk: int):
    action = ACTIONS.get(name)
    if action is None:
        raise Http404("no such moderator action")
    if not is_moderator(request.user, action.permission):
        return refused(request)
    error, status = "", 200
    if request.method == "POST":
        try:
            logged = action.run(request.user, pk, request.POST.get("reason"), request.POST)
        except TableError as refusal:
            error, status = refusal.message, STATUS.get(refusal.code, 400)
        else:
            messages.success(request, f"{action.title}: {logged.target} — logged.")
            back = request.POST.get("next", "")
            if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
                back = reverse("admin:moderation_modaction_changelist")
            return HttpResponseRedirect(back or reverse("admin:moderation_modaction_changelist"))
    context = {
        **admin.site.each_context(request), "title": action.title, "action": action, "name": name, "pk": pk,
        "error": error, "reason": request.POST.get("reason", ""), "next": request.GET.get("next", request.POST.get("next", "")),
        "seat": request.GET.get("seat", request.POST.get("seat", "")), "chosen": request.POST.get(action.choice[0], "") if action.choice else "",
    }
    return TemplateResponse(request, "admin/moderation/action.html", context, status=status)
