"""Reading a tournament: standings, a player's status, the rounds. Nothing here writes.

Order (docs/tournaments.md "Standings"): players still in come first — by
the final table's places, or the Swiss stage's points then Buchholz (the
points of everyone they sat with), or points while an elimination runs —
then everyone who went out, later rounds first, each round's leavers by
their place there. Ties on all that share a place; rating then name only
order the list.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from pigparlor.tables.models import ABORTED
from pigparlor.tables.models import FINISHED as TABLE_FINISHED
from pigparlor.tournaments.models import (
    CANCELLED,
    ELIMINATION,
    FINISHED,
    RUNNING,
    UPCOMING,
    Entry,
    Result,
    Round,
    Tournament,
    TournamentTable,
)
from pigparlor.tournaments.pairing import competition_places

WAITING, PLAYING, OUT, DONE = "waiting", "playing", "out", "done"
ACTIVE = (Entry.REGISTERED, Entry.CHECKED_IN)
PLAYED = (Entry.IN, Entry.OUT, Entry.WITHDRAWN, Entry.REMOVED)


@dataclass(frozen=True)
class Standing:
    place: int
    entry: Entry
    points: float
    status: str

    @property
    def username(self) -> str:
        return self.entry.user.get_username()

    def as_json(self) -> dict:
        return {"place": self.place, "username": self.username, "points": self.points, "status": self.status}


def current_round(tournament: Tournament) -> Round | None:
    return (Round.objects.filter(tournament=tournament).select_related("stage")
            .order_by("-stage__index", "-index").first())


def open_tables(tournament: Tournament) -> dict[int, int | None]:
    """User id → table id (None while the table is being set up) for everyone
    at a table of the current round that has not finished."""
    found = current_round(tournament)
    if found is None or found.finished_at is not None:
        return {}
    seated: dict[int, int | None] = {}
    for tournament_table in found.tables.select_related("table"):
        table = tournament_table.table
        if table is not None and table.status in (TABLE_FINISHED, ABORTED):
            continue
        for user_id in tournament_table.players:
            seated[user_id] = tournament_table.table_id
    return seated


def stage_points(tournament: Tournament, stage_index: int) -> dict[int, float]:
    """Entry id → points in one stage."""
    totals: dict[int, float] = defaultdict(float)
    for entry_id, points in Result.objects.filter(round__tournament=tournament, round__stage__index=stage_index) \
            .values_list("entry_id", "points"):
        totals[entry_id] += points
    return totals


def buchholz(tournament: Tournament, stage_index: int, points: dict[int, float]) -> dict[int, float]:
    """Entry id → the sum of the stage points of everyone they sat with in the stage (once per meeting)."""
    by_table: dict[int, list[int]] = defaultdict(list)
    for entry_id, table_id in Result.objects.filter(round__tournament=tournament, round__stage__index=stage_index,
                                                    table__isnull=False).values_list("entry_id", "table_id"):
        by_table[table_id].append(entry_id)
    totals: dict[int, float] = defaultdict(float)
    for members in by_table.values():
        for entry_id in members:
            totals[entry_id] += sum(points.get(other, 0.0) for other in members if other != entry_id)
    return totals


def swiss_order(tournament: Tournament, stage_index: int, entries: list[Entry]) -> list[tuple[Entry, tuple]]:
    """A Swiss stage's standings among ``entries``: (entry, key) best first; equal keys tie."""
    points = stage_points(tournament, stage_index)
    tie_break = buchholz(tournament, stage_index, points)
    keyed = [(entry, (-points.get(entry.pk, 0.0), -tie_break.get(entry.pk, 0.0))) for entry in entries]
    keyed.sort(key=lambda pair: (pair[1], -pair[0].rating, pair[0].user.get_username()))
    return keyed


def _final_places(tournament: Tournament, stage_index: int) -> dict[int, int]:
    final = Round.objects.filter(tournament=tournament, stage__index=stage_index, final=True).first()
    if final is None:
        return {}
    return dict(Result.objects.filter(round=final).values_list("entry_id", "place"))


def standings(tournament: Tournament) -> list[Standing]:
    """Everyone in the tournament's list, place 1 first (docstring of this module)."""
    if tournament.status in (UPCOMING, CANCELLED) and tournament.started_at is None:
        entries = list(tournament.entries.filter(status__in=ACTIVE).select_related("user")
                       .order_by("-rating", "user__username"))
        return [Standing(index + 1, entry, 0.0, entry.status) for index, entry in enumerate(entries)]
    entries = list(tournament.entries.filter(status__in=PLAYED, exit_stage__isnull=False)
                   .select_related("user")) + list(tournament.entries.filter(status=Entry.IN).select_related("user"))
    totals: dict[int, float] = defaultdict(float)
    for entry_id, points in Result.objects.filter(round__tournament=tournament).values_list("entry_id", "points"):
        totals[entry_id] += points
    latest = current_round(tournament)
    still_in = [entry for entry in entries if entry.status == Entry.IN]
    inner: dict[int, tuple] = {}
    if latest is not None and still_in:
        stage = latest.stage
        if stage.format == ELIMINATION:
            final = _final_places(tournament, stage.index)
            for entry in still_in:
                # The final table's places decide (ties share); before it, points so far.
                inner[entry.pk] = (final[entry.pk],) if final else (-totals[entry.pk],)
        else:
            for entry, key in swiss_order(tournament, stage.index, still_in):
                inner[entry.pk] = key
    keyed = []
    for entry in entries:
        if entry.status == Entry.IN:
            key = (0, 0, 0, inner.get(entry.pk, ()))
        else:
            key = (1, -entry.exit_stage, -(entry.exit_round or 0), (entry.exit_rank or 0,))
        keyed.append((key, entry))
    keyed.sort(key=lambda pair: (pair[0], -pair[1].rating, pair[1].user.get_username()))
    places = competition_places([key for key, _ in keyed])
    seated = open_tables(tournament) if tournament.status == RUNNING else {}
    result = []
    for place, (_, entry) in zip(places, keyed):
        if entry.status != Entry.IN:
            status = OUT
        elif tournament.status == FINISHED:
            status = DONE
        else:
            status = PLAYING if seated.get(entry.user_id) else WAITING
        result.append(Standing(entry.place or place, entry, round(totals[entry.pk], 4), status))
    return result


def me_status(tournament: Tournament, user) -> dict:
    """``{"status": "waiting" | "playing" | "out" | "done", "table": id or None}`` for ``user``."""
    entry = tournament.entries.filter(user=user).first() if user is not None and user.is_authenticated else None
    registered = entry is not None and entry.status not in (Entry.NO_SHOW,) and not (
        entry.status == Entry.WITHDRAWN and entry.exit_stage is None)
    if tournament.status in (FINISHED, CANCELLED):
        return {"status": DONE if registered else OUT, "table": None}
    if entry is None or entry.status not in (*ACTIVE, Entry.IN):
        return {"status": OUT, "table": None}
    if tournament.status == UPCOMING:
        return {"status": WAITING, "table": None}
    table_id = open_tables(tournament).get(user.pk)
    return {"status": PLAYING if table_id else WAITING, "table": table_id}


def rounds(tournament: Tournament) -> list[dict]:
    """Every round so far: ``{"stage", "round", "final", "byes", "tables": [{"id", "seats", "status", "outcome"}]}``."""
    from pigparlor.ratings.accounts import seat_username

    found = list(Round.objects.filter(tournament=tournament).select_related("stage").order_by("stage__index", "index"))
    tables = defaultdict(list)
    for tournament_table in (TournamentTable.objects.filter(round__in=found).select_related("table")
                             .prefetch_related("table__seat_set__user").order_by("index")):
        tables[tournament_table.round_id].append(tournament_table)
    byes = defaultdict(list)
    for round_id, username in Result.objects.filter(round__in=found, bye=True).values_list(
            "round_id", "entry__user__username"):
        byes[round_id].append(username)
    users = dict(tournament.entries.values_list("user_id", "user__username"))
    described = []
    for each in found:
        rows = []
        for tournament_table in tables[each.pk]:
            table = tournament_table.table
            if table is None:
                seats = [users.get(user_id) for user_id in tournament_table.players] + [None] * tournament_table.bots
                rows.append({"id": None, "seats": seats, "status": "seating", "outcome": None})
                continue
            seat_rows = sorted(table.seat_set.all(), key=lambda seat: seat.index)
            rows.append({"id": table.pk, "seats": [seat_username(seat) for seat in seat_rows],
                         "status": table.status, "outcome": table.outcome})
        described.append({"stage": each.stage.index, "round": each.index, "final": each.final,
                          "byes": sorted(byes[each.pk]), "tables": rows})
    return described
