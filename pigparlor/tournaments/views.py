"""The tournament pages: the list, one tournament, the register / withdraw /
check-in forms, and a player's "Create a tournament" page and their
"Cancel" as its host; each form calls the core's services and nothing else.

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
from pigparlor.tournaments.forms import STAGE_PREFIX, HostForm, StageFormSet, stage_rows, tournament_spec
from pigparlor.tournaments.models import Tournament
from pigparlor.tournaments.spec import MAX_STAGES

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


def _form(service, done: str, fields: tuple[str, ...] = ()):
    """A POST form calling ``service(tournament_id, user, *fields as posted)``."""
    @login_required
    @require_POST
    def view(request, tournament_id):
        _tournament_or_404(tournament_id)
        try:
            service(tournament_id, request.user, *(request.POST.get(name, "") for name in fields))
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


@login_required
def create(request):
    """The "Create a tournament" page: any signed-in player hosts one
    (``services.host_tournament``); "Add a stage" and "Remove" show the form
    again with one stage more or less, creating nothing."""
    staff = request.user.is_staff
    status = 200
    if request.method != "POST":
        form, stages = HostForm(staff=staff), StageFormSet(prefix=STAGE_PREFIX, initial=[{}])
    elif "add_stage" in request.POST or "remove_stage" in request.POST:
        remove = request.POST.get("remove_stage", "")
        rows = stage_rows(request.POST, remove=int(remove) if remove.isdigit() else None,
                          add="add_stage" in request.POST)
        form = HostForm(initial=request.POST.dict(), staff=staff)
        stages = StageFormSet(prefix=STAGE_PREFIX, initial=rows)
    else:
        form, stages = HostForm(request.POST, staff=staff), StageFormSet(request.POST, prefix=STAGE_PREFIX)
        if form.is_valid() and stages.is_valid():
            data = form.cleaned_data
            try:
                made = services.host_tournament(name=data["name"], starts_at=data["starts_at"],
                                                tournament_spec=tournament_spec(data, stages.parsed),
                                                host=request.user, rated_requested=data["rated"])
            except TableError as refusal:
                form.add_error(None, refusal.message[:1].upper() + refusal.message[1:] + ".")
                status = STATUS.get(refusal.code, 409)
            else:
                messages.success(request, "Your tournament is open for registration. Share its page: players "
                                          "register here until it starts.")
                return redirect("tournaments:detail", made.pk)
        else:
            status = 400
    return render(request, "tournaments/create.html", {
        "form": form, "stages": stages, "staff": staff, "max_stages": MAX_STAGES,
        "hosted_left": services.hosted_left(request.user)}, status=status)


register = _form(services.register, "You are registered. Check in during the last minutes before the start.")
withdraw = _form(services.withdraw, "You withdrew from the tournament.")
check_in = _form(services.check_in, "You are checked in. Stay close: your table opens at the start.")
cancel = _form(services.cancel_hosted, "You cancelled the tournament. Its players have been told.", ("reason",))
