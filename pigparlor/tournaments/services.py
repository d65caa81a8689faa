"""Every write to a tournament (style.md habit 7): each one transaction under
the tournament's row lock, refusing with the tables' error codes
(``TableError``: ``bad_request`` 400, ``forbidden`` 403, ``not_found`` 404,
``illegal`` 409) and changing nothing when it refuses.

``advance`` is the tournaments' one door for progress: the clock calls it at
``starts_at`` and the tables' ``table_finished`` signal after a tournament
table's last move. It is idempotent — any process may call it any time; two
calls at once take turns on the row lock and the second finds nothing to do.
``advance`` only *plans* a round (who sits where: ``TournamentTable`` rows);
``seat_next_table`` then creates the real tables one short transaction at a
time, so seating 128 tables never holds the process's database thread long.
"""
from __future__ import annotations

import logging
from dataclasses import replace
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.core.registry import UnknownGame, get_game
from pigparlor.accounts.guests import TOURNAMENT_REFUSAL, is_guest
from pigparlor.pwa import tournament_pushes
from pigparlor.ratings import queries
from pigparlor.ratings.models import Rating
from pigparlor.ratings.scale import provisional
from pigparlor.tables import inputs
from pigparlor.tables import services as tables
from pigparlor.tables.botdriver import STAND_IN
from pigparlor.tables.errors import BAD_REQUEST, FORBIDDEN, ILLEGAL, NOT_FOUND, RATE_LIMITED, TableError
from pigparlor.tables.models import ABORTED
from pigparlor.tables.models import FINISHED as TABLE_FINISHED
from pigparlor.tournaments import announce, pairing, spec
from pigparlor.tournaments.models import (
    CANCELLED,
    ELIMINATION,
    FINISHED,
    RUNNING,
    SWISS,
    UPCOMING,
    Entry,
    Result,
    Round,
    Stage,
    Tournament,
    TournamentTable,
)
from pigparlor.tournaments.standings import current_round, open_tables, standings, swiss_order

log = logging.getLogger(__name__)

ACTIVE = (Entry.REGISTERED, Entry.CHECKED_IN)
# The exit rank of a player who withdrew or was removed: below everyone who finished that round.
LEFT_EARLY = 999


def checkin_window() -> timedelta:
    return timedelta(minutes=settings.PIGPARLOR_TOURNAMENT_CHECKIN_MINUTES)


def _locked(tournament_id) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError, TypeError):
        raise TableError(NOT_FOUND, "no such tournament") from None


# -- creating ----------------------------------------------------------------------

@transaction.atomic
def create_tournament(*, name, starts_at, tournament_spec: spec.TournamentSpec, created_by=None,
                      series=None) -> Tournament:
    """A new tournament open for registration until ``starts_at``."""
    name = clean_name(name)
    made = spec_to_rows(Tournament(name=name, starts_at=starts_at, created_by=created_by, series=series),
                        tournament_spec)
    announce.changed(made)
    made.save(update_fields=["revision"])
    return made


def clean_name(name) -> str:
    """A tournament's name, as players will read it."""
    name = inputs.visible_text(name, "name", Tournament._meta.get_field("name").max_length).strip()
    if not name:
        raise TableError(BAD_REQUEST, "name must not be empty")
    return name


def spec_to_rows(tournament: Tournament, tournament_spec: spec.TournamentSpec) -> Tournament:
    tournament.min_players, tournament.max_players = tournament_spec.min_players, tournament_spec.max_players
    tournament.rated = tournament_spec.rated
    tournament.min_rating, tournament.max_rating = tournament_spec.min_rating, tournament_spec.max_rating
    tournament.min_games, tournament.established = tournament_spec.min_games, tournament_spec.established
    tournament.save()
    Stage.objects.bulk_create(
        Stage(tournament=tournament, index=index, game=each.game, options=each.options, table_size=each.table_size,
              format=each.format, advance=each.advance, rounds=each.rounds, points=each.points)
        for index, each in enumerate(tournament_spec.stages))
    return tournament


@transaction.atomic
def host_tournament(*, name, starts_at, tournament_spec: spec.TournamentSpec, host,
                    rated_requested: bool = False) -> Tournament:
    """A tournament a signed-in player hosts (the "Create a tournament" page).
    A player's is casual (``rated_requested`` asks staff to make it rated),
    starts within ``PIGPARLOR_TOURNAMENT_HOSTED_AHEAD_DAYS``, and they host at
    most ``PIGPARLOR_TOURNAMENTS_PER_DAY`` in any 24 hours; staff host rated
    ones and have no limit."""
    now = timezone.now()
    if starts_at <= now:
        raise TableError(BAD_REQUEST, "the start must be in the future")
    if not host.is_staff:
        # One player's creations take turns, so two at once cannot both slip under the limit.
        get_user_model().objects.select_for_update().filter(pk=host.pk).first()
        ahead = timedelta(days=settings.PIGPARLOR_TOURNAMENT_HOSTED_AHEAD_DAYS)
        if starts_at > now + ahead:
            raise TableError(BAD_REQUEST, f"the start must be within {ahead.days} days")
        limit = settings.PIGPARLOR_TOURNAMENTS_PER_DAY
        recent = _hosted_since(host, now - timedelta(days=1))
        if len(recent) >= limit:
            wait = recent[len(recent) - limit] + timedelta(days=1) - now
            raise TableError(RATE_LIMITED, f"you have hosted {limit} tournaments in the last 24 hours: you can host "
                                           f"another in {_duration(wait)}", retry_after_s=int(wait.total_seconds()) + 1)
        tournament_spec = replace(tournament_spec, rated=False)
    made = create_tournament(name=name, starts_at=starts_at, tournament_spec=tournament_spec, created_by=host)
    if rated_requested and not made.rated:
        made.rated_requested = True
        made.save(update_fields=["rated_requested"])
    return made


def _hosted_since(user, since) -> list:
    return list(Tournament.objects.filter(created_by=user, created_at__gt=since)
                .order_by("created_at").values_list("created_at", flat=True))


def hosted_left(user) -> int | None:
    """How many more tournaments ``user`` may host now (None: staff, no limit)."""
    if user.is_staff:
        return None
    recent = _hosted_since(user, timezone.now() - timedelta(days=1))
    return max(0, settings.PIGPARLOR_TOURNAMENTS_PER_DAY - len(recent))


def _duration(span: timedelta) -> str:
    """"5 h 12 min", "40 min"."""
    minutes = max(1, -(-int(span.total_seconds()) // 60))
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if hours else f"{minutes} min"


@transaction.atomic
def edit_tournament(tournament_id, *, name, starts_at, tournament_spec: spec.TournamentSpec) -> Tournament:
    """Staff change an upcoming tournament (the admin): its name, start,
    capacity, conditions, ``rated`` and stages, all at once."""
    tournament = _locked(tournament_id)
    if tournament.status != UPCOMING:
        raise TableError(ILLEGAL, "only an upcoming tournament can be changed")
    name = clean_name(name)
    tournament.name, tournament.starts_at = name, starts_at
    if tournament_spec.rated:
        tournament.rated_requested = False
    tournament.stages.all().delete()
    spec_to_rows(tournament, tournament_spec)
    announce.changed(tournament)
    tournament.save()
    return tournament


def create_from_body(body: dict, created_by=None) -> Tournament:
    """``POST /api/tournaments/``: the API's body, checked (docs/api.md)."""
    parsed = spec.tournament(body, spec.CREATE_FIELDS)
    if "name" not in body or "starts_at" not in body:
        raise TableError(BAD_REQUEST, "send {\"name\", \"starts_at\", \"stages\"}")
    return create_tournament(name=body["name"], starts_at=spec.starts_at(body["starts_at"], timezone.now()),
                             tournament_spec=parsed, created_by=created_by)


# -- players ----------------------------------------------------------------------

def _first_game(tournament: Tournament) -> str:
    return tournament.stages.order_by("index").values_list("game", flat=True).first()


def stage_problems(tournament: Tournament) -> list[tuple[Stage, str | None]]:
    """Each stage as stored, with why it cannot be played (None if it can),
    judged as the API judges a new tournament's stages (``spec.stage``). The
    admin or the database may hold what no form would let in."""
    rows = list(tournament.stages.order_by("index"))
    judged = []
    for position, row in enumerate(rows):
        body = {name: getattr(row, name) for name in spec.STAGE_FIELDS if getattr(row, name) is not None}
        try:
            spec.stage(body, position, position == len(rows) - 1, where=f"stage {position + 1}")
            problem = None if row.index == position else f"stage {position + 1} is numbered {row.index}"
        except TableError as refusal:
            problem = refusal.message
        judged.append((row, problem))
    return judged


def unplayable(tournament: Tournament) -> str | None:
    """Why ``tournament`` cannot be played as it stands, or None."""
    judged = stage_problems(tournament)
    if not judged:
        return "it has no stages to play"
    return next((f"it cannot be played: {problem}" for _, problem in judged if problem), None)


def entry_refusal(tournament: Tournament, user) -> str | None:
    """Why ``user`` does not meet the entry conditions (in the first stage's game), or None."""
    if is_guest(user):
        return TOURNAMENT_REFUSAL
    game = _first_game(tournament)
    try:
        title = get_game(game).title
    except UnknownGame:
        return unplayable(tournament) or "this tournament's game is not available"
    skill = queries.skills_of({user.pk}, game)[user.pk]
    games = Rating.objects.filter(user=user, game=game).values_list("games", flat=True).first() or 0
    if tournament.min_rating is not None and skill.rating < tournament.min_rating:
        return f"you need a {title} rating of at least {tournament.min_rating} (yours is {skill.rating})"
    if tournament.max_rating is not None and skill.rating > tournament.max_rating:
        return f"this tournament is for {title} ratings up to {tournament.max_rating} (yours is {skill.rating})"
    if games < tournament.min_games:
        return f"you need {tournament.min_games} rated {title} games (you have {games})"
    if tournament.established and provisional(games):
        return f"you need an established {title} rating (yours is still provisional)"
    return None


def _open_for_registration(tournament: Tournament, now) -> None:
    if tournament.status == CANCELLED:
        raise TableError(ILLEGAL, "this tournament was cancelled")
    if tournament.status == FINISHED:
        raise TableError(ILLEGAL, "this tournament is over")
    if tournament.status == RUNNING or now >= tournament.starts_at:
        raise TableError(ILLEGAL, "registration closed when the tournament started")


@transaction.atomic
def register(tournament_id, user) -> Entry:
    """Enter an upcoming tournament (again, after withdrawing)."""
    tournament = _locked(tournament_id)
    _open_for_registration(tournament, timezone.now())
    entry = tournament.entries.filter(user=user).first()
    if entry is not None and entry.status in ACTIVE:
        raise TableError(ILLEGAL, "you are already registered")
    if tournament.entries.filter(status__in=ACTIVE).count() >= tournament.max_players:
        raise TableError(ILLEGAL, f"the tournament is full ({tournament.max_players} players)")
    problem = unplayable(tournament)
    if problem:
        raise TableError(ILLEGAL, f"this tournament is not open: {problem}")
    refusal = entry_refusal(tournament, user)
    if refusal:
        raise TableError(FORBIDDEN, refusal)
    rating = queries.skills_of({user.pk}, _first_game(tournament))[user.pk].rating
    if entry is None:
        entry = Entry.objects.create(tournament=tournament, user=user, rating=rating)
    else:
        entry.status, entry.rating, entry.checked_in_at = Entry.REGISTERED, rating, None
        entry.save(update_fields=["status", "rating", "checked_in_at"])
    announce.changed(tournament)
    tournament.save(update_fields=["revision"])
    return entry


def _entry(tournament: Tournament, user) -> Entry:
    entry = tournament.entries.filter(user=user).first()
    if entry is None:
        raise TableError(ILLEGAL, "you are not registered for this tournament")
    return entry


@transaction.atomic
def check_in(tournament_id, user) -> Entry:
    """I am here: during the last ``PIGPARLOR_TOURNAMENT_CHECKIN_MINUTES`` before the start.
    Checking in again changes nothing."""
    tournament = _locked(tournament_id)
    now = timezone.now()
    _open_for_registration(tournament, now)
    entry = _entry(tournament, user)
    if entry.status not in ACTIVE:
        raise TableError(ILLEGAL, "you are not registered for this tournament")
    opens = tournament.starts_at - checkin_window()
    if now < opens:
        raise TableError(ILLEGAL, f"check-in opens {settings.PIGPARLOR_TOURNAMENT_CHECKIN_MINUTES} minutes before "
                                  f"the start, at {opens.isoformat()}")
    if entry.status == Entry.REGISTERED:
        entry.status, entry.checked_in_at = Entry.CHECKED_IN, now
        entry.save(update_fields=["status", "checked_in_at"])
        announce.changed(tournament)
        tournament.save(update_fields=["revision"])
    return entry


def _between_rounds(tournament: Tournament, entry: Entry, what: str) -> None:
    """A running tournament lets a player go only while they have no table in play."""
    if entry.user_id in open_tables(tournament):
        raise TableError(ILLEGAL, f"{what} between rounds, once your table has finished")


def _drop(tournament: Tournament, entry: Entry, status: str, reason: str = "") -> None:
    """``entry`` leaves the running tournament now (its results stay)."""
    latest = current_round(tournament)
    entry.status = status
    entry.exit_stage = latest.stage.index if latest else 0
    entry.exit_round = latest.index if latest else 0
    entry.exit_rank = LEFT_EARLY
    entry.removed_reason = reason[:200]
    entry.save(update_fields=["status", "exit_stage", "exit_round", "exit_rank", "removed_reason"])


@transaction.atomic
def withdraw(tournament_id, user) -> Entry:
    """Leave a tournament: before the start, or between the rounds of a Swiss stage."""
    tournament = _locked(tournament_id)
    entry = _entry(tournament, user)
    if tournament.status == UPCOMING and entry.status in ACTIVE:
        entry.status = Entry.WITHDRAWN
        entry.save(update_fields=["status"])
    elif tournament.status == RUNNING and entry.status == Entry.IN:
        latest = current_round(tournament)
        if latest is not None and latest.stage.format != SWISS:
            raise TableError(ILLEGAL, "an elimination cannot be left once it has started")
        _between_rounds(tournament, entry, "you can withdraw")
        _drop(tournament, entry, Entry.WITHDRAWN)
    elif tournament.status in (FINISHED, CANCELLED):
        raise TableError(ILLEGAL, "this tournament is over")
    else:
        raise TableError(ILLEGAL, "you are not in this tournament")
    announce.changed(tournament)
    tournament.save(update_fields=["revision"])
    return entry


# -- staff ----------------------------------------------------------------------

@transaction.atomic
def cancel_tournament(tournament_id, reason: str) -> Tournament:
    """Staff call a tournament off; its players see ``reason``. Tables already
    playing finish as ordinary tables."""
    tournament = _locked(tournament_id)
    if tournament.status in (FINISHED, CANCELLED):
        raise TableError(ILLEGAL, "this tournament is over")
    if not isinstance(reason, str) or not reason.strip():
        raise TableError(BAD_REQUEST, "say why the tournament is cancelled: the players see the reason")
    _cancel(tournament, reason.strip())
    return tournament


@transaction.atomic
def cancel_hosted(tournament_id, user, reason: str = "") -> Tournament:
    """The host calls their tournament off before it starts; its players see why."""
    tournament = _locked(tournament_id)
    if tournament.created_by_id is None or tournament.created_by_id != getattr(user, "pk", None):
        raise TableError(FORBIDDEN, "only the tournament's host can cancel it")
    if tournament.status in (FINISHED, CANCELLED):
        raise TableError(ILLEGAL, "this tournament is over")
    if tournament.status == RUNNING or timezone.now() >= tournament.starts_at:
        raise TableError(ILLEGAL, "the tournament has started: only staff can stop it now")
    reason = inputs.visible_text(reason if isinstance(reason, str) else "", "the reason", 160).strip()
    _cancel(tournament, f"the host called it off: {reason}" if reason else "the host called it off")
    return tournament


def _cancel(tournament: Tournament, reason: str) -> None:
    tournament.status, tournament.cancel_reason, tournament.finished_at = CANCELLED, reason[:200], timezone.now()
    announce.changed(tournament)
    tournament.save(update_fields=["status", "cancel_reason", "finished_at", "revision"])
    announce.cancelled(tournament.pk, tournament.cancel_reason, list(tournament.entries.exclude(
        status__in=(Entry.WITHDRAWN, Entry.REMOVED)).values_list("user_id", flat=True)))
    TournamentTable.objects.filter(round__tournament=tournament, table__isnull=True).delete()


@transaction.atomic
def remove_player(tournament_id, user, reason: str = "") -> Entry:
    """Staff take a player out: before the start, or between rounds."""
    tournament = _locked(tournament_id)
    entry = _entry(tournament, user)
    if tournament.status == UPCOMING and entry.status in ACTIVE:
        entry.status, entry.removed_reason = Entry.REMOVED, reason[:200]
        entry.save(update_fields=["status", "removed_reason"])
    elif tournament.status == RUNNING and entry.status == Entry.IN:
        _between_rounds(tournament, entry, "a player can be removed")
        _drop(tournament, entry, Entry.REMOVED, reason)
    else:
        raise TableError(ILLEGAL, "that player is not in the tournament")
    announce.changed(tournament)
    tournament.save(update_fields=["revision"])
    return entry


# -- the one door -----------------------------------------------------------------

def advance(tournament_id) -> bool:
    """Move the tournament on as far as it can go now: start it (or cancel it)
    once ``starts_at`` has come, record finished tables, and when a round is
    complete plan the next round, the next stage, or the end. Idempotent;
    True if anything changed."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        changed = False
        for _ in range(100):  # a round can complete at once (all byes): keep going
            if not _step(tournament):
                break
            changed = True
        if changed:
            announce.changed(tournament)
            tournament.save(update_fields=["revision"])
        return changed


def _step(tournament: Tournament) -> bool:
    if tournament.status == UPCOMING:
        if timezone.now() < tournament.starts_at:
            return False
        _start(tournament)
        return True
    if tournament.status != RUNNING:
        return False
    latest = current_round(tournament)
    if latest is None or latest.finished_at is not None:
        return False
    recorded = False
    tournament_tables = list(latest.tables.select_related("table"))
    for tournament_table in tournament_tables:
        table = tournament_table.table
        if not tournament_table.recorded and table is not None and table.status in (TABLE_FINISHED, ABORTED):
            _record(latest, tournament_table)
            recorded = True
    if not all(each.recorded for each in tournament_tables):
        return recorded
    latest.finished_at = timezone.now()
    latest.save(update_fields=["finished_at"])
    _after_round(tournament, latest)
    return True


def _start(tournament: Tournament) -> None:
    """Those who did not check in are dropped; too few left, or stages that
    cannot be played (written past the forms), cancel the tournament."""
    problem = unplayable(tournament)
    if problem:
        _cancel(tournament, problem)
        return
    tournament.entries.filter(status=Entry.REGISTERED).update(status=Entry.NO_SHOW)
    players = list(tournament.entries.filter(status=Entry.CHECKED_IN))
    if len(players) < tournament.min_players:
        _cancel(tournament, f"only {len(players)} player(s) checked in; it needed {tournament.min_players}")
        return
    tournament.entries.filter(status=Entry.CHECKED_IN).update(status=Entry.IN)
    tournament.status, tournament.started_at = RUNNING, timezone.now()
    tournament.save(update_fields=["status", "started_at"])
    # As any stage begins: an elimination whose players fit one table plays it as the final.
    _enter_stage(tournament, 0)


def _in(tournament: Tournament) -> list[Entry]:
    return list(tournament.entries.filter(status=Entry.IN).select_related("user"))


def _plan(tournament: Tournament, stage: Stage, index: int, *, final: bool = False) -> Round:
    """Plan round ``index`` of ``stage`` for the players still in."""
    players = _in(tournament)
    made = Round.objects.create(tournament=tournament, stage=stage, index=index, final=final)
    engine = get_game(stage.game).engine
    if stage.format == ELIMINATION:
        sizes = pairing.split_sizes(len(players), stage.table_size, engine.min_seats, engine.max_seats)
        seated = pairing.seat_by_rating([pairing.Player(entry.user_id, entry.rating) for entry in players], sizes)
        byes: list[int] = []
    else:
        points = _stage_points(made)
        bye_counts = _bye_counts(made)
        seated, byes = pairing.swiss_round(
            [pairing.Player(entry.user_id, entry.rating, points.get(entry.pk, 0.0), bye_counts.get(entry.pk, 0))
             for entry in players], _met(made), stage.table_size)
    TournamentTable.objects.bulk_create(
        TournamentTable(round=made, index=number, players=members,
                        bots=pairing.bots_needed(len(members), engine.min_seats))
        for number, members in enumerate(seated))
    by_user = {entry.user_id: entry for entry in players}
    Result.objects.bulk_create(
        Result(round=made, entry=by_user[user_id], bye=True, points=pairing.bye_points(stage.table_size, stage.points))
        for user_id in byes)
    return made


def _stage_points(round_: Round) -> dict[int, float]:
    totals: dict[int, float] = {}
    for entry_id, points in Result.objects.filter(round__stage=round_.stage).values_list("entry_id", "points"):
        totals[entry_id] = totals.get(entry_id, 0.0) + points
    return totals


def _bye_counts(round_: Round) -> dict[int, int]:
    counts: dict[int, int] = {}
    for entry_id in Result.objects.filter(round__stage=round_.stage, bye=True).values_list("entry_id", flat=True):
        counts[entry_id] = counts.get(entry_id, 0) + 1
    return counts


def _met(round_: Round):
    earlier = TournamentTable.objects.filter(round__stage=round_.stage).exclude(round=round_)
    by_round: dict[int, list[list[int]]] = {}
    for round_id, players in earlier.values_list("round_id", "players"):
        by_round.setdefault(round_id, []).append(players)
    return pairing.meetings(list(by_round.values()))


def _record(round_: Round, tournament_table: TournamentTable) -> None:
    """A finished table's places (among its humans; leavers last) and points."""
    table = tournament_table.table
    seats = list(table.seat_set.order_by("index"))
    human = [seat.user_id is not None and not seat.bot_kind for seat in seats]
    if table.status == TABLE_FINISHED and table.outcome:
        left_seats = set(table.outcome.get("left") or ())
        ranks = list(table.outcome["ranks"])
    else:  # aborted: nobody finished
        left_seats, ranks = set(range(len(seats))), [1] * len(seats)
    left = [seat.index in left_seats for seat in seats]
    places = pairing.human_places(ranks, left, human)
    humans = [(seat, place) for seat, place in zip(seats, places) if place is not None]
    stage = round_.stage
    points = pairing.table_points([place for _, place in humans], stage.table_size, stage.points)
    entries = {entry.user_id: entry for entry in round_.tournament.entries.filter(
        user_id__in=[seat.user_id for seat, _ in humans])}
    Result.objects.bulk_create(
        Result(round=round_, entry=entries[seat.user_id], table=tournament_table, place=place, points=awarded,
               left=seat.index in left_seats)
        for (seat, place), awarded in zip(humans, points) if seat.user_id in entries)
    if stage.format == ELIMINATION and not round_.final:
        in_order = sorted(((place, -entries[seat.user_id].rating, seat.user_id) for seat, place in humans
                           if seat.user_id in entries and entries[seat.user_id].status == Entry.IN))
        going = pairing.goes_on(len(humans), stage.advance)
        for place, _, user_id in in_order[going:]:
            entry = entries[user_id]
            entry.status, entry.exit_stage, entry.exit_round, entry.exit_rank = (
                Entry.OUT, stage.index, round_.index, place)
            entry.save(update_fields=["status", "exit_stage", "exit_round", "exit_rank"])
    tournament_table.recorded = True
    tournament_table.save(update_fields=["recorded"])


def _after_round(tournament: Tournament, finished: Round) -> None:
    stage = finished.stage
    last = not tournament.stages.filter(index__gt=stage.index).exists()
    if stage.format == ELIMINATION:
        if finished.final:
            _finish(tournament)
            return
        _elimination_next(tournament, stage, last, finished.index + 1)
        return
    if finished.index + 1 < stage.rounds:
        _plan(tournament, stage, finished.index + 1)
        return
    if last:
        _finish(tournament)
        return
    players = _in(tournament)
    for rank, (entry, _) in enumerate(swiss_order(tournament, stage.index, players), start=1):
        if rank > stage.advance:
            entry.status, entry.exit_stage, entry.exit_round, entry.exit_rank = (
                Entry.OUT, stage.index, finished.index, rank)
            entry.save(update_fields=["status", "exit_stage", "exit_round", "exit_rank"])
    _enter_stage(tournament, stage.index + 1)


def _enter_stage(tournament: Tournament, index: int) -> None:
    stage = tournament.stages.get(index=index)
    last = not tournament.stages.filter(index__gt=index).exists()
    if stage.format == SWISS:
        _plan(tournament, stage, 0)
    else:
        _elimination_next(tournament, stage, last, 0)


def _elimination_next(tournament: Tournament, stage: Stage, last: bool, index: int) -> None:
    count = len(_in(tournament))
    engine = get_game(stage.game).engine
    tables_needed = len(pairing.split_sizes(count, stage.table_size, engine.min_seats, engine.max_seats))
    step = pairing.elimination_step(count, tables_needed, last, index)
    if step == pairing.ROUND:
        _plan(tournament, stage, index)
    elif step == pairing.FINAL:
        _plan(tournament, stage, index, final=True)
    elif step == pairing.NEXT_STAGE:
        _enter_stage(tournament, stage.index + 1)
    else:
        _finish(tournament)


def _finish(tournament: Tournament) -> None:
    tournament.status, tournament.finished_at = FINISHED, timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    for standing in standings(tournament):
        Entry.objects.filter(pk=standing.entry.pk).update(place=standing.place)


def seat_next_table() -> bool:
    """Create the real table of one planned tournament table (the oldest), in
    its own transaction; False if none is waiting. Idempotent under the
    planned row's lock."""
    waiting = (TournamentTable.objects.filter(table__isnull=True, round__tournament__status=RUNNING)
               .order_by("pk").values_list("pk", flat=True).first())
    if waiting is None:
        return False
    seat_table(waiting)
    return True


@transaction.atomic
def seat_table(tournament_table_id: int) -> None:
    """Make one planned table, under the tournament's lock (taken first, as
    ``advance`` takes it, so the two never wait on each other in a circle)."""
    tournament_id = (TournamentTable.objects.filter(pk=tournament_table_id)
                     .values_list("round__tournament_id", flat=True).first())
    if tournament_id is None:
        return
    tournament = _locked(tournament_id)
    planned = (TournamentTable.objects.select_for_update().select_related("round__stage")
               .filter(pk=tournament_table_id, table__isnull=True).first())
    if planned is None or tournament.status != RUNNING:
        return
    stage = planned.round.stage
    users = {entry.user_id: entry.user for entry in tournament.entries.filter(
        user_id__in=planned.players, status=Entry.IN).select_related("user")}
    # Planned players cannot leave before their table is made (withdraw and
    # remove wait for it to finish), so everyone planned is still in.
    players = [users[user_id] for user_id in planned.players]
    bots = pairing.bots_needed(len(players), get_game(stage.game).engine.min_seats)
    round_name = "final" if planned.round.final else f"round {planned.round.index + 1}"
    # No host (nobody's table limits apply); the players sit in the planned order and it starts at once.
    table = tables.create_table(host=None, players=players, game=stage.game, seats=len(players) + bots, bots=bots,
                                options=stage.options, rated=tournament.rated, bot_kind=STAND_IN,
                                title=f"{tournament.name} · {round_name}"[:80])
    planned.table = table
    planned.save(update_fields=["table"])
    announce.table_ready(tournament.pk, table.pk, planned.players)
    tournament_pushes.table_ready(table, planned.players)  # to their phones too (pigparlor/pwa)
    announce.changed(tournament)
    tournament.save(update_fields=["revision"])

