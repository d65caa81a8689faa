"""What the tournament pages show, read from the core's models and reads
(``standings``); nothing here writes.

- ``list_context``: the list page (upcoming, running, finished).
- ``board_context``: a tournament's page as everyone sees it — stages and
  their rules, the players, the rounds with every table, its players, live
  status and results, who went on, and the standings.
- ``me_context``: the part only one viewer sees — what they may do (register,
  check in, withdraw) and where they are (their table, their place).
- ``history``: a player's tournaments, for the profile.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import Count, Q
from django.utils import timezone

from games.core.registry import UnknownGame, get_game
from pigparlor.tournaments import pairing, progress, services
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
from pigparlor.tournaments.standings import (
    ACTIVE,
    Standing,
    buchholz,
    current_round,
    me_status,
    stage_points,
    standings,
)

FINISHED_SHOWN = 20
LEFT = (Entry.OUT, Entry.WITHDRAWN, Entry.REMOVED)


def game_title(slug: str) -> str:
    try:
        return get_game(slug).title
    except UnknownGame:
        return slug


def plain_number(value: float | None) -> str:
    """Points as people write them: 3, 1.5, 0.25 (never "1.50")."""
    return "" if value is None else f"{round(value, 2):g}"


def ordinal(number: int | None) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st."""
    if number is None:
        return ""
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


# -- stages and their rules -----------------------------------------------------

def points_text(stage: Stage) -> str:
    """"1st 3 · 2nd 2 · 3rd 1 · 4th 0": points per place at a full table."""
    table = pairing.points_table(stage.table_size, stage.points)
    return " · ".join(f"{ordinal(place)} {value:g}" for place, value in enumerate(table, start=1))


def sizes_text(sizes: list[int]) -> str:
    """"a table of 3", "2 tables of 3", "1 table of 4, 2 of 3" (largest first)."""
    if not sizes:
        return "no table"
    if len(sizes) == 1:
        return f"a table of {sizes[0]}"
    counted = sorted(Counter(sizes).items(), reverse=True)
    parts = [f"{count} table{'s' if count != 1 else ''} of {size}" if index == 0 else f"{count} of {size}"
             for index, (size, count) in enumerate(counted)]
    return ", ".join(parts)


def _elimination_plan(players: int, stage: Stage, last: bool) -> str:
    """"round 1: 2 tables of 3; the final: a table of 2" for ``players`` (nobody dropping out)."""
    engine = get_game(stage.game).engine
    plan = pairing.elimination_rounds(players, stage.table_size, stage.advance, engine.min_seats, engine.max_seats,
                                      last)
    words = [f"round {number}: {sizes_text(sizes)}" for number, sizes in enumerate(plan, start=1)]
    if last and plan and len(plan[-1]) == 1:
        words[-1] = f"the final: {sizes_text(plan[-1])}"
    return "; ".join(words)


def stage_rules(stage: Stage, last: bool, registered: int = 0) -> list[str]:
    """The stage's rules in sentences players read; ``registered`` (the first
    stage of an upcoming tournament) says which tables that many would make."""
    game = get_game(stage.game)
    title, engine = game.title, game.engine
    rules = []
    if stage.format == ELIMINATION:
        example = stage.table_size * 2 + 1
        split = pairing.split_sizes(example, stage.table_size, engine.min_seats, engine.max_seats)
        rules.append(f"Tables of {stage.table_size} when the players divide evenly; otherwise tables differ by one "
                     f"seat, within the {engine.min_seats} to {engine.max_seats} players {title} takes ({example} "
                     f"players: {sizes_text(split)}). A match is one whole game of {title}.")
        going = "the winner of each table goes" if stage.advance == 1 else f"the top {stage.advance} of each table go"
        rules.append(f"After each round {going} on (never a whole table).")
        if last:
            rules.append("When the players left fit one table, they play the final table; its places end "
                         "the tournament.")
        else:
            rules.append(f"When the players left fit one table, they go on to stage {stage.index + 2}.")
        if registered >= 2:
            rules.append(f"With the {registered} registered now: {_elimination_plan(registered, stage, last)}.")
    else:
        rules.append(f"Tables of exactly {stage.table_size}: when the players do not divide by {stage.table_size}, "
                     f"the rest sit the round out (a bye); {stage.table_size} or fewer share one table. "
                     f"A match is one whole game of {title}.")
        rules.append(f"{stage.rounds} round{'s' if stage.rounds != 1 else ''}, each seating players of close "
                     "score together (ties by rating), avoiding repeat opponents.")
        rules.append(f"Points per place at a full table: {points_text(stage)} (scaled for other sizes); "
                     f"a bye scores {pairing.bye_points(stage.table_size, stage.points):g}.")
        rules.append("Ties on points are broken by Buchholz: the points of everyone you sat with.")
        if last:
            rules.append("The standings after the last round are the final places.")
        else:
            rules.append(f"The top {stage.advance} go on to stage {stage.index + 2}.")
    options = _options_text(stage)
    if options:
        rules.append(f"Table options: {options}.")
    return rules


def points_notes(stages: list[Stage]) -> list[str]:
    """What the standings' points mean, a sentence per stage."""
    notes = []
    for stage in stages:
        bye = f"; a bye {pairing.bye_points(stage.table_size, stage.points):g}" if stage.format == SWISS else ""
        tail = ("; ties go to Buchholz, the points of everyone you sat with" if stage.format == SWISS
                else "; they order players who went out in the same round, the final table's places the top")
        notes.append(f"Stage {stage.index + 1} ({game_title(stage.game)} {'Swiss' if stage.format == SWISS else 'elimination'}): "
                     f"each table gives {points_text(stage)} at a full table of {stage.table_size} (other sizes "
                     f"scaled){bye}{tail}.")
    return notes


def _options_text(stage: Stage) -> str:
    try:
        declared = {option.name: option for option in get_game(stage.game).engine.options}
    except (UnknownGame, AttributeError):
        return ""
    shown = []
    for name, value in sorted((stage.options or {}).items()):
        option = declared.get(name)
        label = option.label if option else name.replace("_", " ")
        if isinstance(value, bool):
            value = "yes" if value else "no"
        elif option is not None and option.kind == "choice":
            value = dict(option.labelled_choices()).get(value, value)
        shown.append(f"{label}: {value}")
    return ", ".join(shown)


def stage_title(stage: Stage) -> str:
    return f"{game_title(stage.game)} {'Swiss' if stage.format == SWISS else 'elimination'}"


def stages_summary(stages: list[Stage]) -> str:
    """"Pig Pile elimination, then Snout! elimination"."""
    return ", then ".join(stage_title(stage) for stage in stages)


def conditions(tournament: Tournament, stages: list[Stage]) -> list[str]:
    title = game_title(stages[0].game) if stages else ""
    found = []
    if tournament.min_rating is not None:
        found.append(f"{title} rating at least {tournament.min_rating}")
    if tournament.max_rating is not None:
        found.append(f"{title} rating at most {tournament.max_rating}")
    if tournament.min_games:
        found.append(f"at least {tournament.min_games} rated {title} games")
    if tournament.established:
        found.append(f"an established {title} rating")
    return found


# -- the list ---------------------------------------------------------------------

@dataclass
class ListRow:
    tournament: Tournament
    stages: str
    players: int
    now: str = ""
    winner: str = ""


def list_context() -> dict:
    active = Count("entries", filter=Q(entries__status__in=ACTIVE))
    playing = Count("entries", filter=~Q(entries__status__in=(Entry.NO_SHOW, Entry.WITHDRAWN, *ACTIVE)))
    base = Tournament.objects.prefetch_related("stages")
    upcoming = list(base.filter(status=UPCOMING).annotate(players=active).order_by("starts_at", "pk"))
    running = list(base.filter(status=RUNNING).annotate(players=playing).order_by("started_at", "pk"))
    over = list(base.filter(status__in=(FINISHED, CANCELLED)).annotate(players=playing)
                .order_by("-finished_at", "-pk")[:FINISHED_SHOWN])
    winners = dict(Entry.objects.filter(tournament__in=over, place=1).values_list("tournament_id", "user__username"))
    rows = {"upcoming": [], "running": [], "finished": []}
    for key, found in (("upcoming", upcoming), ("running", running), ("finished", over)):
        for tournament in found:
            row = ListRow(tournament, stages_summary(list(tournament.stages.all())), tournament.players)
            if key == "running":
                row.now = round_label(current_round(tournament))
            row.winner = winners.get(tournament.pk, "")
            rows[key].append(row)
    return rows


def round_label(found: Round | None, stages: int = 0) -> str:
    if found is None:
        return "starting"
    name = "final table" if found.final else f"round {found.index + 1}"
    if found.stage.format == SWISS and found.stage.rounds:
        name = f"round {found.index + 1} of {found.stage.rounds}"
    return f"stage {found.stage.index + 1}: {game_title(found.stage.game)}, {name}"


# -- one tournament, as everyone sees it -----------------------------------------------

@dataclass
class SeatRow:
    name: str
    user_id: int | None = None
    bot: bool = False
    place: int | None = None
    points: float | None = None
    went_on: bool | None = None   # None: not decided (or not an elimination round)
    left: bool = False
    won: bool = False             # first at the table that ended the tournament

    @property
    def points_text(self) -> str:
        return plain_number(self.points)


@dataclass
class TableRow:
    number: int
    table_id: int | None
    status: str
    progress: str
    seats: list[SeatRow]

    @property
    def over(self) -> bool:
        return self.status in ("finished", "aborted")


@dataclass
class RoundBlock:
    round: Round
    label: str
    tables: list[TableRow]
    byes: list[str]
    finished: bool
    sizes: str = ""  # the tables as played: "2 tables of 3"

    @property
    def playing(self) -> int:
        return sum(1 for row in self.tables if not row.over)


@dataclass
class StageBlock:
    stage: Stage
    title: str
    rules: list[str]
    rounds: list[RoundBlock] = field(default_factory=list)
    went_on: list[str] = field(default_factory=list)  # Swiss: who made the cut


def _seat_rows(planned: TournamentTable, names: dict[int, str]) -> list[SeatRow]:
    table = planned.table
    if table is None:
        rows = [SeatRow(names.get(user_id, "?"), user_id) for user_id in planned.players]
        return rows + [SeatRow("bot", bot=True) for _ in range(planned.bots)]
    rows = []
    for seat in sorted(table.seat_set.all(), key=lambda seat: seat.index):
        if seat.user_id is not None:
            rows.append(SeatRow(names.get(seat.user_id) or seat.user.get_username(), seat.user_id))
        else:
            rows.append(SeatRow(f"{seat.bot_kind or 'empty'} bot", bot=True))
    return rows


def _went_on(entry: Entry | None, found: Round) -> bool:
    """Whether ``entry`` went on from elimination round ``found`` (recorded)."""
    if entry is None:
        return False
    if entry.status in LEFT and entry.exit_stage == found.stage.index and entry.exit_round == found.index:
        return False
    return True


def rounds_by_stage(tournament: Tournament, stages: list[StageBlock], names: dict[int, str],
                    entries: dict[int, Entry]) -> dict[int, list[str]]:
    """Fill each stage block's rounds; returns each player's results round by
    round ("1st", "bye", "2nd (left)"), by user id."""
    found = list(Round.objects.filter(tournament=tournament).select_related("stage").order_by("stage__index", "index"))
    planned = defaultdict(list)
    for each in (TournamentTable.objects.filter(round__in=found).select_related("table")
                 .prefetch_related("table__seat_set__user").order_by("index")):
        planned[each.round_id].append(each)
    results = {(result.round_id, result.entry.user_id): result
               for result in Result.objects.filter(round__in=found).select_related("entry")}
    byes = defaultdict(list)
    history: dict[int, list[str]] = defaultdict(list)
    for each in found:
        for (round_id, user_id), result in results.items():
            if round_id == each.pk:
                history[user_id].append("bye" if result.bye else f"{ordinal(result.place) or '–'}"
                                        f"{' (left)' if result.left else ''}")
    for result in results.values():
        if result.bye:
            byes[result.round_id].append(names.get(result.entry.user_id, "?"))
    blocks = {block.stage.pk: block for block in stages}
    for each in found:
        # The last round of a finished tournament ended it: nobody goes on from there.
        ended_it = tournament.status == FINISHED and each is found[-1]
        final = each.final or (ended_it and each.stage.format == ELIMINATION and len(planned[each.pk]) == 1)
        rows = []
        for number, planned_table in enumerate(planned[each.pk], start=1):
            table = planned_table.table
            seats = _seat_rows(planned_table, names)
            for seat in seats:
                result = results.get((each.pk, seat.user_id)) if seat.user_id else None
                if result is not None:
                    seat.place, seat.points, seat.left = result.place, result.points, result.left
                    if each.stage.format == ELIMINATION and not final and planned_table.recorded:
                        seat.went_on = _went_on(entries.get(seat.user_id), each)
                    seat.won = final and ended_it and result.place == 1
            rows.append(TableRow(number, table.pk if table else None, table.status if table else "seating",
                                 progress.table_progress(table), seats))
        label = "Final table" if final else f"Round {each.index + 1}"
        if each.stage.format == SWISS and each.stage.rounds:
            label += f" of {each.stage.rounds}"
        block = blocks.get(each.stage_id)
        if block is not None:
            block.rounds.append(RoundBlock(each, label, rows, sorted(byes[each.pk]), each.finished_at is not None,
                                           sizes_text([len(row.seats) for row in rows])))
    return history


@dataclass(frozen=True)
class StandingRow:
    standing: Standing
    place_text: str
    results: str                 # round by round: "1st, bye, 2nd"
    tie_break: float | None      # Buchholz, where a Swiss stage orders the players still in

    @property
    def points_text(self) -> str:
        return plain_number(self.standing.points)

    @property
    def tie_break_text(self) -> str:
        return plain_number(self.tie_break)


def standing_rows(tournament: Tournament, table: list[Standing], history: dict[int, list[str]]) -> list[StandingRow]:
    latest = current_round(tournament)
    tie_breaks: dict[int, float] | None = None
    if latest is not None and latest.stage.format == SWISS:
        index = latest.stage.index
        tie_breaks = buchholz(tournament, index, stage_points(tournament, index))
    return [StandingRow(row, ordinal(row.place), ", ".join(history.get(row.entry.user_id, ())),
                        tie_breaks.get(row.entry.pk, 0.0) if row.entry.status == Entry.IN and tie_breaks is not None else None)
            for row in table]


def board_context(tournament: Tournament) -> dict:
    judged = services.stage_problems(tournament)
    stage_rows = [stage for stage, _ in judged]
    entries_all = list(tournament.entries.select_related("user__profile").order_by("registered_at", "pk"))
    registered = sum(1 for entry in entries_all if entry.status in ACTIVE) if tournament.status == UPCOMING else 0
    stages = [StageBlock(stage, stage_title(stage), [f"This stage cannot be played: {problem}."] if problem
                         else stage_rules(stage, stage is stage_rows[-1], registered if stage is stage_rows[0] else 0))
              for stage, problem in judged]
    names = {entry.user_id: entry.user.get_username() for entry in entries_all}
    entries = {entry.user_id: entry for entry in entries_all}
    history = rounds_by_stage(tournament, stages, names, entries)
    for position, block in enumerate(stages):
        # A Swiss stage's cut, once made; not when it ended the tournament (nobody played on).
        played_on = tournament.status != FINISHED or any(later.rounds for later in stages[position + 1:])
        if block.stage.format == SWISS and block.stage.advance and block.rounds and played_on \
                and all(each.finished for each in block.rounds) and len(block.rounds) == block.stage.rounds:
            later = [entry for entry in entries_all
                     if entry.status in (Entry.IN, *LEFT) and (entry.exit_stage is None or
                                                               entry.exit_stage > block.stage.index)]
            block.went_on = sorted(names[entry.user_id] for entry in later)
    started = tournament.started_at is not None
    players = [entry for entry in entries_all if entry.status in ACTIVE]
    players.sort(key=lambda entry: (-entry.rating, names[entry.user_id]))
    table = standings(tournament) if started else []
    latest = current_round(tournament) if started else None
    return {
        "tournament": tournament,
        "stages": stages,
        "conditions": conditions(tournament, stage_rows),
        "players": players,
        "checked_in": sum(1 for entry in players if entry.status == Entry.CHECKED_IN),
        "standings": standing_rows(tournament, table, history) if table else [],
        "points_notes": points_notes([stage for stage, problem in judged if not problem]) if table else [],
        "ratings": {entry.user_id: entry.rating for entry in entries_all},
        "now_label": round_label(latest) if tournament.status == RUNNING else "",
        "announcement": announcement(tournament, players, latest, stages),
        "checkin_opens": tournament.starts_at - services.checkin_window(),
        "checkin_minutes": settings.PIGPARLOR_TOURNAMENT_CHECKIN_MINUTES,
        "grace_seconds": settings.PIGPARLOR_SEAT_GRACE_MS // 1000,
    }


def announcement(tournament: Tournament, players: list[Entry], latest: Round | None,
                 stages: list[StageBlock]) -> str:
    """One sentence for screen readers (aria-live) that changes when the tournament does."""
    if tournament.status == UPCOMING:
        checked = sum(1 for entry in players if entry.status == Entry.CHECKED_IN)
        return f"{len(players)} registered, {checked} checked in."
    if tournament.status == CANCELLED:
        return f"The tournament was cancelled: {tournament.cancel_reason}"
    if tournament.status == FINISHED:
        return "The tournament is over: the final standings are in."
    if latest is None:
        return "The tournament is starting."
    block = next((each for stage in stages for each in stage.rounds if each.round.pk == latest.pk), None)
    if block is None:
        return f"{round_label(latest)}."
    done = len(block.tables) - block.playing
    return f"{round_label(latest)}: {done} of {len(block.tables)} tables finished."


# -- one tournament, as one viewer sees it ------------------------------------------

def me_context(tournament: Tournament, user) -> dict:
    """What ``user`` may do here and where they are."""
    now = timezone.now()
    signed_in = user is not None and user.is_authenticated
    entry = tournament.entries.filter(user=user).first() if signed_in else None
    status = me_status(tournament, user if signed_in else None)
    active = entry is not None and entry.status in ACTIVE
    opens = tournament.starts_at - services.checkin_window()
    upcoming = tournament.status == UPCOMING and now < tournament.starts_at
    refusal = None
    if signed_in and upcoming and not active:
        refusal = services.entry_refusal(tournament, user)
    latest = current_round(tournament) if tournament.status == RUNNING else None
    return {
        "tournament": tournament,
        "signed_in": signed_in,
        "entry": entry,
        "status": status,
        "table_id": status["table"],
        "registered": active,
        "checked_in": entry is not None and entry.status == Entry.CHECKED_IN,
        "can_register": signed_in and upcoming and not active and refusal is None,
        "refusal": refusal,
        "checkin_open": active and upcoming and now >= opens,
        "checkin_opens": opens,
        "can_withdraw": (active and upcoming) or (
            entry is not None and entry.status == Entry.IN and latest is not None
            and latest.stage.format == SWISS and status["table"] is None),
        "place": entry.place if entry is not None else None,
        "place_text": ordinal(entry.place) if entry is not None else "",
        "full": upcoming and not active and tournament.entries.filter(status__in=ACTIVE).count()
        >= tournament.max_players,
        "hosting": signed_in and tournament.created_by_id == user.pk,
        "can_cancel": signed_in and upcoming and tournament.created_by_id == user.pk,
    }


# -- a player's tournaments (the profile) ------------------------------------------------

@dataclass(frozen=True)
class HistoryRow:
    tournament: Tournament
    place: int | None
    place_text: str
    players: int
    status: str


def history(user, size: int = 50) -> list[HistoryRow]:
    """``user``'s tournaments that started, latest first, with their place (once finished)."""
    entries = list(Entry.objects.filter(user=user, tournament__started_at__isnull=False)
                   .exclude(status__in=(Entry.NO_SHOW,)).exclude(status=Entry.WITHDRAWN, exit_stage__isnull=True)
                   .select_related("tournament").order_by("-tournament__starts_at", "-pk")[:size])
    counts = dict(Entry.objects.filter(tournament__in=[entry.tournament for entry in entries])
                  .exclude(status__in=(Entry.NO_SHOW, *ACTIVE)).exclude(status=Entry.WITHDRAWN, exit_stage__isnull=True)
                  .values("tournament_id").annotate(count=Count("pk")).values_list("tournament_id", "count"))
    rows = []
    for entry in entries:
        tournament = entry.tournament
        if tournament.status == RUNNING:
            status = "playing" if entry.status == Entry.IN else "out"
        else:
            status = tournament.status
        rows.append(HistoryRow(tournament, entry.place, ordinal(entry.place), counts.get(tournament.pk, 0), status))
    return rows
