"""Tournaments over the JSON API (docs/api.md "Tournaments"): list, create
(staff), read, register, withdraw, check in, and a player's own status.

Views only authenticate, validate, call one service and answer.
"""
from __future__ import annotations

from django.http import JsonResponse
from django.views.decorators.http import require_http_methods

from pigparlor.api.views import json_body, token_required
from pigparlor.tables.errors import FORBIDDEN, NOT_FOUND, TableError
from pigparlor.tournaments import services, spec, standings
from pigparlor.tournaments.models import CANCELLED, FINISHED, RUNNING, UPCOMING, Tournament

FINISHED_LISTED = 50


def moment(value) -> str | None:
    return None if value is None else value.isoformat().replace("+00:00", "Z")


def summary(tournament: Tournament) -> dict:
    stages = [{"game": stage.game, "format": stage.format, "table_size": stage.table_size,
               "advance": stage.advance, "rounds": stage.rounds, "options": stage.options, "points": stage.points}
              for stage in tournament.stages.all()]
    return {
        "id": tournament.pk, "name": tournament.name, "status": tournament.status,
        "starts_at": moment(tournament.starts_at),
        "checkin_opens_at": moment(tournament.starts_at - services.checkin_window()),
        "players": tournament.entries.filter(status__in=services.ACTIVE + ("in", "out")).count(),
        "stages": stages, "capacity": {"min": tournament.min_players, "max": tournament.max_players},
        "conditions": {"min_rating": tournament.min_rating, "max_rating": tournament.max_rating,
                       "min_games": tournament.min_games, "established": tournament.established},
        "rated": tournament.rated, "cancel_reason": tournament.cancel_reason or None,
    }


def _tournament(tournament_id: int) -> Tournament:
    found = Tournament.objects.filter(pk=tournament_id).first()
    if found is None:
        raise TableError(NOT_FOUND, "no such tournament")
    return found


@token_required
@require_http_methods(["GET", "POST"])
def collection(request):
    if request.method == "POST":
        if not request.user.is_staff:
            raise TableError(FORBIDDEN, "only staff may create tournaments")
        body = json_body(request, spec.CREATE_FIELDS)
        made = services.create_from_body(body, created_by=request.user)
        return JsonResponse(summary(made), status=201)
    listed = Tournament.objects.prefetch_related("stages")
    return JsonResponse({
        "upcoming": [summary(each) for each in listed.filter(status=UPCOMING).order_by("starts_at", "pk")],
        "running": [summary(each) for each in listed.filter(status=RUNNING).order_by("starts_at", "pk")],
        "finished": [summary(each) for each in listed.filter(status__in=(FINISHED, CANCELLED))
                     .order_by("-starts_at", "-pk")[:FINISHED_LISTED]],
    })


@token_required
@require_http_methods(["GET"])
def detail(request, tournament_id: int):
    tournament = _tournament(tournament_id)
    return JsonResponse({**summary(tournament),
                         "standings": [row.as_json() for row in standings.standings(tournament)],
                         "rounds": standings.rounds(tournament)})


def _entry_answer(tournament_id: int, entry) -> JsonResponse:
    return JsonResponse({"id": tournament_id, "username": entry.user.get_username(), "entry": entry.status})


@token_required
@require_http_methods(["POST"])
def register(request, tournament_id: int):
    json_body(request, ())
    _tournament(tournament_id)
    return _entry_answer(tournament_id, services.register(tournament_id, request.user))


@token_required
@require_http_methods(["POST"])
def withdraw(request, tournament_id: int):
    json_body(request, ())
    _tournament(tournament_id)
    return _entry_answer(tournament_id, services.withdraw(tournament_id, request.user))


@token_required
@require_http_methods(["POST"])
def checkin(request, tournament_id: int):
    json_body(request, ())
    _tournament(tournament_id)
    return _entry_answer(tournament_id, services.check_in(tournament_id, request.user))


@token_required
@require_http_methods(["GET"])
def me(request, tournament_id: int):
    return JsonResponse(standings.me_status(_tournament(tournament_id), request.user))
