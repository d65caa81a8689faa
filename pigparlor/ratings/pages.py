"""What the pages show of ratings: a profile's ratings with their charts, a
finished table's changes beside its standings, the seats' ratings in a waiting
room."""
from __future__ import annotations

from pigparlor.ratings import queries
from pigparlor.ratings.accounts import seat_username
from pigparlor.ratings.chart import geometry
from pigparlor.ratings.models import BotAccount, RatingEvent
from pigparlor.ratings.scale import START, Skill
from pigparlor.tables.registry import UnknownGame, get_game


def game_title(slug: str) -> str:
    try:
        return get_game(slug).title
    except UnknownGame:
        return slug


def profile_ratings(user) -> list[dict]:
    """One entry per game the player has a rating in: the shown rating, games,
    leaderboard place and the history chart."""
    events: dict[str, list[Skill]] = {}
    for event in RatingEvent.objects.filter(user=user).order_by("pk"):
        events.setdefault(event.game, []).append(event.after)
    rows = []
    for slug, row in queries.ratings_of(user).items():
        rows.append({"slug": slug, "title": game_title(slug), "skill": row.skill, "games": row.games,
                     "place": queries.place(row), "chart": geometry(events.get(slug, []))})
    return sorted(rows, key=lambda entry: (-entry["games"], entry["title"]))


def change_text(before: Skill, after: Skill) -> str:
    """``1512 → 1531 (+19)``."""
    delta = after.rating - before.rating
    return f"{before.shown} → {after.shown} ({'+' if delta >= 0 else '−'}{abs(delta)})"


def rating_change(change: dict | None) -> dict:
    """A standings row's rating fields: ``{"change": "1512 → 1531 (+19)", "delta": 19}``, or nothing."""
    if change is None:
        return {}
    return {"change": change_text(change["before"], change["after"]),
            "delta": change["after"].rating - change["before"].rating}


def seat_ratings(table, seats) -> dict[int, Skill]:
    """Each taken seat's current rating in the table's game, by seat index."""
    bots = dict(BotAccount.objects.values_list("kind", "user_id"))
    owners = {seat.index: seat.user_id if seat.user_id is not None else bots.get(seat.bot_kind)
              for seat in seats if seat.taken}
    skills = queries.skills_of({owner for owner in owners.values() if owner is not None}, table.game)
    return {index: skills.get(owner, START) if owner is not None else START for index, owner in owners.items()}


def seat_links(seats) -> dict[int, str]:
    """The username each seat's name links to."""
    return {seat.index: name for seat in seats if (name := seat_username(seat)) is not None}
