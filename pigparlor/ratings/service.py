"""The one place ratings change.

``rate_table`` decides a finished rated table once, in its own transaction after
the table's final commit: it locks the table row (so two processes finishing
or sweeping the same table take turns, and the second finds it decided), then
its people's rating rows in user order (so tables sharing players never
deadlock, and two tables of the same people are decided one after the other),
and writes one ``RatingEvent`` per person — unique per (table, person), the
last guard. The decision is one of:

- **rated**: each person's rating moves (``table`` events). Every seat takes
  part: a person at their rating, a bot seat at its level's fixed, measured
  rating (``bot_levels``), which never moves. A seat whose player left is
  rated last; one that left before playing their share (``outcome["left_early"]``,
  pigparlor.tables.leavers) feeds nobody (``scale.rate_players``).
- **a repeat** (``outcome["unrated"] = "repeat"``): the same people (two or more,
  exactly the same set) already have ``scale.REPEAT_GAMES`` counted games of this
  game finished within ``scale.REPEAT_WINDOW`` of this one, before or after; ``repeat``
  events record it and nothing moves. The rule reads only finished tables and
  earlier decisions, so it gives the same answer in the replay, in every process.
- **nobody to rate** (``outcome["unrated"] = "no_players"``): every seat is a bot.

``rate_unrated`` is the start-up sweep for tables a crash left undecided.
``replay`` recomputes a game's decisions and ratings from its decided tables
in the order they were decided; ``void_table`` and ``rebuild`` move every
rating to what the replay gives (``void`` and ``rules`` events).
"""
from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.db.models import Exists, Min, OuterRef

from pigparlor.ops import metrics
from pigparlor.ratings.accounts import bot_account
from pigparlor.ratings.bot_levels import bot_skill
from pigparlor.ratings.models import Rating, RatingEvent, RatingRules, VoidedTable
from pigparlor.ratings.scale import NEWCOMER, REPEAT_WINDOW, START, Skill, Standing, is_repeat, placings, rate_players
from pigparlor.tables.broadcast import announce_after_commit
from pigparlor.tables.models import FINISHED, Seat, Table

log = logging.getLogger(__name__)

RULES = 2
"""The version of the rules below. Changing how a table is rated (the model, who
takes part, the repeat rule) bumps it: the next ``serve`` start rebuilds every
rating under the new rules (``rebuild_if_rules_changed``)."""

UNRATED_REPEAT = "repeat"
UNRATED_NOBODY = "no_players"

@dataclass(frozen=True)
class Seating:
    """Who takes part in a finished table's rating, seat by seat."""

    players: list  # a person's user id; ("bot", seat) for a bot seat; None for an empty seat
    fixed: dict[int, Skill]  # bot seats: their level's fixed skill

    @property
    def people(self) -> frozenset[int]:
        return frozenset(player for player in self.players if isinstance(player, int))


def seating(game: str, seats: list[Seat]) -> Seating:
    """A person's seat is theirs even while a bot stood in for them; a bot seat is
    its own participant, so three bots of one level are three players."""
    players, fixed = [], {}
    for seat in seats:
        if seat.user_id is not None and not seat.bot_kind:
            players.append(seat.user_id)
        elif seat.bot_kind:
            players.append(("bot", seat.index))
            fixed[seat.index] = bot_skill(game, seat.bot_kind)
        else:
            players.append(None)
    return Seating(players, fixed)


def _rateable(table: Table | None) -> bool:
    return (table is not None and table.rated and table.status == FINISHED and table.outcome is not None
            and not table.outcome.get("unrated") and not VoidedTable.objects.filter(table=table).exists())


def _decided(table: Table) -> bool:
    return table.rating_events.filter(reason__in=RatingEvent.DECISIONS).exists()


def table_placings(table: Table) -> list[int]:
    """The ranks a finished table is rated by: leavers last (``outcome["left"]``)."""
    left = set(table.outcome.get("left") or ())
    return placings(list(table.outcome["ranks"]), [index in left for index in range(table.seats)])


def table_left_early(table: Table) -> frozenset[int]:
    """The seats whose player left before playing their share: rated last, feeding nobody."""
    return frozenset(table.outcome.get("left_early") or ())


def rate_result(table: Table, seated: Seating, skills: dict[int, Skill]) -> dict[int, Skill]:
    """The new skills a finished table gives its people (``skills``: theirs before):
    the one rule the live service and the replay share."""
    everyone = {**skills, **{seated.players[seat]: skill for seat, skill in seated.fixed.items()}}
    return rate_players(seated.players, everyone, table_placings(table), table_left_early(table),
                        frozenset(seated.fixed))


def counted_together(table: Table, people: frozenset[int]) -> list[datetime]:
    """When the counted games of this game that exactly ``people`` played, finished
    within ``REPEAT_WINDOW`` of ``table``, finished. Counted: decided and not ruled a
    repeat (a voided game was played, and still counts)."""
    if len(people) < 2:
        return []
    decided = RatingEvent.objects.filter(table=OuterRef("pk"), reason__in=RatingEvent.DECISIONS)
    near = dict(Table.objects.filter(game=table.game, seat_set__user_id=min(people),
                                     finished_at__gt=table.finished_at - REPEAT_WINDOW,
                                     finished_at__lt=table.finished_at + REPEAT_WINDOW)
                .filter(Exists(decided)).exclude(pk=table.pk).exclude(outcome__has_key="unrated")
                .values_list("pk", "finished_at"))
    groups = defaultdict(set)
    for table_id, user_id in Seat.objects.filter(table_id__in=list(near), user__isnull=False, bot_kind="") \
            .values_list("table_id", "user_id"):
        groups[table_id].add(user_id)
    return [near[table_id] for table_id, group in groups.items() if group == people]


def _ensure_rows(game: str, user_ids) -> None:
    """Starting ratings for newcomers, before the locking transaction (a row must
    exist to be locked)."""
    Rating.objects.bulk_create([Rating(user_id=user_id, game=game, mu=START.mu, sigma=START.sigma)
                                for user_id in user_ids], ignore_conflicts=True)


def _mark_unrated(table: Table, reason: str) -> None:
    """Record on the table's result why it moved no rating; every viewer renders again."""
    table.outcome = {**table.outcome, "unrated": reason}
    table.seats_rev += 1
    table.save(update_fields=["outcome", "seats_rev"])
    announce_after_commit(table)


def rate_table(table_id: int) -> bool:
    """Decide one finished rated table, once. True if this call decided it (rated it,
    or ruled it a repeat or a table of bots)."""
    table = Table.objects.filter(pk=table_id).first()
    if not _rateable(table) or _decided(table):
        return False
    seats = list(table.seat_set.order_by("index"))
    for seat in seats:
        if seat.bot_kind:
            bot_account(seat.bot_kind)  # the bot's page, linked from the results
    seated = seating(table.game, seats)
    people = seated.people
    _ensure_rows(table.game, people)
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if not _rateable(table) or _decided(table):
            return False
        if not people:
            _mark_unrated(table, UNRATED_NOBODY)
            return True
        rows = {row.user_id: row for row in Rating.objects.select_for_update()
                .filter(game=table.game, user_id__in=people).order_by("user_id")}
        seat_of = {player: index for index, player in enumerate(seated.players) if player in people}
        if is_repeat(people, table.finished_at, counted_together(table, people)):
            RatingEvent.objects.bulk_create(
                _event(rows[person], RatingEvent.REPEAT, table, seat_of[person], rows[person].standing)
                for person in sorted(people))
            _mark_unrated(table, UNRATED_REPEAT)
            return True
        after = rate_result(table, seated, {person: row.skill for person, row in rows.items()})
        events = []
        for person in sorted(after):
            row = rows[person]
            moved = Standing(after[person], row.games + 1)
            events.append(_event(row, RatingEvent.TABLE, table, seat_of[person], moved))
            _move(row, moved)
        RatingEvent.objects.bulk_create(events)
        game, moved_count = table.game, len(events)
        transaction.on_commit(lambda: metrics.RATING_UPDATES.labels(game).inc(moved_count))
        # The page shows the changes: a new seats_rev makes every viewer render again.
        table.seats_rev += 1
        table.save(update_fields=["seats_rev"])
        announce_after_commit(table)
    return True


def _event(row: Rating, reason: str, table: Table | None, seat: int | None, after: Standing) -> RatingEvent:
    return RatingEvent(user_id=row.user_id, game=row.game, table=table, seat=seat, reason=reason,
                       mu_before=row.mu, sigma_before=row.sigma, mu_after=after.skill.mu,
                       sigma_after=after.skill.sigma, games=after.games)


def _move(row: Rating, to: Standing) -> None:
    row.mu, row.sigma, row.games = to.skill.mu, to.skill.sigma, to.games
    row.save(update_fields=["mu", "sigma", "games", "updated_at"])


def on_table_finished(sender, table_id, **kwargs) -> None:
    """Receiver of ``table_finished``. A failure here must not reach the player
    whose move ended the game; the start-up sweep rates the table later."""
    try:
        rate_table(table_id)
    except Exception:
        log.exception("rating table %s failed; the start-up sweep will rate it", table_id)


def unrated_tables():
    """Finished rated tables not decided yet (not voided), oldest first."""
    return (Table.objects.filter(status=FINISHED, rated=True, outcome__isnull=False, voided__isnull=True)
            .exclude(rating_events__reason__in=RatingEvent.DECISIONS).exclude(outcome__has_key="unrated")
            .order_by("finished_at", "pk"))


def rate_unrated() -> int:
    """The start-up sweep: decide what a crash between a table's final commit and
    its rating left behind. Returns how many tables it decided."""
    decided = 0
    for table_id in unrated_tables().values_list("pk", flat=True):
        decided += rate_table(table_id)
    return decided


# -- replay ------------------------------------------------------------------

@dataclass
class Replay:
    """What the rules give for a game's decided tables: every rating, and the tables
    whose stored decision differs (``True``: the rules say it is a repeat)."""

    ratings: dict[int, Standing] = field(default_factory=dict)
    misjudged: dict[int, bool] = field(default_factory=dict)


def decision_order(game: str) -> list[int]:
    """The game's decided tables in the order they were decided."""
    return list(RatingEvent.objects.filter(game=game, reason__in=RatingEvent.DECISIONS).values("table_id")
                .annotate(first=Min("id")).order_by("first").values_list("table_id", flat=True))


def replay(game: str) -> Replay:
    """Every decision and rating of ``game`` recomputed from its decided tables (their
    seats and outcomes) in the order they were decided; voided tables count for the
    repeat rule (they were played) but rate nobody."""
    order = decision_order(game)
    tables = Table.objects.in_bulk(order)
    voided = set(VoidedTable.objects.filter(table_id__in=order).values_list("table_id", flat=True))
    seats_by_table = _seats_by_table(order)
    found = Replay()
    counted: dict[frozenset, list[datetime]] = defaultdict(list)
    for table_id in order:
        table = tables[table_id]
        seated = seating(game, seats_by_table[table_id])
        people = seated.people
        repeat = is_repeat(people, table.finished_at, counted[people])
        if repeat != (table.outcome.get("unrated") == UNRATED_REPEAT):
            found.misjudged[table_id] = repeat
        if repeat:
            continue
        counted[people].append(table.finished_at)
        if table_id in voided:
            continue
        ratings = found.ratings
        skills = {person: ratings[person].skill for person in people if person in ratings}
        for person, skill in rate_result(table, seated, skills).items():
            ratings[person] = Standing(skill, (ratings[person].games if person in ratings else 0) + 1)
    # A repeat recorded without a decision (no one's event) must still be one.
    marked = Table.objects.filter(game=game, outcome__unrated=UNRATED_REPEAT).exclude(pk__in=order)
    undecided = list(marked.values_list("pk", "finished_at"))
    seats_by_table = _seats_by_table([table_id for table_id, _ in undecided])
    for table_id, finished_at in undecided:
        people = seating(game, seats_by_table.get(table_id, [])).people
        if not is_repeat(people, finished_at, counted[people]):
            found.misjudged[table_id] = False
    return found


def _seats_by_table(table_ids) -> dict[int, list[Seat]]:
    found: dict[int, list[Seat]] = defaultdict(list)
    for seat in Seat.objects.filter(table_id__in=list(table_ids)).order_by("table_id", "index"):
        found[seat.table_id].append(seat)
    return found


@dataclass(frozen=True)
class Difference:
    user_id: int
    game: str
    stored: Standing
    replayed: Standing


@dataclass(frozen=True)
class Audit:
    differences: list[Difference]
    misjudged: dict[int, bool]  # table id: the rules say it is a repeat


def audit(game: str) -> Audit:
    """Stored ratings of ``game`` the replay does not reproduce exactly, and tables
    whose decision the rules do not give."""
    found = replay(game)
    differences = []
    stored_ids = set()
    for row in Rating.objects.filter(game=game).order_by("user_id"):
        stored_ids.add(row.user_id)
        expected = found.ratings.get(row.user_id, NEWCOMER)
        if row.standing != expected:
            differences.append(Difference(row.user_id, game, row.standing, expected))
    for user_id, expected in found.ratings.items():
        if user_id not in stored_ids:
            differences.append(Difference(user_id, game, NEWCOMER, expected))
    return Audit(differences, found.misjudged)


def differences(game: str) -> list[Difference]:
    return audit(game).differences


def rated_games() -> list[str]:
    return sorted(set(Rating.objects.values_list("game", flat=True)))


def _settle(game: str, reason: str, table: Table | None, found: Replay) -> int:
    """Move every stored rating of ``game`` to ``found``'s, one ``reason`` event per
    rating that moves (inside the caller's transaction). Returns how many moved."""
    rows = {row.user_id: row for row in Rating.objects.select_for_update().filter(game=game).order_by("user_id")}
    events = []
    for user_id, row in rows.items():
        expected = found.ratings.get(user_id, NEWCOMER)
        if row.standing == expected:
            continue
        events.append(_event(row, reason, table, None, expected))
        _move(row, expected)
    RatingEvent.objects.bulk_create(events)
    return len(events)


@transaction.atomic
def void_table(table_id: int, note: str = "") -> int:
    """Take a table's result out of the ratings: mark it void (never rated again)
    and move every rating of its game to the replay without it, each move a
    ``void`` event. Returns how many ratings moved; voiding twice changes nothing."""
    table = Table.objects.select_for_update().get(pk=table_id)
    if VoidedTable.objects.filter(table=table).exists():
        return 0
    VoidedTable.objects.create(table=table, note=note[:200])
    moved = _settle(table.game, RatingEvent.VOID, table, replay(table.game))
    table.seats_rev += 1
    table.save(update_fields=["seats_rev"])
    announce_after_commit(table)
    return moved


@transaction.atomic
def rebuild(game: str) -> int:
    """Bring ``game``'s stored decisions and ratings to what the current rules give:
    a table the rules now call a repeat is marked so (its old events stay, as what
    happened then), a repeat they would count loses its mark, and every rating
    moves to the replay, each move a ``rules`` event. Returns how many ratings moved."""
    list(Rating.objects.select_for_update().filter(game=game).order_by("user_id"))  # no rating moves meanwhile
    found = replay(game)
    for table in Table.objects.select_for_update().filter(pk__in=list(found.misjudged)).order_by("pk"):
        outcome = {key: value for key, value in table.outcome.items() if key != "unrated"}
        if found.misjudged[table.pk]:
            outcome["unrated"] = UNRATED_REPEAT
        table.outcome = outcome
        table.seats_rev += 1
        table.save(update_fields=["outcome", "seats_rev"])
        announce_after_commit(table)
    return _settle(game, RatingEvent.RULES, None, found)


def rules_version() -> int:
    """The rules the stored ratings follow. The migration writes the row (older rules
    where ratings existed); without it (a database emptied since, as tests do) every
    rating was made by this code."""
    row = RatingRules.objects.first()
    return row.version if row is not None else RULES


def rebuild_all() -> int:
    """Every game's decisions and ratings under the current rules, then the tables that
    left undecided; the stored rules version becomes the code's. Returns how many
    ratings moved."""
    moved = sum(rebuild(game) for game in sorted(set(RatingEvent.objects.values_list("game", flat=True))))
    RatingRules.objects.update_or_create(pk=1, defaults={"version": RULES})
    rate_unrated()
    return moved


def rebuild_if_rules_changed() -> int:
    """At start-up: rebuild if the stored ratings follow older rules than the code's."""
    return rebuild_all() if rules_version() < RULES else 0
