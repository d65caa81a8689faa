"""Reading ratings: a player's ratings and place, leaderboards, a table's
ratings and why they moved, a rating's history. Nothing here writes."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from games.core.registry import all_games
from pigparlor.ratings.accounts import BOT_PREFIX, seat_username
from pigparlor.ratings.bot_levels import bot_skill, measured
from pigparlor.ratings.explain import ALONE, PENDING, Opponent, SeatRating
from pigparlor.ratings.models import Rating, RatingEvent
from pigparlor.ratings.scale import NEWCOMER, PROVISIONAL_GAMES, START, Skill, Standing
from pigparlor.ratings.service import table_left_early, table_placings
from pigparlor.tables.models import FINISHED

LEADERBOARD_SIZE = 100
ACTIVE_DAYS = 30


def established(game: str) -> QuerySet:
    """The game's established ratings, best first (the rating, then more games, then the older account).
    Never a guest's: guests sit only at casual tables, and a leaderboard is for accounts."""
    return (Rating.objects.filter(game=game, games__gte=PROVISIONAL_GAMES, user__guest__isnull=True)
            .order_by("-mu", "-games", "user_id"))


def place(row: Rating) -> int | None:
    """The leaderboard place of an established rating; None while provisional."""
    if row.standing.provisional:
        return None
    ahead = established(row.game).filter(
        Q(mu__gt=row.mu) | Q(mu=row.mu, games__gt=row.games) | Q(mu=row.mu, games=row.games, user_id__lt=row.user_id))
    return ahead.count() + 1


@dataclass(frozen=True)
class Placed:
    rank: int
    row: Rating

    @property
    def username(self) -> str:
        return self.row.user.get_username()


def leaderboard(game: str, size: int | None = None) -> list[Placed]:
    rows = established(game).select_related("user__profile")[:size or LEADERBOARD_SIZE]
    return [Placed(rank, row) for rank, row in enumerate(rows, start=1)]


def provisional_players(game: str, size: int | None = None) -> list[Rating]:
    """Players still provisional in ``game`` who played it rated in the last
    ``ACTIVE_DAYS`` days, best rating first: the leaderboard lists them apart (never a guest)."""
    since = timezone.now() - timedelta(days=ACTIVE_DAYS)
    recent = RatingEvent.objects.filter(user=OuterRef("user"), game=game, reason=RatingEvent.TABLE,
                                        created_at__gte=since)
    return list(Rating.objects.filter(game=game, games__gt=0, games__lt=PROVISIONAL_GAMES, user__guest__isnull=True)
                .filter(Exists(recent))
                .select_related("user__profile").order_by("-mu", "-games", "user_id")[:size or LEADERBOARD_SIZE])


def ratings_of(user) -> dict[str, Rating]:
    return {row.game: row for row in Rating.objects.filter(user=user, games__gt=0).order_by("game")}


def rating_json(row: Rating) -> dict:
    return {**row.standing.as_json(), "games": row.games, "rank": place(row)}


def bot_level_ratings(kind: str) -> list[tuple]:
    """A bot level's fixed rating in each game that has the level:
    ``(game, Standing, measured)`` — an unmeasured level plays at 1500."""
    return [(game, Standing(bot_skill(game.slug, kind), None), measured(game.slug, kind))
            for game in all_games() if kind in game.bots]


def ratings_json(user) -> dict[str, dict]:
    """A player's ratings for the API, per game; a bot's are its level's fixed ones
    (``"fixed": true``, no games count or place)."""
    username = user.get_username()
    if username.startswith(BOT_PREFIX):
        return {game.slug: {**standing.as_json(), "games": None, "rank": None, "fixed": True}
                for game, standing, _ in bot_level_ratings(username.removeprefix(BOT_PREFIX))}
    return {game: rating_json(row) for game, row in ratings_of(user).items()}


def skills_of(user_ids, game: str) -> dict[int, Skill]:
    """Current skills of these players in ``game`` (the start for newcomers)."""
    found = {row.user_id: row.skill for row in Rating.objects.filter(game=game, user_id__in=list(user_ids))}
    return {user_id: found.get(user_id, START) for user_id in user_ids}


def standings_of(user_ids, game: str) -> dict[int, Standing]:
    """Current ratings of these players in ``game``, as shown (a newcomer's: 1500?)."""
    found = {row.user_id: row.standing for row in Rating.objects.filter(game=game, user_id__in=list(user_ids))}
    return {user_id: found.get(user_id, NEWCOMER) for user_id in user_ids}


def _games_before(event: RatingEvent) -> int:
    return event.games - 1 if event.reason == RatingEvent.TABLE else event.games


def table_ratings(table, seats, names: dict[int, str], events=None) -> list[SeatRating]:
    """Each taken seat's rating at a finished rated table and why it moved, in seat
    order (``explain.reason`` words it); empty for any other table. ``events`` (the
    table's decision events) may be passed in when they are already read."""
    outcome = table.outcome
    if not (table.rated and table.status == FINISHED and outcome):
        return []
    if events is None:
        events = RatingEvent.objects.filter(table=table, reason__in=RatingEvent.DECISIONS)
    by_user = {event.user_id: event for event in events}
    before, after = {}, {}
    for seat in seats:
        event = by_user.get(seat.user_id) if not seat.bot_kind else None
        if seat.bot_kind:
            before[seat.index] = Standing(bot_skill(table.game, seat.bot_kind), None)
        elif event is not None:
            before[seat.index] = Standing(event.before, _games_before(event))
            if event.reason == RatingEvent.TABLE:
                after[seat.index] = Standing(event.after, event.games)
    unrated = outcome.get("unrated") or ""
    placing = table_placings(table)
    early = table_left_early(table)
    left = set(outcome.get("left") or ())
    taken = [seat.index for seat in seats if seat.taken]
    early_names = tuple(names[index] for index in taken if index in early)
    rows = []
    for seat in seats:
        index = seat.index
        if not seat.taken:
            continue
        common = {"seat": index, "name": names[index], "bot": bool(seat.bot_kind), "before": before.get(index)}
        if seat.bot_kind:
            rows.append(SeatRating(**common))
        elif unrated:
            rows.append(SeatRating(**common, unrated=unrated))
        elif index not in after:
            rows.append(SeatRating(**common, unrated=ALONE if by_user else PENDING, early=early_names))
        else:
            among = taken if index in early else [other for other in taken if other not in early]
            mine = placing[index]

            def opponents(keep):
                return tuple(Opponent(names[other], before[other].shown)
                             for other in sorted(among, key=lambda seat: (placing[seat], seat))  # noqa: B023
                             if other != index and other in before and keep(placing[other]))  # noqa: B023
            rows.append(SeatRating(
                **common, after=after[index], left=index in left, of=len(among),
                place=1 + sum(placing[other] < mine for other in among),
                shared=any(placing[other] == mine for other in among if other != index),
                above=opponents(lambda theirs: theirs > mine), behind=opponents(lambda theirs: theirs < mine),  # noqa: B023
                level=opponents(lambda theirs: theirs == mine),  # noqa: B023
                early=() if index in early else early_names))
    return rows


def rating_changes(table, seats) -> list[dict]:
    """Each person's move at a rated table: ``{"seat", "username", "before", "after"}``
    with Standings, in seat order; empty until the table is rated. Bots never move."""
    found = {event.user_id: event for event in
             RatingEvent.objects.filter(table=table, reason=RatingEvent.TABLE).select_related("user")}
    changes = []
    for seat in seats:
        event = found.get(seat.user_id) if seat.user_id is not None and not seat.bot_kind else None
        if event is not None:
            changes.append({"seat": seat.index, "username": seat_username(seat),
                            "before": Standing(event.before, event.games - 1),
                            "after": Standing(event.after, event.games)})
    return changes


def history(user, game: str) -> list[RatingEvent]:
    """Every change to the player's rating in ``game``, oldest first."""
    return list(RatingEvent.objects.filter(user=user, game=game).order_by("pk"))
