"""The geometry of a rating-history chart: the shown rating after each rated
game, as SVG coordinates the profile draws inline (no script, no image
request), like the Snout! score sheet's chart.

The x axis counts rating changes (0 = the start, 1500); the y axis spans the ratings
reached with some room, with at most three labels so it stays legible at
360 px. Provisional stretches are drawn dashed.
"""
from __future__ import annotations

from pigparlor.ratings.scale import NEWCOMER, Standing

WIDTH = 320
HEIGHT = 140
LEFT = 38     # room for the rating labels
RIGHT = 8
TOP = 10
BOTTOM = 20   # room for the game numbers
MIN_SPAN = 100  # the y axis covers at least this many rating points
TICK_GAP = 12


def _nice(value: float, step: int, up: bool) -> int:
    whole = int(value // step) * step
    return whole + step if up and whole < value else whole


def geometry(standings: list[Standing]) -> dict:
    """``standings``: the rating after each change, oldest first."""
    series = [NEWCOMER, *standings]
    ratings = [skill.rating for skill in series]
    low, high = min(ratings), max(ratings)
    if high - low < MIN_SPAN:
        middle = (high + low) / 2
        low, high = middle - MIN_SPAN / 2, middle + MIN_SPAN / 2
    low, high = _nice(low, 50, up=False), _nice(high, 50, up=True)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    games = len(series) - 1

    def x(n: int) -> float:
        return round(LEFT + plot_w * n / max(games, 1), 1)

    def y(value: float) -> float:
        return round(TOP + plot_h * (high - value) / (high - low), 1)

    ticks = []
    for value in (NEWCOMER.rating, high, low):
        if low <= value <= high and all(abs(y(value) - y(kept)) >= TICK_GAP for kept in ticks):
            ticks.append(value)
    points = [(x(n), y(rating)) for n, rating in enumerate(ratings)]
    split = next((n for n, skill in enumerate(series) if not skill.provisional), None)
    provisional = points if split is None else points[:split + 1]
    established = [] if split is None else points[split:]
    step = max(1, -(-games // 5))
    played = series[-1].games
    return {
        "width": WIDTH, "height": HEIGHT, "left": LEFT, "right": WIDTH - RIGHT, "label_y": HEIGHT - 5,
        "ticks": [{"y": y(value), "label": value} for value in sorted(ticks)],
        "games": [{"x": x(n), "label": n} for n in range(0, games + 1, step)],
        "provisional": " ".join(f"{px},{py}" for px, py in provisional) if len(provisional) > 1 else "",
        "established": " ".join(f"{px},{py}" for px, py in established) if len(established) > 1 else "",
        "last": {"x": points[-1][0], "y": points[-1][1], "label": series[-1].shown},
        "summary": f"from {series[0].shown} to {series[-1].shown} over {played} rated game{'s' if played != 1 else ''}",
    }
