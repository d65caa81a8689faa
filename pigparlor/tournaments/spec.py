"""Reading a tournament's description (the API's create body, a series'
template) into checked values. Every refusal is a ``bad_request`` naming the
field; nothing is coerced (pigparlor.tables.inputs)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.core import IllegalAction
from games.core.registry import UnknownGame, get_game
from pigparlor.tables import inputs
from pigparlor.tables.errors import BAD_REQUEST, TableError
from pigparlor.tournaments.models import ELIMINATION, SWISS

CREATE_FIELDS = ("name", "starts_at", "stages", "capacity", "conditions", "rated")
TEMPLATE_FIELDS = ("stages", "capacity", "conditions", "rated")
STAGE_FIELDS = ("game", "format", "table_size", "advance", "rounds", "options", "points")
CONDITION_FIELDS = ("min_rating", "max_rating", "min_games", "established")
MAX_STAGES = 5
MAX_SWISS_ROUNDS = 15
MAX_PLAYERS = 1024


@dataclass(frozen=True)
class StageSpec:
    game: str
    format: str
    table_size: int
    advance: int | None
    rounds: int | None
    options: dict
    points: list | None


@dataclass(frozen=True)
class TournamentSpec:
    stages: tuple[StageSpec, ...]
    min_players: int
    max_players: int
    rated: bool
    min_rating: int | None
    max_rating: int | None
    min_games: int
    established: bool


def refuse(message: str):
    raise TableError(BAD_REQUEST, message)


def starts_at(value, now: datetime) -> datetime:
    """An ISO 8601 moment with its time zone (``2026-12-01T18:00:00Z``), in the future."""
    if not isinstance(value, str):
        refuse("starts_at must be an ISO 8601 date and time, such as \"2026-12-01T18:00:00Z\"")
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00") if value.endswith("Z") else value)
    except ValueError:
        refuse("starts_at must be an ISO 8601 date and time, such as \"2026-12-01T18:00:00Z\"")
    if moment.tzinfo is None:
        refuse("starts_at needs a time zone (end it with Z for UTC)")
    if moment <= now:
        refuse("starts_at is in the past")
    return moment


def _optional_whole(body: dict, name: str, what: str) -> int | None:
    value = body.get(name)
    return None if value is None else inputs.whole_number(value, what)


def stage(body, index: int, last: bool, where: str | None = None) -> StageSpec:
    """One stage, checked; ``where`` names it in refusals (``stages[0]`` by default, as the API's body does)."""
    where = where or f"stages[{index}]"
    if not isinstance(body, dict):
        refuse(f"{where} must be a JSON object")
    inputs.fields(body, STAGE_FIELDS)
    for required in ("game", "format", "table_size"):
        if required not in body:
            refuse(f"{where} needs {required!r}")
    if not isinstance(body["game"], str):
        refuse(f"{where}.game must be a game's name, such as \"pigpile\"")
    try:
        game = get_game(body["game"])
    except UnknownGame:
        refuse(f"{where}: unknown game {body['game']!r}")
    engine = game.engine
    if body["format"] not in (ELIMINATION, SWISS):
        refuse(f"{where}.format must be \"elimination\" or \"swiss\"")
    table_size = inputs.whole_number(body["table_size"], f"{where}.table_size")
    if not engine.min_seats <= table_size <= engine.max_seats:
        refuse(f"{where}: {engine.title} cannot seat {table_size}: it takes {engine.min_seats} to "
               f"{engine.max_seats} players")
    options = body.get("options", {})
    if not isinstance(options, dict):
        refuse(f"{where}.options must be a JSON object")
    try:
        options = engine.clean_options(options)
    except IllegalAction as refusal:
        refuse(f"{where}: {refusal.reason}")
    if options.get("turn_seconds") == 0:
        refuse(f"{where}: a tournament table needs a turn timer (turn_seconds 0 is for private tables)")
    advance = _optional_whole(body, "advance", f"{where}.advance")
    rounds = _optional_whole(body, "rounds", f"{where}.rounds")
    if body["format"] == ELIMINATION:
        if advance is None:
            refuse(f"{where}: an elimination stage needs \"advance\" (how many of each table go on)")
        if rounds is not None:
            refuse(f"{where}: an elimination stage plays until one table is left: leave \"rounds\" out")
    else:
        if rounds is None or not 1 <= rounds <= MAX_SWISS_ROUNDS:
            refuse(f"{where}: a Swiss stage needs \"rounds\", 1 to {MAX_SWISS_ROUNDS}")
        if advance is None and not last:
            refuse(f"{where}: a Swiss stage before another needs \"advance\" (how many go on)")
    if advance is not None:
        if advance < 1:
            refuse(f"{where}.advance must be at least 1")
        if body["format"] == ELIMINATION and advance >= table_size:
            refuse(f"{where}.advance must be less than the table size ({table_size})")
    points = body.get("points")
    if points is not None:
        if (not isinstance(points, list) or len(points) != table_size
                or any(isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1000
                       for value in points)):
            refuse(f"{where}.points must list {table_size} numbers (0 to 1000), first place first")
        if any(points[place] < points[place + 1] for place in range(table_size - 1)):
            refuse(f"{where}.points must not give a better place fewer points")
    return StageSpec(game.slug, body["format"], table_size, advance, rounds, options, points)


def stages(value) -> tuple[StageSpec, ...]:
    """A tournament's stages, in order: 1 to ``MAX_STAGES`` of them."""
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_STAGES:
        refuse(f"stages must be a list of 1 to {MAX_STAGES} stages")
    return tuple(stage(each, index, index == len(value) - 1) for index, each in enumerate(value))


def capacity(value) -> tuple[int, int]:
    """``{"min", "max"}`` players (2 and 64 by default)."""
    if not isinstance(value, dict):
        refuse("capacity must be {\"min\", \"max\"}")
    inputs.fields(value, ("min", "max"))
    low = inputs.whole_number(value.get("min", 2), "capacity.min")
    high = inputs.whole_number(value.get("max", 64), "capacity.max")
    if not 2 <= low <= high <= MAX_PLAYERS:
        refuse(f"capacity must have 2 <= min <= max <= {MAX_PLAYERS}")
    return low, high


def conditions(value) -> tuple[int | None, int | None, int, bool]:
    """The entry conditions: (min_rating, max_rating, min_games, established)."""
    value = {} if value is None else value  # null is "none"; false, 0, "" and [] are wrong types
    if not isinstance(value, dict):
        refuse("conditions must be a JSON object")
    inputs.fields(value, CONDITION_FIELDS)
    min_rating = _optional_whole(value, "min_rating", "conditions.min_rating")
    max_rating = _optional_whole(value, "max_rating", "conditions.max_rating")
    if min_rating is not None and max_rating is not None and min_rating > max_rating:
        refuse("conditions.min_rating is above conditions.max_rating")
    min_games = _optional_whole(value, "min_games", "conditions.min_games") or 0
    if min_games < 0:
        refuse("conditions.min_games must not be negative")
    established = inputs.flag(value.get("established", False), "conditions.established")
    return min_rating, max_rating, min_games, established


def tournament(body: dict, fields: tuple[str, ...] = TEMPLATE_FIELDS) -> TournamentSpec:
    """The stages, capacity, conditions and ``rated`` of a create body or a template."""
    if not isinstance(body, dict):
        refuse("the body must be a JSON object")
    inputs.fields(body, fields)
    parsed = stages(body.get("stages"))
    low, high = capacity(body.get("capacity", {}))
    min_rating, max_rating, min_games, established = conditions(body.get("conditions"))
    rated = inputs.flag(body.get("rated", True), "rated")
    return TournamentSpec(parsed, low, high, rated, min_rating, max_rating, min_games, established)
