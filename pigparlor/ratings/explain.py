"""Why a rating moved, in words: pure functions, no Django.

A finished rated table gives each seat a ``SeatRating``: what the seat was rated
at, where it finished among the seats it was rated against, and who those were.
``reason`` reads it the way the results screen and the rating history show it:
"+24: 2nd of 4, above Ana (1612) and Easy bot 3 (1480)", or for a leaver
"rated last: you left".
"""
from __future__ import annotations

from dataclasses import dataclass, field

from pigparlor.ratings.scale import REPEAT_GAMES, Standing

ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}

# Why a seat's rating did not move (``SeatRating.unrated``).
REPEAT = "repeat"            # the same people's game beyond the day's counted ones
NO_PLAYERS = "no_players"    # every seat a bot
ALONE = "alone"              # everyone else left before playing their share
PENDING = "pending"          # decided in a moment


def ordinal(n: int) -> str:
    """A place at a table (1st to 6th, or a tournament's longer list): "1st", "2nd", "11th"."""
    return ORDINALS.get(n % 10, f"{n}th") if n % 100 not in (11, 12, 13) else f"{n}th"


@dataclass(frozen=True)
class Opponent:
    name: str
    shown: str  # their rating before the game, "1612" or "1500?"


@dataclass(frozen=True)
class SeatRating:
    seat: int
    name: str
    bot: bool
    before: Standing | None          # what the seat was rated at (a bot: its fixed rating)
    after: Standing | None = None    # None: not moved (a bot, or not rated: ``unrated`` says why)
    unrated: str = ""
    place: int = 0                   # among the seats it was rated against
    of: int = 0
    shared: bool = False
    left: bool = False               # rated last because its player left
    above: tuple[Opponent, ...] = ()
    behind: tuple[Opponent, ...] = ()
    level: tuple[Opponent, ...] = ()
    early: tuple[str, ...] = field(default=())  # names of the seats left out for leaving early

    @property
    def delta(self) -> int | None:
        if self.before is None or self.after is None:
            return None
        return self.after.rating - self.before.rating

    @property
    def change(self) -> str:
        """``1512 → 1531 (+19)``, or nothing when the rating did not move."""
        if self.delta is None:
            return ""
        return f"{self.before.shown} → {self.after.shown} ({signed(self.delta)})"


def signed(delta: int) -> str:
    return f"{'+' if delta >= 0 else '−'}{abs(delta)}"


def names(opponents: tuple[Opponent, ...]) -> str:
    """"Ana (1612)", "Ana (1612) and Bo (1480)", "Ana (1612), Bo (1480) and Cy (1500?)"."""
    parts = [f"{opponent.name} ({opponent.shown})" for opponent in opponents]
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def reason(row: SeatRating, you: bool = False) -> str:
    """One line on why this seat's rating moved as it did (or did not move)."""
    if row.bot:
        return "a bot's rating is fixed"
    if row.unrated:
        return unrated_reason(row, you)
    if row.after is None:
        return ""
    prefix = f"{signed(row.delta)}: "
    if row.left:
        return prefix + ("rated last: you left" if you else "rated last: left the game")
    place = f"{'shared ' if row.shared else ''}{ordinal(row.place)} of {row.of}"
    if row.above:
        place += f", above {names(row.above)}"
    elif row.behind:
        place += f", behind {names(row.behind)}"
    elif row.level:
        place += f", level with {names(row.level)}"
    if row.early:
        place += f" ({' and '.join(row.early)} left early: not counted)"
    return prefix + place


def unrated_reason(row: SeatRating, you: bool) -> str:
    if row.unrated == REPEAT:
        return f"not rated: the same players already have {REPEAT_GAMES} rated games together within 24 hours"
    if row.unrated == ALONE:
        return f"not rated: {' and '.join(row.early)} left before playing half of their moves"
    if row.unrated == PENDING:
        return "rating on its way"
    return "not rated"
