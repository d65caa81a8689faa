"""Pairing and advancement as pure functions (no Django): players and results
in, tables out. docs/tournaments.md explains the rules these implement.

A player is a ``Player`` (a key — the user id —, a rating, points so far in
the stage, byes so far). Tables are lists of keys in seat order.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations

from pigparlor.ratings.scale import placings

# Elimination steps (``elimination_step``).
ROUND, FINAL, NEXT_STAGE, WINNER = "round", "final", "next_stage", "winner"
# Swiss pairing: how many tables apart two players may be swapped to avoid a repeat.
SWAP_WINDOW = 2


@dataclass(frozen=True)
class Player:
    key: int
    rating: int = 1500
    points: float = 0.0
    byes: int = 0


# -- table sizes ----------------------------------------------------------------

def split_sizes(players: int, table_size: int, min_seats: int, max_seats: int) -> list[int]:
    """Table sizes seating ``players``, largest first, as even as the game's seat
    range allows: sizes differ by at most one, stay within ``min_seats`` to
    ``max_seats``, and keep as close to ``table_size`` as they can (on a tie, no
    table above it). Up to ``table_size`` players sit at one table (bots fill it
    up to ``min_seats`` if needed)."""
    if players <= 0:
        return []
    if players <= table_size:
        return [players]
    best = None
    for tables in range(1, players + 1):
        low, extra = divmod(players, tables)
        high = low + (1 if extra else 0)
        if low < min_seats:
            break
        if high > max_seats:
            continue
        score = (max(abs(low - table_size), abs(high - table_size)), high > table_size)
        if best is None or score < best[0]:
            best = (score, tables)
    if best is None:  # no even split fits the range: tables of table_size, the last topped up by bots
        tables = -(-players // table_size)
    else:
        tables = best[1]
    low, extra = divmod(players, tables)
    return [low + 1] * extra + [low] * (tables - extra)


def bots_needed(humans: int, min_seats: int) -> int:
    """Bots fill a table only to make it playable."""
    return max(0, min_seats - humans)


# -- elimination ------------------------------------------------------------------

def goes_on(humans: int, advance: int) -> int:
    """How many of a table's players go on: the top ``advance``, but never the
    whole table (someone is always out)."""
    return max(1, min(advance, humans - 1))


def elimination_step(players: int, tables: int, last_stage: bool, rounds_played: int) -> str:
    """What an elimination stage does next with the ``players`` still in it,
    who would sit at ``tables`` tables (``split_sizes``). Once they fit one
    table: in the last stage that table is the final; otherwise they are the
    next stage's players (a stage plays at least one round)."""
    if players <= 1:
        return WINNER if last_stage else NEXT_STAGE
    if tables == 1:
        if last_stage:
            return FINAL
        return NEXT_STAGE if rounds_played else ROUND
    return ROUND


def seat_by_rating(players: list[Player], sizes: list[int]) -> list[list[int]]:
    """Seed the players into tables of ``sizes`` by rating, snaking (1 2 3 3 2 1 …)
    so every table gets a fair share of the strong and the weak."""
    order = sorted(players, key=lambda player: (-player.rating, player.key))
    tables: list[list[int]] = [[] for _ in sizes]
    forward = True
    index = 0
    while index < len(order):
        row = range(len(sizes)) if forward else range(len(sizes) - 1, -1, -1)
        for table in row:
            if index < len(order) and len(tables[table]) < sizes[table]:
                tables[table].append(order[index].key)
                index += 1
        forward = not forward
    return tables


def elimination_rounds(players: int, table_size: int, advance: int, min_seats: int, max_seats: int,
                       last_stage: bool = True) -> list[list[int]]:
    """The table sizes of every round an elimination stage of ``players`` plays
    (the last one the final table when ``last_stage``), assuming nobody drops out."""
    rounds: list[list[int]] = []
    while True:
        sizes = split_sizes(players, table_size, min_seats, max_seats)
        step = elimination_step(players, len(sizes), last_stage, len(rounds))
        if step in (WINNER, NEXT_STAGE):
            return rounds
        rounds.append(sizes)
        if step == FINAL:
            return rounds
        players = sum(goes_on(size, advance) for size in sizes)


# -- places and points ------------------------------------------------------------

def human_places(ranks: list[int], left: list[bool], human: list[bool]) -> list[int | None]:
    """Each human seat's place among the table's humans (1 = best, ties share;
    a seat a bot was playing at the end ranks last); None for bot seats."""
    placing = placings(list(ranks), list(left))
    places: list[int | None] = []
    for seat, is_human in enumerate(human):
        if not is_human:
            places.append(None)
            continue
        better = sum(1 for other, other_human in enumerate(human) if other_human and placing[other] < placing[seat])
        places.append(better + 1)
    return places


def points_table(table_size: int, points: list[float] | None = None) -> list[float]:
    """Points per place at a table of ``table_size``: the stage's own, or
    ``table_size - place`` (3/2/1/0 for four seats)."""
    return [float(value) for value in points] if points else [float(table_size - place) for place in range(1, table_size + 1)]


def place_points(place: int, seats: int, table_size: int, points: list[float] | None = None) -> float:
    """Points for ``place`` at a table of ``seats`` humans. Other sizes than
    ``table_size`` are scaled: first gets the first place's points, last the
    last's, the places between are read off in proportion."""
    table = points_table(table_size, points)
    if seats == table_size:
        return table[place - 1]
    if seats <= 1:
        return table[0]
    position = (place - 1) * (table_size - 1) / (seats - 1)
    below = int(position)
    if below >= table_size - 1:
        return table[-1]
    fraction = position - below
    return table[below] + (table[below + 1] - table[below]) * fraction


def table_points(places: list[int], table_size: int, points: list[float] | None = None) -> list[float]:
    """Points for each place at one table; players tied on a place share the
    points of the places they cover equally."""
    seats = len(places)
    counts = Counter(places)
    awarded = []
    for place in places:
        covered = [place_points(place + offset, seats, table_size, points) for offset in range(counts[place])]
        awarded.append(sum(covered) / len(covered))
    return awarded


def bye_points(table_size: int, points: list[float] | None = None) -> float:
    """A bye is worth the average place at a full table (1.5 for 3/2/1/0)."""
    table = points_table(table_size, points)
    return sum(table) / len(table)


def competition_places(keys: list) -> list[int]:
    """Places for keys already sorted best first: equal keys share a place (1, 1, 3)."""
    places = []
    for index, key in enumerate(keys):
        places.append(places[-1] if index and keys[index - 1] == key else index + 1)
    return places


# -- Swiss ----------------------------------------------------------------------

def standing_order(players: list[Player]) -> list[Player]:
    """Best first: points, then rating, then key (a stable last resort)."""
    return sorted(players, key=lambda player: (-player.points, -player.rating, player.key))


def choose_byes(players: list[Player], count: int) -> list[int]:
    """The players sitting out this round: those with the fewest byes so far,
    lowest in the standings first — nobody gets a second bye before everyone
    has had one."""
    if count <= 0:
        return []
    order = sorted(players, key=lambda player: (player.byes, player.points, player.rating, -player.key))
    return [player.key for player in order[:count]]


def meetings(rounds_tables: list[list[list[int]]]) -> Counter:
    """How often each pair of players has sat at the same table."""
    met: Counter = Counter()
    for tables in rounds_tables:
        for table in tables:
            for pair in combinations(sorted(table), 2):
                met[pair] += 1
    return met


def repeats(tables: list[list[int]], met: Counter) -> int:
    """Pairs sitting together again, counted by how often they met before."""
    return sum(met[pair] for table in tables for pair in combinations(sorted(table), 2))


def _cost(table: list[int], met: Counter) -> int:
    return sum(met[pair] for pair in combinations(sorted(table), 2))


def swiss_round(players: list[Player], met: Counter, table_size: int) -> tuple[list[list[int]], list[int]]:
    """One Swiss round: (tables, byes). Everyone plays at a table of exactly
    ``table_size`` except ``len(players) % table_size`` byes; tables take the
    players in standings order (close scores together, ties by rating), then
    players swap between tables up to ``SWAP_WINDOW`` apart while that seats
    fewer repeat opponents. With no more than ``table_size`` players, one table."""
    if len(players) <= 1:
        return [], [player.key for player in players]
    if len(players) <= table_size:
        return [[player.key for player in standing_order(players)]], []
    byes = choose_byes(players, len(players) % table_size)
    order = [player.key for player in standing_order(players) if player.key not in set(byes)]
    count = len(order) // table_size
    tables: list[list[int]] = [[] for _ in range(count)]
    # Greedy: each player, best first, joins the open table among the next few
    # where they have met the fewest of those already seated.
    for key in order:
        open_tables = [index for index in range(count) if len(tables[index]) < table_size][:SWAP_WINDOW + 1]
        chosen = min(open_tables, key=lambda index: (sum(met[tuple(sorted((key, other)))] for other in tables[index]),
                                                      index))
        tables[chosen].append(key)
    _improve(tables, met)
    return tables, byes


def _improve(tables: list[list[int]], met: Counter) -> None:
    """Swap players between nearby tables while that lowers the repeats."""
    improved = True
    passes = 0
    while improved and passes < 50:
        improved = False
        passes += 1
        for first in range(len(tables)):
            for second in range(first + 1, min(len(tables), first + SWAP_WINDOW + 1)):
                before = _cost(tables[first], met) + _cost(tables[second], met)
                if before == 0:
                    continue
                for a, b in [(a, b) for a in range(len(tables[first])) for b in range(len(tables[second]))]:
                    one, two = list(tables[first]), list(tables[second])
                    one[a], two[b] = two[b], one[a]
                    after = _cost(one, met) + _cost(two, met)
                    if after < before:
                        tables[first], tables[second] = one, two
                        before = after
                        improved = True
