"""Quick play's matching: who sits together. Pure functions, no Django.

As in lichess's pools, each waiting player accepts opponents within a rating
window that widens the longer they wait; two players can sit together when
each is within the other's window. The oldest waiter is served first: the
closest-rated compatible players join them until the table is full. A player
whose chosen wait has run out (``wait_s``; None = people only) gets bots for
the seats still empty, together with any compatible waiters who also accept
bots.
"""
from __future__ import annotations

from dataclasses import dataclass

WINDOW_START = 100       # rating points either side, at once
WINDOW_PER_SECOND = 10   # widening per second waited
WINDOW_MAX = 600


@dataclass(frozen=True)
class Waiter:
    key: object          # who (the pool entry's id)
    rating: int          # the shown rating in this game
    joined_ms: int
    wait_s: int | None   # after this long, bots fill the table; None: people only

    def window(self, now_ms: int) -> float:
        waited_s = max(0, now_ms - self.joined_ms) / 1000
        return min(WINDOW_MAX, WINDOW_START + WINDOW_PER_SECOND * waited_s)

    def accepts(self, other: Waiter, now_ms: int) -> bool:
        return abs(self.rating - other.rating) <= self.window(now_ms)

    def out_of_patience(self, now_ms: int) -> bool:
        return self.wait_s is not None and now_ms - self.joined_ms >= 1000 * self.wait_s


@dataclass(frozen=True)
class Group:
    waiters: tuple[Waiter, ...]
    bots: int

    @property
    def rating(self) -> int:
        return round(sum(waiter.rating for waiter in self.waiters) / len(self.waiters))


def _fits(candidate: Waiter, chosen: list[Waiter], now_ms: int) -> bool:
    return all(candidate.accepts(other, now_ms) and other.accepts(candidate, now_ms) for other in chosen)


def groups(waiters: list[Waiter], seats: int, now_ms: int) -> list[Group]:
    """The tables to seat now from one pool (one game, one seat count)."""
    waiting = sorted(waiters, key=lambda waiter: (waiter.joined_ms, str(waiter.key)))
    formed = []
    while waiting:
        first = waiting[0]
        chosen = [first]
        for candidate in sorted(waiting[1:], key=lambda other: (abs(other.rating - first.rating), other.joined_ms)):
            if len(chosen) == seats:
                break
            if _fits(candidate, chosen, now_ms):
                chosen.append(candidate)
        if len(chosen) < seats and first.out_of_patience(now_ms):
            chosen = [waiter for waiter in chosen if waiter.wait_s is not None]
            formed.append(Group(tuple(chosen), seats - len(chosen)))
        elif len(chosen) == seats:
            formed.append(Group(tuple(chosen), 0))
        else:
            chosen = [first]  # not yet: the others may still match each other
        taken = {waiter.key for waiter in chosen}
        waiting = [waiter for waiter in waiting if waiter.key not in taken]
    return formed


def closest_bot(bot_ratings: dict[str, int], rating: int) -> str:
    """The bot kind whose rating is nearest (ties: the first kind by name)."""
    return min(sorted(bot_ratings), key=lambda kind: abs(bot_ratings[kind] - rating))
