"""A first game with hints: an ordinary table through the same door as any other.

``start_lesson`` creates it with ``create_table``: the game's ``Lesson``
(games.core.coach) gives the seats, the options, the bots' kind and the deal's
fixed seed; the learner takes seat 0, bots the rest, and the table starts at
once, private and unrated. The only difference from any table is its
``tutorial`` flag, which puts each seat's hint on its page (rendering.context).
The engine deals, checks and hides exactly as everywhere else.
"""
from __future__ import annotations

from pigparlor.tables import services
from pigparlor.tables.errors import BAD_REQUEST, TableError
from pigparlor.tables.models import RUNNING, Seat, Table


def start_lesson(user, slug: str) -> Table:
    """The learner's running first game of ``slug``, or a new one."""
    game = services.game_for(slug)
    if game.coach is None:
        raise TableError(BAD_REQUEST, f"{game.title} has no first game with hints")
    running = Table.objects.filter(game=slug, tutorial=True, status=RUNNING, seat_set__user=user).first()
    if running is not None:
        return running
    lesson = game.coach.lesson
    return services.create_table(
        host=user, game=slug, seats=lesson.seats, bots=lesson.seats - 1, options=lesson.options,
        private=True, rated=False, title=f"Learning {game.title}", bot_kind=lesson.bot,
        seed=lesson.seed, tutorial=True)


def lesson_offered(user, table: Table) -> bool:
    """Offer the first game with hints at ``user``'s first table of its game: one they
    sit at, with no other table of that game behind them (lessons included)."""
    if table.tutorial or user is None or not user.is_authenticated:
        return False
    return not Seat.objects.filter(user=user, table__game=table.game).exclude(table=table).exists()
