"""The tournament pages: the list, one tournament, and the register /
withdraw / check-in forms, which call the core's services and nothing else.

A refused form shows the page again with the service's message and the
status its code means (400, 403, 404, 409), having changed nothing. The
forms also post with htmx (the live panel is re-rendered by the socket,
without a request, so its forms carry the CSRF token as htmx's header):
then a success navigates (``HX-Redirect``) and a refusal puts the message
in the page's error slot (``HX-Retarget``).
"""
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from pigparlor.tables.errors import TableError
from pigparlor.tournaments import pages, services
from pigparlor.tournaments.models import Tournament

STATUS = {"bad_request": 400, "forbidden": 403, "not_found": 404, "rate_limited": 429}


def _tournament_or_404(tournament_id) -> Tournament:
    found = Tournament.objects.filter(pk=tournament_id).first()
    if found is None:
        raise Http404("no such tournament")
    return found


def tournament_list(request):
    return render(request, "tournaments/list.html", {
        **pages.list_context(), "checkin_minutes": settings.PIGPARLOR_TOURNAMENT_CHECKIN_MINUTES})


def tournament_page(request, tournament_id, error: TableError | None = None):
    tournament = _tournament_or_404(tournament_id)
    context = {**pages.board_context(tournament), **pages.me_context(tournament, request.user),
               "error": error.message if error else ""}
    status = STATUS.get(error.code, 409) if error else 200
    return render(request, "tournaments/detail.html", context, status=status)


def _form(service, done: str):
    @login_required
    @require_POST
    def view(request, tournament_id):
        _tournament_or_404(tournament_id)
        try:
            service(tournament_id, request.user)
        except TableError as refusal:
            if request.headers.get("HX-Request"):
                response = render(request, "tournaments/_error.html", {"error": refusal.message})
                response["HX-Retarget"], response["HX-Reswap"] = "#t-error-slot", "innerHTML"
                return response
            return tournament_page(request, tournament_id, error=refusal)
        messages.success(request, done)
        if request.headers.get("HX-Request"):
            response = HttpResponse(status=204)
            response["HX-Redirect"] = reverse("tournaments:detail", args=[tournament_id])
            return response
        return redirect("tournaments:detail", tournament_id)
    return view


register = _form(services.register, "You are registered. Check in during the last minutes before the start.")
withdraw = _form(services.withdraw, "You withdrew from the tournament.")
check_in = _form(services.check_in, "You are checked in. Stay close: your table opens at the start.")
