"""The JSON API's published schemas (docs/api.md): an OpenAPI 3.1 document for the
HTTP doors and a JSON Schema (2020-12) of the table socket's messages.

Both are written by hand, next to the views they describe, and kept honest by
tests: tests/api/test_schema.py walks the API's URLconf (a route missing from the
document, or a documented path that does not resolve, fails), validates real
answers and every frame of a played game of each game against them, and
tests/api/test_schema_fuzz.py fuzzes the HTTP doors from the document.

What depends on the games (their names, seat counts, bot levels, table options)
is read from the game registry, so a new game or option appears by itself.
"""
from __future__ import annotations

from typing import Any

from games.core.registry import all_games
from pigparlor.tables.errors import CODES

INTEGER_ID = {"type": "integer", "minimum": 0, "maximum": 2 ** 63 - 1}
NULLABLE_INT = {"type": ["integer", "null"]}
STRING = {"type": "string"}
MOMENT = {"type": "string", "format": "date-time"}
SALT = {"type": "string", "pattern": "^[A-Za-z0-9_-]{8,64}$",
        "description": "8 to 64 characters of A-Z a-z 0-9 _ - (16 random bytes as hex)"}
TABLE_STATUSES = ["open", "running", "finished", "aborted"]


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def obj(properties: dict, required=(), *, extra: bool = False, **more) -> dict:
    """A JSON object with these properties; ``extra`` False (the default) allows no others."""
    schema: dict[str, Any] = {"type": "object", "properties": properties, "required": list(required),
                              "additionalProperties": extra}
    schema.update(more)
    return schema


def nullable(schema: dict) -> dict:
    return {"oneOf": [{"type": "null"}, schema]}


# -- what the answers look like ----------------------------------------------------

ERROR = obj({"type": {"const": "error"}, "code": {"enum": list(CODES)}, "message": STRING},
            ["type", "code", "message"],
            description="A refusal: it changed nothing. `code` is one of the protocol's codes (docs/api.md).")
UNAUTHORIZED = obj({"type": {"const": "error"}, "code": {"const": "unauthorized"}, "message": STRING},
                   ["type", "code", "message"],
                   description="No token, or a wrong, revoked or deactivated one.")
OUTCOME = obj({
    "ranks": {"type": "array", "items": {"type": "integer", "minimum": 1}},
    "scores": {"type": "array", "items": {"type": "number"}},
    "left": {"type": "array", "items": {"type": "integer", "minimum": 0}},
    "left_early": {"type": "array", "items": {"type": "integer", "minimum": 0}},
    "unrated": {"enum": ["repeat", "no_players"]},
}, ["ranks", "scores"], description="`ranks` and `scores` per seat; tables finished before `left_early` "
                                    "existed lack it.")
STANDING = obj({"rating": {"type": "integer"}, "mu": {"type": "number"}, "sigma": {"type": "number"},
                "provisional": {"type": "boolean"}}, ["rating", "mu", "sigma", "provisional"])
SEAT = obj({"index": {"type": "integer", "minimum": 0}, "user": {"type": ["string", "null"]},
            "username": {"type": ["string", "null"], "description": "null for a free seat"},
            "bot": {"type": ["string", "null"]}, "replaced": {"type": "boolean"}},
           ["index", "user", "username", "bot", "replaced"])
TABLE = obj({
    "id": INTEGER_ID, "game": STRING, "status": {"enum": TABLE_STATUSES}, "rated": {"type": "boolean"},
    "seats": {"type": "array", "items": ref("Seat")}, "version": {"type": "integer", "minimum": 0},
    "outcome": nullable(ref("Outcome")), "commitment": STRING, "rematch": nullable(INTEGER_ID),
    "rating_changes": {"type": "array", "items": obj({
        "seat": {"type": "integer", "minimum": 0}, "username": STRING,
        "before": ref("Standing"), "after": ref("Standing")}, ["seat", "username", "before", "after"])},
}, ["id", "game", "status", "rated", "seats", "version", "outcome", "commitment", "rematch"],
    description="`rating_changes` only once a rated table is finished.")
CREATED = obj({"id": INTEGER_ID, "ws": {"type": "string", "pattern": "^/ws/api/tables/[0-9]+/$"}}, ["id", "ws"])
JOINED = obj({"id": INTEGER_ID, "seat": {"type": "integer", "minimum": 0},
              "ws": {"type": "string", "pattern": "^/ws/api/tables/[0-9]+/$"}}, ["id", "seat", "ws"])
REMATCH = obj({"id": INTEGER_ID, "seat": {"type": "integer", "minimum": 0}, "status": {"enum": TABLE_STATUSES},
               "ws": {"type": "string", "pattern": "^/ws/api/tables/[0-9]+/$"}}, ["id", "seat", "status", "ws"])
REPLAY = obj({
    "id": INTEGER_ID, "game": STRING, "status": {"enum": ["finished", "aborted"]},
    "seats": {"type": "array", "items": obj({"index": {"type": "integer", "minimum": 0},
                                             "user": {"type": ["string", "null"]},
                                             "bot": {"type": ["string", "null"]}}, ["index", "user", "bot"])},
    "options": {"type": "object"}, "seed": {"type": "integer", "minimum": 0},
    "commitment": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
    "salts": {"type": "array", "items": {"type": ["string", "null"]}},
    "deal_seed": {"type": "integer", "minimum": 0}, "started_at_ms": NULLABLE_INT,
    "actions": {"type": "array", "items": obj({
        "version": {"type": "integer", "minimum": 2}, "seat": NULLABLE_INT,
        "action": {"type": "object", "required": ["type"]}, "at_ms": {"type": "integer"}},
        ["version", "seat", "action", "at_ms"])},
    "outcome": nullable(ref("Outcome")),
}, ["id", "game", "status", "seats", "options", "seed", "commitment", "salts", "deal_seed", "started_at_ms",
    "actions", "outcome"])
STILL_PLAYED = obj({"type": {"const": "error"}, "code": {"const": "illegal"}, "message": STRING,
                    "commitment": STRING}, ["type", "code", "message", "commitment"],
                   description="The table is still being played (or never started): its commitment, never its seed.")
PLAYER = obj({"username": STRING, "ratings": {"type": "object", "additionalProperties": obj(
    {**STANDING["properties"], "games": NULLABLE_INT, "rank": nullable({"type": "integer", "minimum": 1}),
     "fixed": {"const": True}}, [*STANDING["required"], "games", "rank"],
    description="One game's rating; a bot level's is fixed (\"fixed\": true, games and rank null)")}},
    ["username", "ratings"])
LEADERBOARD = obj({"game": STRING, "players": {"type": "array", "items": obj({
    "rank": {"type": "integer", "minimum": 1}, "username": STRING, "rating": {"type": "integer"},
    "games": {"type": "integer", "minimum": 0}}, ["rank", "username", "rating", "games"])}}, ["game", "players"])
TOURNAMENT = obj({
    "id": INTEGER_ID, "name": STRING, "status": {"enum": ["upcoming", "running", "finished", "cancelled"]},
    "starts_at": MOMENT, "checkin_opens_at": MOMENT, "players": {"type": "integer", "minimum": 0},
    "stages": {"type": "array", "items": obj({
        "game": STRING, "format": {"enum": ["elimination", "swiss"]}, "table_size": {"type": "integer"},
        "advance": NULLABLE_INT, "rounds": NULLABLE_INT, "options": {"type": "object"},
        "points": {"type": ["array", "null"], "items": {"type": "number"}}},
        ["game", "format", "table_size", "advance", "rounds", "options", "points"])},
    "capacity": obj({"min": {"type": "integer"}, "max": {"type": "integer"}}, ["min", "max"]),
    "conditions": obj({"min_rating": NULLABLE_INT, "max_rating": NULLABLE_INT, "min_games": {"type": "integer"},
                       "established": {"type": "boolean"}}, ["min_rating", "max_rating", "min_games", "established"]),
    "rated": {"type": "boolean"}, "cancel_reason": {"type": ["string", "null"]},
}, ["id", "name", "status", "starts_at", "checkin_opens_at", "players", "stages", "capacity", "conditions",
    "rated", "cancel_reason"])
TOURNAMENT_DETAIL = {
    "type": "object", "required": [*TOURNAMENT["required"], "standings", "rounds"],
    "properties": {
        **TOURNAMENT["properties"],
        "standings": {"type": "array", "items": obj({
            "place": {"type": "integer", "minimum": 1}, "username": STRING, "points": {"type": "number"},
            "status": {"enum": ["registered", "checked_in", "playing", "waiting", "out", "done"]}},
            ["place", "username", "points", "status"])},
        "rounds": {"type": "array", "items": obj({
            "stage": {"type": "integer", "minimum": 0}, "round": {"type": "integer", "minimum": 0},
            "final": {"type": "boolean"}, "byes": {"type": "array", "items": STRING},
            "tables": {"type": "array", "items": obj({
                "id": nullable(INTEGER_ID), "seats": {"type": "array", "items": {"type": ["string", "null"]}},
                "status": {"enum": [*TABLE_STATUSES, "seating"]}, "outcome": nullable(ref("Outcome"))},
                ["id", "seats", "status", "outcome"])}},
            ["stage", "round", "final", "byes", "tables"])},
    },
    "additionalProperties": False,
}
TOURNAMENTS = obj({part: {"type": "array", "items": ref("Tournament")} for part in ("upcoming", "running", "finished")},
                  ["upcoming", "running", "finished"])
ENTRY = obj({"id": INTEGER_ID, "username": STRING,
             "entry": {"enum": ["registered", "checked_in", "withdrawn", "in", "out", "no_show", "removed"]}},
            ["id", "username", "entry"])
ME = obj({"status": {"enum": ["waiting", "playing", "out", "done"]}, "table": nullable(INTEGER_ID)},
         ["status", "table"])


# -- what the requests look like ---------------------------------------------------

def option_schema(option) -> dict:
    if option.kind == "bool":
        return {"type": "boolean"}
    if option.kind == "int":
        schema: dict[str, Any] = {"type": "integer"}
        if option.min is not None:
            schema["minimum"] = option.min
        if option.max is not None:
            schema["maximum"] = option.max
        return schema
    return {"enum": list(option.choices)}


def create_table_body(game) -> dict:
    """``POST /api/tables/`` for one game: its seat counts, bot levels and options."""
    engine = game.engine
    return obj({
        "game": {"const": game.slug},
        "seats": {"type": "integer", "minimum": engine.min_seats, "maximum": engine.max_seats},
        "bots": {"type": "integer", "minimum": 0, "maximum": engine.max_seats - 1,
                 "description": "at most seats - 1"},
        "bot_level": {"enum": list(game.bot_levels)},
        "options": obj({option.name: option_schema(option) for option in engine.options},
                       description="Left out: the defaults. turn_seconds 0 (no timer) only with private true."),
        "private": {"type": "boolean"}, "rated": {"type": "boolean"},
        "title": {"type": "string", "maxLength": 80,
                  "description": "no control or invisible formatting characters (Unicode Cc, Cf, line separators)"},
        "salt": {"oneOf": [{"type": "null"}, SALT]}, "spectators_chat": {"type": "boolean"},
    }, ["game", "seats"], title=f"CreateTable_{game.slug}")


def tournament_body(games: list) -> dict:
    stage = obj({
        "game": {"enum": [game.slug for game in games]}, "format": {"enum": ["elimination", "swiss"]},
        "table_size": {"type": "integer"}, "advance": NULLABLE_INT, "rounds": NULLABLE_INT,
        "options": {"type": "object", "description": "the game's table options (a turn timer is required)"},
        "points": {"type": ["array", "null"], "items": {"type": "number", "minimum": 0, "maximum": 1000}},
    }, ["game", "format", "table_size"],
        description="advance: required for elimination (1 ≤ advance < table_size) and for a Swiss stage "
                    "before another; rounds: Swiss only, 1–15; points: one per place, never increasing")
    return obj({
        "name": {"type": "string", "minLength": 1, "maxLength": 80},
        "starts_at": {"type": "string", "format": "date-time", "description": "with a time zone, in the future"},
        "stages": {"type": "array", "minItems": 1, "maxItems": 5, "items": stage},
        "capacity": obj({"min": {"type": "integer", "minimum": 2, "maximum": 1024},
                         "max": {"type": "integer", "minimum": 2, "maximum": 1024}}),
        "conditions": {"oneOf": [{"type": "null"}, obj({
            "min_rating": NULLABLE_INT, "max_rating": NULLABLE_INT,
            "min_games": {"type": ["integer", "null"], "minimum": 0}, "established": {"type": "boolean"}})]},
        "rated": {"type": "boolean"},
    }, ["name", "starts_at", "stages"])


EMPTY_BODY = obj({}, description="nothing, or {}: any field is refused")


# -- the document --------------------------------------------------------------------

def json_content(schema: dict) -> dict:
    return {"application/json": {"schema": schema}}


ERRORS = {
    400: "Bad request: not strict JSON, not an object, an unknown field, a wrong type or value",
    401: "No token, or a wrong or revoked one",
    403: "Forbidden",
    404: "No such thing",
    405: "Method not allowed (empty body, with an Allow header)",
    409: "Illegal now",
    429: "Over a limit (Retry-After when known)",
}


# The HTTP doors answer each refusal code with one status (pigparlor/api/views.py, STATUS).
ERROR_BY_STATUS = {400: "BadRequest", 403: "Forbidden", 404: "NotFound", 409: "Illegal", 429: "RateLimited"}
ERROR_CODES_BY_STATUS = {400: ["bad_request"], 403: ["forbidden"], 404: ["not_found"], 409: ["illegal", "stale"],
                         429: ["rate_limited"]}


def error_for(status: int) -> dict:
    return {**ERROR, "properties": {**ERROR["properties"], "code": {"enum": ERROR_CODES_BY_STATUS[status]}},
            "description": f"A refusal with HTTP {status}: it changed nothing."}


def answers(ok: dict, *errors: int) -> dict:
    """The responses of an operation: ``ok`` ({status: (description, schema)}) and these error statuses."""
    responses: dict[str, Any] = {str(status): {"description": text, "content": json_content(schema)}
                                 for status, (text, schema) in ok.items()}
    for status in errors:
        if status == 401:
            responses["401"] = {"description": ERRORS[401], "content": json_content(ref("Unauthorized")),
                                "headers": {"WWW-Authenticate": {"schema": {"const": "Bearer"}}}}
        elif status == 405:
            responses["405"] = {"description": ERRORS[405],
                                "headers": {"Allow": {"schema": STRING, "required": True}}}
        else:
            response: dict[str, Any] = {"description": ERRORS[status],
                                        "content": json_content(ref(ERROR_BY_STATUS[status]))}
            if status == 404:
                response["description"] += (": `not_found`; a path that is no route at all (an id that is not "
                                            "digits, such as -1) gets the site's HTML page")
                response["content"]["text/html"] = {"schema": STRING}
            if status == 429:
                response["headers"] = {"Retry-After": {"schema": {"type": "string", "pattern": "^[0-9]+$"}}}
            responses[str(status)] = response
    return responses


def operation(operation_id: str, summary: str, responses: dict, *, body: dict | None = None,
              body_required: bool = True, public: bool = False) -> dict:
    found: dict[str, Any] = {"operationId": operation_id, "summary": summary, "responses": responses}
    if body is not None:
        found["requestBody"] = {"required": body_required, "content": json_content(body)}
    if public:
        found["security"] = [{}]
    return found


TABLE_ID = {"name": "table_id", "in": "path", "required": True, "schema": INTEGER_ID}
TOURNAMENT_ID = {"name": "tournament_id", "in": "path", "required": True, "schema": INTEGER_ID}


def openapi() -> dict:
    """The OpenAPI 3.1 document of every HTTP door under /api/."""
    games = sorted(all_games(), key=lambda game: game.slug)
    entry = answers({200: ("The entry", ref("Entry"))}, 400, 401, 403, 404, 405, 409)
    paths = {
        "/api/tables/": {"post": operation(
            "createTable", "Open a table: you take seat 0, bots the last `bots` seats",
            answers({201: ("Created", ref("CreatedTable"))}, 400, 401, 405, 429),
            body={"oneOf": [ref(f"CreateTable_{game.slug}") for game in games]})},
        "/api/tables/{table_id}/": {"parameters": [TABLE_ID], "get": operation(
            "getTable", "A table: seats, status, version, outcome",
            answers({200: ("The table", ref("Table"))}, 401, 403, 404, 405))},
        "/api/tables/{table_id}/join/": {"parameters": [TABLE_ID], "post": operation(
            "joinTable", "Take the first free seat",
            answers({200: ("Seated", ref("Joined"))}, 400, 401, 403, 404, 405, 409, 429),
            body=obj({"invite_code": {"type": ["string", "null"]}, "salt": {"oneOf": [{"type": "null"}, SALT]}}),
            body_required=False)},
        "/api/tables/{table_id}/leave/": {"parameters": [TABLE_ID], "post": operation(
            "leaveTable", "Give up your seat (the body is not read)",
            answers({200: ("The table as GET gives it", ref("Table"))}, 401, 403, 404, 405, 409))},
        "/api/tables/{table_id}/rematch/": {"parameters": [TABLE_ID], "post": operation(
            "rematchTable", "Play a finished table again",
            answers({201: ("The rematch, opened now", ref("Rematch")),
                     200: ("The rematch, which already existed: your seat there", ref("Rematch"))},
                    400, 401, 403, 404, 405, 409, 429),
            body=EMPTY_BODY, body_required=False)},
        "/api/tables/{table_id}/replay/": {"parameters": [TABLE_ID], "get": {
            **operation("getReplay", "A table's seed, commitment and action log, once it is over",
                        answers({200: ("The replay", ref("Replay"))}, 401, 403, 404, 405)),
            "security": [{}, {"token": []}, {"session": []}]}},
        "/api/players/{username}/": {"parameters": [
            {"name": "username", "in": "path", "required": True, "schema": {"type": "string", "pattern": "^[^/]+$"}}],
            "get": operation("getPlayer", "A player's (or a bot's) ratings",
                             answers({200: ("The player", ref("Player"))}, 401, 404, 405))},
        "/api/leaderboard/{game}/": {"parameters": [
            {"name": "game", "in": "path", "required": True, "schema": {"type": "string", "pattern": "^[^/]+$"}}],
            "get": operation("getLeaderboard", "The top 100 established players of a game",
                             answers({200: ("The leaderboard", ref("Leaderboard"))}, 401, 404, 405))},
        "/api/tournaments/": {
            "get": operation("listTournaments", "Upcoming, running and the latest 50 finished tournaments",
                             answers({200: ("The tournaments", ref("Tournaments"))}, 401, 405)),
            "post": operation("createTournament", "Create a tournament (staff tokens only)",
                              answers({201: ("Created", ref("Tournament"))}, 400, 401, 403, 405),
                              body=ref("CreateTournament"))},
        "/api/tournaments/{tournament_id}/": {"parameters": [TOURNAMENT_ID], "get": operation(
            "getTournament", "A tournament with its standings and rounds",
            answers({200: ("The tournament", ref("TournamentDetail"))}, 401, 404, 405))},
        "/api/tournaments/{tournament_id}/me/": {"parameters": [TOURNAMENT_ID], "get": operation(
            "getTournamentMe", "Your own status in a tournament",
            answers({200: ("Your status", ref("TournamentMe"))}, 401, 404, 405))},
        "/api/schema/": {"get": operation("getSchema", "This document", {"200": {
            "description": "OpenAPI 3.1", "content": json_content({"type": "object", "required": ["openapi"]})}},
            public=True)},
        "/api/schema/socket/": {"get": operation("getSocketSchema", "The JSON Schema of the table socket's messages", {
            "200": {"description": "JSON Schema 2020-12",
                    "content": json_content({"type": "object", "required": ["$schema", "$defs"]})}}, public=True)},
    }
    for door, verb in (("register", "Register"), ("withdraw", "Withdraw"), ("checkin", "Check in")):
        paths[f"/api/tournaments/{{tournament_id}}/{door}/"] = {"parameters": [TOURNAMENT_ID], "post": operation(
            f"tournament{verb.replace(' ', '')}", f"{verb} (the body must be empty or {{}})", entry,
            body=EMPTY_BODY, body_required=False)}
    schemas = {
        "Error": ERROR, "Unauthorized": UNAUTHORIZED,
        **{name: error_for(status) for status, name in ERROR_BY_STATUS.items()}, "StillPlayed": STILL_PLAYED, "Outcome": OUTCOME,
        "Standing": STANDING, "Seat": SEAT, "Table": TABLE, "CreatedTable": CREATED, "Joined": JOINED,
        "Rematch": REMATCH, "Replay": REPLAY, "Player": PLAYER, "Leaderboard": LEADERBOARD,
        "Tournament": TOURNAMENT, "TournamentDetail": TOURNAMENT_DETAIL, "Tournaments": TOURNAMENTS,
        "Entry": ENTRY, "TournamentMe": ME, "CreateTournament": tournament_body(games),
        **{f"CreateTable_{game.slug}": create_table_body(game) for game in games},
    }
    # The replay's 409 carries the commitment.
    paths["/api/tables/{table_id}/replay/"]["get"]["responses"]["409"] = {
        "description": "Still being played, or never started", "content": json_content(ref("StillPlayed"))}
    return {
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "info": {"title": "Pig Parlor JSON API", "version": "1",
                 "description": "Tables, ratings and tournaments over HTTP (docs/api.md). Bodies are strict JSON "
                                "in UTF-8 (no NaN or Infinity, nesting at most 10 deep, at most 2.5 MB); "
                                "nothing is coerced. The table socket's messages: /api/schema/socket/."},
        "servers": [{"url": "/"}],
        "security": [{"token": []}],
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "token": {"type": "http", "scheme": "bearer",
                          "description": "A personal API token (pp_…) from your profile or `manage.py api_token`"},
                "session": {"type": "apiKey", "in": "cookie", "name": "sessionid",
                            "description": "A signed-in browser (only where named)"},
            },
        },
    }


# -- the table socket ----------------------------------------------------------------

def _message(kind: str, properties: dict, required=(), *, extra: bool = False, description: str = "") -> dict:
    schema = obj({"type": {"const": kind}, **properties}, ["type", *required], extra=extra)
    if description:
        schema["description"] = description
    return schema


ACTION = {"type": "object", "required": ["type"], "properties": {"type": STRING},
          "description": "One of the state's `legal` actions, exactly (JSON types count)"}


def socket_schema() -> dict:
    """The JSON Schema (2020-12) of every message on ``/ws/api/tables/<id>/``, both ways.

    ``#/$defs/ClientMessage`` is what the server reads (anything else is ``bad_request``);
    ``#/$defs/ServerMessage`` is every frame it sends. Messages the server reads
    without checking their other fields (act, snapshot, pong, salt) allow others."""
    from pigparlor.moderation.reports import REASONS

    outcome = {**OUTCOME, "description": "as in GET /api/tables/<id>/"}
    client = {
        "Act": _message("act", {
            "version": {"type": "integer", "description": "the version of the state you answer: a JSON integer "
                                                          "(17, not 17.0, true or \"17\")"},
            "action": {"$ref": "#/$defs/Action"}}, ["version", "action"], extra=True),
        "Snapshot": _message("snapshot", {}, extra=True, description="send me the current state again"),
        "Pong": _message("pong", {"id": {"type": "integer"}}, ["id"], extra=True,
                         description="the answer to a ping, at once (its id)"),
        "Salt": _message("salt", {"salt": SALT}, ["salt"], extra=True,
                         description="your seat's share of the deal, before the start"),
        "Chat": _message("chat", {"text": {
            "type": "string", "pattern": "\\S",
            "description": "1 to 200 characters once trimmed, one line, no control or invisible characters"}},
            ["text"]),
        "Mute": _message("mute", {"username": STRING}, ["username"]),
        "Unmute": _message("unmute", {"username": STRING}, ["username"]),
        "Report": _message("report", {"username": STRING, "reason": {"enum": list(REASONS)},
                                      "comment": {"type": "string", "maxLength": 500},
                                      "line": {"type": "integer", "description": "a chat line's id in this room"}},
                           ["username", "reason"]),
    }
    server = {
        "State": _message("state", {
            "version": {"type": "integer", "minimum": 0}, "seat": NULLABLE_INT, "status": {"enum": TABLE_STATUSES},
            "view": {"type": ["object", "null"], "description": "what this seat may see (the game's engine); "
                                                              "null before the start"},
            "legal": {"type": "array", "items": {"$ref": "#/$defs/Action"},
                      "description": "every action you may send now; empty for spectators"},
            "deadline_ms": {**NULLABLE_INT, "description": "epoch ms when the clock acts; null before the "
                                                           "start and after the end"},
            "commitment": STRING, "outcome": {"$ref": "#/$defs/Outcome"},
            "reason": {"type": "string", "description": "why a moderator closed the table"}},
            ["version", "seat", "status", "view", "legal", "deadline_ms", "commitment"],
            description="on connect and after every change; with `outcome` once the game is over (the final "
                        "state)"),
        "Error": {**ERROR, "description": "a refused message; it changed nothing"},
        "Ping": _message("ping", {"id": {"type": "integer"}}, ["id"],
                         description="real-time games: answer {\"type\": \"pong\", \"id\"} at once"),
        "Salted": _message("salted", {"salt": SALT}, ["salt"]),
        "ChatLine": _message("chat", {"id": {"type": "integer"}, "from": STRING, "name": STRING, "text": STRING,
                                      "at": {"type": "integer", "description": "epoch ms"},
                                      "removed": {"const": True}}, ["id", "from", "name", "text", "at"]),
        "ChatStatus": _message("chat_status", {"timeout_until": NULLABLE_INT, "message": STRING},
                               ["timeout_until", "message"]),
        "Mutes": _message("mutes", {"muted": {"type": "array", "items": STRING}}, ["muted"]),
        "ReportReceived": _message("report", {"id": {"type": "integer"}, "status": {"const": "received"}},
                                   ["id", "status"]),
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "/api/schema/socket/",
        "title": "Pig Parlor table socket (/ws/api/tables/<id>/)",
        "description": "One text frame of strict JSON per message, at most 4 KB (docs/api.md). "
                       "Validate a message with #/$defs/ClientMessage or #/$defs/ServerMessage. "
                       "Connect with Authorization: Bearer <token> (a spectator of a private table adds "
                       "?invite=<code>). Close codes: 4401 the credentials ended (after a forbidden error), "
                       "4403 a private table you no longer may watch, 4429 too many sockets (after a "
                       "rate_limited error), 1009 a message over 64 KB, 1007 a text frame that is not UTF-8.",
        "$defs": {
            "ClientMessage": {"oneOf": [{"$ref": f"#/$defs/{name}"} for name in client]},
            "ServerMessage": {"oneOf": [{"$ref": f"#/$defs/{name}"} for name in server]},
            "Action": ACTION, "Outcome": outcome,
            **client, **server,
        },
    }
