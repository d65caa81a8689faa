"""What the pages show of ratings: a profile's ratings with their charts, a bot's
fixed ratings, a rating's history with why each change happened, the seats'
ratings in a waiting room."""
from __future__ import annotations

from collections import defaultdict

from django.urls import NoReverseMatch, reverse

from games.core.registry import UnknownGame, get_game
from pigparlor.ratings import queries
from pigparlor.ratings.accounts import BOT_PREFIX, seat_username
from pigparlor.ratings.bot_levels import bot_skill
from pigparlor.ratings.chart import geometry
from pigparlor.ratings.explain import reason, signed
from pigparlor.ratings.models import RatingEvent
from pigparlor.ratings.scale import Standing
from pigparlor.tables.models import Seat, Table


def game_title(slug: str) -> str:
    try:
        return get_game(slug).title
    except UnknownGame:
        return slug


def profile_ratings(user) -> list[dict]:
    """One entry per game the player has a rating in: the shown rating, games,
    leaderboard place and the history chart. A bot's: its fixed rating per game."""
    username = user.get_username()
    if username.startswith(BOT_PREFIX):
        return bot_ratings(username.removeprefix(BOT_PREFIX))
    events: dict[str, list[Standing]] = {}
    for event in RatingEvent.objects.filter(user=user).exclude(reason=RatingEvent.REPEAT).order_by("pk"):
        events.setdefault(event.game, []).append(Standing(event.after, event.games))
    rows = []
    for slug, row in queries.ratings_of(user).items():
        rows.append({"slug": slug, "title": game_title(slug), "standing": row.standing, "games": row.games,
                     "place": queries.place(row), "chart": geometry(events.get(slug, [])),
                     "history_url": history_url(username, slug)})
    return sorted(rows, key=lambda entry: (-entry["games"], entry["title"]))


def history_url(username: str, slug: str) -> str:
    """The address of a rating history; none for a username an address cannot carry."""
    try:
        return reverse("ratings:history", args=[username, slug])
    except NoReverseMatch:
        return ""


def bot_ratings(kind: str) -> list[dict]:
    """A bot level's fixed rating in each game that has the level."""
    return [{"slug": game.slug, "title": game.title, "standing": standing, "measured": measured}
            for game, standing, measured in queries.bot_level_ratings(kind)]


def bot_levels(game) -> list[dict]:
    """The game's bot levels and their fixed ratings, easiest first (the leaderboard's yardstick)."""
    return [{"kind": kind, "level": game.bots[kind].level, "standing": Standing(bot_skill(game.slug, kind), None),
             "username": f"{BOT_PREFIX}{kind}"} for kind in game.bot_levels]


def history_rows(user, game: str) -> list[dict]:
    """The player's rating history in ``game``, newest first: each change with why."""
    from pigparlor.tables.rendering import seat_name  # the page's names for seats (rendering imports this app)

    events = queries.history(user, game)
    table_ids = {event.table_id for event in events if event.reason in RatingEvent.DECISIONS}
    decisions = defaultdict(list)
    for event in RatingEvent.objects.filter(table_id__in=table_ids, reason__in=RatingEvent.DECISIONS):
        decisions[event.table_id].append(event)
    seats = defaultdict(list)
    for seat in Seat.objects.filter(table_id__in=table_ids).select_related("user__profile").order_by("index"):
        seats[seat.table_id].append(seat)
    tables = Table.objects.in_bulk(table_ids)
    rows, games = [], 0
    for event in events:
        before = Standing(event.before, games)
        after = Standing(event.after, event.games)
        games = event.games
        row = {"event": event, "table": tables.get(event.table_id), "before": before, "after": after,
               "delta": after.rating - before.rating}
        if event.reason in RatingEvent.DECISIONS:
            table = tables[event.table_id]
            table_seats = seats[event.table_id]
            names = {seat.index: seat_name(seat) for seat in table_seats}
            mine = next((seat for seat in queries.table_ratings(table, table_seats, names, decisions[event.table_id])
                         if seat.seat == event.seat), None)
            row["why"] = reason(mine, you=True) if mine is not None else ""
            row["names"] = [{"name": name} for name in names.values()]
        elif event.reason == RatingEvent.VOID:
            row["why"] = f"{signed(row['delta'])}: a moderator voided table {event.table_id}; ratings replayed without it"
        else:
            row["why"] = f"{signed(row['delta'])}: the rating rules changed; ratings replayed under the new ones"
        rows.append(row)
    return rows[::-1]


def seat_ratings(table, seats) -> dict[int, Standing]:
    """Each taken seat's current rating in the table's game, by seat index (a bot's: fixed)."""
    people = queries.standings_of({seat.user_id for seat in seats if seat.user_id is not None}, table.game)
    found = {}
    for seat in seats:
        if seat.bot_kind:
            found[seat.index] = Standing(bot_skill(table.game, seat.bot_kind), None)
        elif seat.user_id is not None:
            found[seat.index] = people[seat.user_id]
    return found


def seat_links(seats) -> dict[int, str]:
    """The username each seat's name links to."""
    return {seat.index: name for seat in seats if (name := seat_username(seat)) is not None}

