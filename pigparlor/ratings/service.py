"""The one place ratings change.

``rate_table`` rates a finished rated table once, in its own transaction after
the table's final commit: it locks the table row (so two processes finishing
or sweeping the same table take turns, and the second finds it rated), then
its players' rating rows in user order (so tables sharing players never
deadlock), writes one ``RatingEvent`` per player — unique per (table, player),
the last guard — and moves the ratings. ``rate_unrated`` is the start-up sweep
for tables a crash left unrated.

``replay`` recomputes a game's ratings from the rated tables in the order they
were rated; ``void_table`` is that replay without one table, written as
``void`` events.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.db.models import Count, Min

from pigparlor.ratings.accounts import seat_account
from pigparlor.ratings.models import BotAccount, Rating, RatingEvent, VoidedTable
from pigparlor.ratings.scale import START, Skill, placings, rate_players
from pigparlor.tables.broadcast import announce_after_commit
from pigparlor.tables.models import FINISHED, Seat, Table

log = logging.getLogger(__name__)


REPEAT_GAMES = 3
REPEAT_WINDOW = timedelta(hours=24)
"""The same group of people counts for ratings ``REPEAT_GAMES`` times per game
within ``REPEAT_WINDOW``; later games of theirs in that window are casual
(docs/ratings.md, "Playing the same people again")."""

UNRATED_REPEAT = "repeat"


def _rateable(table: Table | None) -> bool:
    return (table is not None and table.rated and table.status == FINISHED and table.outcome is not None
            and not table.outcome.get("unrated") and not VoidedTable.objects.filter(table=table).exists())


def table_placings(table: Table) -> list[int]:
    """The ranks a finished table is rated by: leavers last (``outcome["left"]``)."""
    left = set(table.outcome.get("left") or ())
    return placings(list(table.outcome["ranks"]), [index in left for index in range(table.seats)])


def table_left_early(table: Table) -> frozenset[int]:
    """The seats whose player left before playing their share: rated last, feeding nobody."""
    return frozenset(table.outcome.get("left_early") or ())


def rate_result(table: Table, players: list, skills: dict) -> dict:
    """The new skills a finished table gives its players: the one rule the live
    service and the replay share."""
    return rate_players(players, skills, table_placings(table), table_left_early(table))


def repeat_games(table: Table, seats: list[Seat]) -> int:
    """How many rated games of this game the same group of people (two or more, the
    same set exactly) finished within ``REPEAT_WINDOW`` before this one."""
    people = {seat.user_id for seat in seats if seat.user_id is not None and not seat.bot_kind}
    if len(people) < 2 or table.finished_at is None:
        return 0
    shared = (RatingEvent.objects.filter(game=table.game, reason=RatingEvent.TABLE, user_id__in=people,
                                         table__finished_at__gte=table.finished_at - REPEAT_WINDOW,
                                         table__finished_at__lt=table.finished_at)
              .exclude(table__voided__isnull=False).values("table_id").annotate(n=Count("user_id", distinct=True))
              .filter(n=len(people)).values_list("table_id", flat=True))
    count = 0
    for table_id in shared:
        others = set(Seat.objects.filter(table_id=table_id, user__isnull=False, bot_kind="")
                     .values_list("user_id", flat=True))
        count += others == people
    return count


def _ensure_rows(game: str, user_ids: set[int]) -> None:
    """Starting ratings for newcomers, before the locking transaction (a row must
    exist to be locked)."""
    Rating.objects.bulk_create([Rating(user_id=user_id, game=game, mu=START.mu, sigma=START.sigma)
                                for user_id in user_ids], ignore_conflicts=True)


def rate_table(table_id: int) -> bool:
    """Rate one finished rated table, once. True if this call rated it."""
    table = Table.objects.filter(pk=table_id).first()
    if not _rateable(table) or table.rating_events.filter(reason=RatingEvent.TABLE).exists():
        return False
    seats = list(table.seat_set.select_related("user").order_by("index"))
    accounts = [seat_account(seat) for seat in seats]
    players = [account.pk if account is not None else None for account in accounts]
    _ensure_rows(table.game, {player for player in players if player is not None})
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.rating_events.filter(reason=RatingEvent.TABLE).exists():
            return False
        rows = {row.user_id: row for row in Rating.objects.select_for_update()
                .filter(game=table.game, user_id__in=[player for player in players if player is not None])
                .order_by("user_id")}
        if repeat_games(table, seats) >= REPEAT_GAMES:
            table.outcome = {**table.outcome, "unrated": UNRATED_REPEAT}
            table.seats_rev += 1
            table.save(update_fields=["outcome", "seats_rev"])
            announce_after_commit(table)
            return False
        after = rate_result(table, players, {user_id: row.skill for user_id, row in rows.items()})
        first_seat: dict[int, int] = {}
        for seat, player in zip(seats, players):
            if player is not None:
                first_seat.setdefault(player, seat.index)
        events = []
        for player, skill in after.items():
            row = rows[player]
            events.append(RatingEvent(
                user_id=player, game=table.game, table=table, seat=first_seat[player], reason=RatingEvent.TABLE,
                mu_before=row.mu, sigma_before=row.sigma, mu_after=skill.mu, sigma_after=skill.sigma))
            row.mu, row.sigma, row.games = skill.mu, skill.sigma, row.games + 1
            row.save(update_fields=["mu", "sigma", "games", "updated_at"])
        RatingEvent.objects.bulk_create(events)
        # The page shows the changes: a new seats_rev makes every viewer render again.
        table.seats_rev += 1
        table.save(update_fields=["seats_rev"])
        announce_after_commit(table)
    return True


def on_table_finished(sender, table_id, **kwargs) -> None:
    """Receiver of ``table_finished``. A failure here must not reach the player
    whose move ended the game; the start-up sweep rates the table later."""
    try:
        rate_table(table_id)
    except Exception:
        log.exception("rating table %s failed; the start-up sweep will rate it", table_id)


def unrated_tables():
    """Finished rated tables with no rating yet (not voided), oldest first."""
    return (Table.objects.filter(status=FINISHED, rated=True, outcome__isnull=False, voided__isnull=True)
            .exclude(rating_events__reason=RatingEvent.TABLE).exclude(outcome__has_key="unrated")
            .order_by("finished_at", "pk"))


def rate_unrated() -> int:
    """The start-up sweep: rate what a crash between a table's final commit and
    its rating left behind. Returns how many tables it rated."""
    rated = 0
    for table_id in unrated_tables().values_list("pk", flat=True):
        rated += rate_table(table_id)
    return rated


# -- replay ------------------------------------------------------------------

@dataclass
class Replayed:
    skill: Skill
    games: int


def rated_order(game: str, exclude: frozenset[int] = frozenset()) -> list[int]:
    """The game's rated tables in the order they were rated, voided ones left out."""
    voided = set(VoidedTable.objects.filter(table__game=game).values_list("table_id", flat=True))
    order = (RatingEvent.objects.filter(game=game, reason=RatingEvent.TABLE).values("table_id")
             .annotate(first=Min("id")).order_by("first").values_list("table_id", flat=True))
    return [table_id for table_id in order if table_id not in voided and table_id not in exclude]


def replay(game: str, exclude: frozenset[int] = frozenset()) -> dict[int, Replayed]:
    """Every rating of ``game`` recomputed from its rated tables (their seats and
    outcomes), in the order they were rated, without the ``exclude``d ones."""
    bots = dict(BotAccount.objects.values_list("kind", "user_id"))
    order = rated_order(game, exclude)
    tables = Table.objects.in_bulk(order)
    seats_by_table: dict[int, list] = {}
    for seat in Seat.objects.filter(table_id__in=order).order_by("table_id", "index"):
        seats_by_table.setdefault(seat.table_id, []).append(seat)
    ratings: dict[int, Replayed] = {}
    for table_id in order:
        table = tables[table_id]
        players = [seat.user_id if seat.user_id is not None else bots.get(seat.bot_kind)
                   for seat in seats_by_table[table_id]]
        skills = {player: ratings[player].skill for player in players if player in ratings}
        for player, skill in rate_result(table, players, skills).items():
            ratings[player] = Replayed(skill, (ratings[player].games if player in ratings else 0) + 1)
    return ratings


@dataclass(frozen=True)
class Difference:
    user_id: int
    game: str
    stored: Replayed
    replayed: Replayed


def differences(game: str) -> list[Difference]:
    """Stored ratings of ``game`` that the replay does not reproduce exactly."""
    replayed = replay(game)
    found = []
    stored_ids = set()
    for row in Rating.objects.filter(game=game).order_by("user_id"):
        stored_ids.add(row.user_id)
        stored = Replayed(row.skill, row.games)
        expected = replayed.get(row.user_id, Replayed(START, 0))
        if stored != expected:
            found.append(Difference(row.user_id, game, stored, expected))
    for user_id, expected in replayed.items():
        if user_id not in stored_ids:
            found.append(Difference(user_id, game, Replayed(START, 0), expected))
    return found


def rated_games() -> list[str]:
    return sorted(set(Rating.objects.values_list("game", flat=True)))


@transaction.atomic
def void_table(table_id: int, note: str = "") -> int:
    """Take a table's result out of the ratings: mark it void (never rated again)
    and move every rating of its game to the replay without it, each move a
    ``void`` event. Returns how many ratings moved; voiding twice changes nothing."""
    table = Table.objects.select_for_update().get(pk=table_id)
    if VoidedTable.objects.filter(table=table).exists():
        return 0
    VoidedTable.objects.create(table=table, note=note[:200])
    rows = {row.user_id: row for row in Rating.objects.select_for_update().filter(game=table.game).order_by("user_id")}
    replayed = replay(table.game)
    events = []
    for user_id, row in rows.items():
        expected = replayed.get(user_id, Replayed(START, 0))
        if (row.skill, row.games) == (expected.skill, expected.games):
            continue
        events.append(RatingEvent(user_id=user_id, game=table.game, table=table, reason=RatingEvent.VOID,
                                  mu_before=row.mu, sigma_before=row.sigma,
                                  mu_after=expected.skill.mu, sigma_after=expected.skill.sigma))
        row.mu, row.sigma, row.games = expected.skill.mu, expected.skill.sigma, expected.games
        row.save(update_fields=["mu", "sigma", "games", "updated_at"])
    RatingEvent.objects.bulk_create(events)
    table.seats_rev += 1
    table.save(update_fields=["seats_rev"])
    announce_after_commit(table)
    return len(events)
