"""The reporter hears back: a resolved report shows in the reporter's notifications
menu (pigparlor/pwa/inbox.py) — "Your report about Ben was reviewed: action was
taken." — until they dismiss it. ``services.resolve_report`` refreshes their menu
after the commit, on whatever page they have open."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from pigparlor.accounts.models import display_name
from pigparlor.moderation.models import Report

SHOWN = 5
OUTCOME_WORDS = {Report.ACTION_TAKEN: "action was taken", Report.NO_ACTION: "no action was needed"}


def reviewed_reports(user) -> list[dict]:
    """The menu's items: the reporter's resolved reports not yet dismissed, newest first."""
    reports = (Report.objects.filter(reporter=user, status=Report.RESOLVED, reporter_dismissed_at=None)
               .select_related("target", "target__profile").order_by("-resolved_at")[:SHOWN])
    return [{"kind": "report", "report": report, "about": display_name(report.target),
             "outcome": OUTCOME_WORDS.get(report.outcome, "a moderator looked at it")} for report in reports]


def tell_reporter(report: Report) -> None:
    """After the commit: the reporter's notifications menu, rendered again."""
    reporter_id = report.reporter_id

    def poke() -> None:
        from pigparlor.pwa.inbox import poke as poke_inbox

        poke_inbox([reporter_id])

    transaction.on_commit(poke)


@login_required
@require_POST
def dismiss(request, report_id: int):
    """The reporter's "OK" on the notification; anyone else's report is a 404."""
    updated = Report.objects.filter(pk=report_id, reporter=request.user, status=Report.RESOLVED).update(
        reporter_dismissed_at=timezone.now())
    if not updated:
        raise Http404("no such report of yours")
    user_id = request.user.pk

    def poke() -> None:
        from pigparlor.pwa.inbox import poke as poke_inbox

        poke_inbox([user_id])

    transaction.on_commit(poke)
    if request.headers.get("HX-Request"):
        return HttpResponse(status=204)  # the player socket sends the menu again
    return HttpResponseRedirect(reverse("accounts:profile") + "#your-reports")
