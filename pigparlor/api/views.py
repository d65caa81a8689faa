"""The JSON table protocol over HTTP (docs/api.md): create, join, read a table.

Views only authenticate, validate, call one service and answer.
"""
from __future__ import annotations

from functools import wraps

from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from games.core.registry import UnknownGame, get_game
from pigparlor.api.tokens import bearer, user_for_token
from pigparlor.ratings import queries
from pigparlor.ratings.accounts import player_named, seat_username
from pigparlor.tables import inputs, replay, services, strict_json
from pigparlor.tables.errors import BAD_REQUEST, FORBIDDEN, ILLEGAL, NOT_FOUND, RATE_LIMITED, TableError
from pigparlor.tables.models import FINISHED, Table

STATUS = {BAD_REQUEST: 400, FORBIDDEN: 403, NOT_FOUND: 404, RATE_LIMITED: 429}
CREATE_FIELDS = ("game", "seats", "bots", "bot_level", "options", "private", "title", "rated", "salt", "spectators_chat")


def error(code: str, message: str, status: int | None = None) -> JsonResponse:
    return JsonResponse({"type": "error", "code": code, "message": message}, status=status or STATUS.get(code, 409))


def token_required(view):
    @csrf_exempt
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        user = user_for_token(bearer(request.headers.get("Authorization")))
        if user is None:
            response = JsonResponse({"type": "error", "code": "unauthorized",
                                     "message": "send Authorization: Bearer <your API token>"}, status=401)
            response["WWW-Authenticate"] = "Bearer"
            return response
        request.user = user
        try:
            return view(request, *args, **kwargs)
        except TableError as refusal:
            response = error(refusal.code, refusal.message)
            if refusal.retry_after_s is not None:
                response["Retry-After"] = str(refusal.retry_after_s)
            return response
    return wrapped


def json_body(request, allowed: tuple[str, ...]) -> dict:
    """The request's JSON object, naming only ``allowed`` fields (an empty body is ``{}``)."""
    try:
        raw = request.body
    except RequestDataTooBig:
        raise TableError(BAD_REQUEST, "the body is too large") from None
    body = strict_json.loads(raw or b"{}", "the body")
    if not isinstance(body, dict):
        raise TableError(BAD_REQUEST, "the body must be a JSON object")
    return inputs.fields(body, allowed)


def ws_path(table: Table) -> str:
    return f"/ws/api/tables/{table.pk}/"


def describe(table: Table) -> dict:
    seat_rows = list(table.seat_set.select_related("user").order_by("index"))
    seats = [{"index": seat.index, "user": seat.user.get_username() if seat.user else None,
              "username": seat_username(seat), "bot": seat.bot_kind or None, "replaced": seat.replaced}
             for seat in seat_rows]
    rematch = table.rematches.order_by("pk").values_list("pk", flat=True).first()
    described = {"id": table.pk, "game": table.game, "status": table.status, "rated": table.rated, "seats": seats,
                 "version": table.version, "outcome": table.outcome, "commitment": table.commitment,
                 "rematch": rematch}
    if table.rated and table.status == FINISHED:
        described["rating_changes"] = [
            {**change, "before": change["before"].as_json(), "after": change["after"].as_json()}
            for change in queries.rating_changes(table, seat_rows)]
    return described


@token_required
@require_http_methods(["POST"])
def create(request):
    body = json_body(request, CREATE_FIELDS)
    if "game" not in body or "seats" not in body:
        raise TableError(BAD_REQUEST, "send {\"game\", \"seats\", \"bots\", \"options\"}")
    options = body.get("options", {})
    if not isinstance(options, dict):
        raise TableError(BAD_REQUEST, "options must be a JSON object")
    if "bot_level" in body and not isinstance(body["bot_level"], str):
        raise TableError(BAD_REQUEST, "bot_level must be a level's name, such as \"easy\"")
    table = services.create_table(
        host=request.user, game=body["game"], seats=body["seats"], bots=body.get("bots", 0),
        options=options, private=body.get("private", False), title=body.get("title", ""),
        rated=inputs.flag(body["rated"], "rated") if "rated" in body else None, salt=body.get("salt"),
        spectators_chat=body.get("spectators_chat", True), bot_level=body.get("bot_level"))
    return JsonResponse({"id": table.pk, "ws": ws_path(table)}, status=201)


def _table(table_id: int) -> Table:
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise TableError(NOT_FOUND, "no such table")
    return table


@token_required
@require_http_methods(["POST"])
def join(request, table_id: int):
    body = json_body(request, ("invite_code", "salt"))
    invite_code = body.get("invite_code")
    if invite_code is not None and not isinstance(invite_code, str):
        raise TableError(BAD_REQUEST, "invite_code must be a string")
    seat = services.join_table(_table(table_id), request.user, invite_code=invite_code, salt=body.get("salt"))
    return JsonResponse({"id": table_id, "seat": seat, "ws": f"/ws/api/tables/{table_id}/"})


@token_required
@require_http_methods(["POST"])
def rematch(request, table_id: int):
    """Play a finished table again: open its rematch (201) or take your seat at it (200)."""
    json_body(request, ())
    table, created = services.rematch_table(_table(table_id), request.user)
    table.refresh_from_db()
    seat = table.seat_set.get(user=request.user).index
    return JsonResponse({"id": table.pk, "seat": seat, "status": table.status, "ws": ws_path(table)},
                        status=201 if created else 200)


@token_required
@require_http_methods(["POST"])
def leave(request, table_id: int):
    """Give up your seat: before the start it is freed, during play a bot takes it over."""
    services.leave_table(_table(table_id), request.user)
    return JsonResponse(describe(_table(table_id)))


@token_required
@require_http_methods(["GET"])
def detail(request, table_id: int):
    table = _table(table_id)
    if table.private and not table.seat_set.filter(user=request.user).exists():
        raise TableError(FORBIDDEN, "this table is private")
    return JsonResponse(describe(table))


@csrf_exempt
@require_http_methods(["GET"])
def table_replay(request, table_id: int):
    """A finished table's seed, commitment and action log (docs/api.md). A token
    is needed only for a private table (or a signed-in browser session); a
    running table answers 409 with its commitment and nothing else."""
    header = request.headers.get("Authorization")
    user = request.user if request.user.is_authenticated else None
    if header is not None:
        user = user_for_token(bearer(header))
        if user is None:
            return error("unauthorized", "send Authorization: Bearer <your API token>", 401)
    try:
        found = replay.replay_for(table_id, user)
    except TableError as refusal:
        response = error(refusal.code, refusal.message)
        if refusal.code == ILLEGAL:
            table = Table.objects.filter(pk=table_id).only("commitment").first()
            response = JsonResponse({**refusal.as_json(), "commitment": table.commitment}, status=409)
        return response
    return JsonResponse(replay.document(found))


@token_required
@require_http_methods(["GET"])
def player(request, username: str):
    """A player's (or a bot's) rating in each game they have played rated."""
    user = player_named(username)
    if user is None:
        raise TableError(NOT_FOUND, f"no player {username!r}")
    return JsonResponse({"username": user.get_username(), "ratings": queries.ratings_json(user)})


@token_required
@require_http_methods(["GET"])
def leaderboard(request, game: str):
    """The top established players of a game, by rating."""
    try:
        get_game(game)
    except UnknownGame:
        raise TableError(NOT_FOUND, f"no game {game!r}") from None
    return JsonResponse({"game": game, "players": [
        {"rank": placed.rank, "username": placed.username, "rating": placed.row.skill.rating,
         "games": placed.row.games} for placed in queries.leaderboard(game)]})


@csrf_exempt  # a GET-only door: any other method is a 405, not a CSRF 403
@require_http_methods(["GET"])
def openapi_document(request):
    """The OpenAPI 3.1 document of this API (public: it holds no secrets)."""
    from pigparlor.api.schema import openapi

    return JsonResponse(openapi())


@csrf_exempt
@require_http_methods(["GET"])
def socket_document(request):
    """The JSON Schema of the table socket's messages (public)."""
    from pigparlor.api.schema import socket_schema

    return JsonResponse(socket_schema())
