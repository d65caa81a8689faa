"""The geometry of the score sheet's chart: each seat's running total by round, as SVG
coordinates the template draws inline (no script, no image request).

The y axis always reaches the target (100, S9) so the race to it reads at a
glance, and goes below zero only when an early-Snout penalty (S10) took a
total there.
"""
from __future__ import annotations

WIDTH = 320
HEIGHT = 150
LEFT = 30     # room for the axis labels
RIGHT = 10
TOP = 10
BOTTOM = 22   # room for the round numbers
TICK_GAP = 11  # the least distance between two axis labels
# Each seat's colour, as a class (.sn-colour-0 … -5 in snout.css): the Content Security
# Policy allows no style attributes.
COLOURS = tuple(f"sn-colour-{index}" for index in range(6))


def geometry(totals_by_round: list[list[int]], names: list[str], target: int) -> dict:
    """``totals_by_round[r][seat]`` is the seat's total after round r + 1; round 0 is everyone at 0."""
    rounds = len(totals_by_round)
    seats = len(names)
    series = [[0] + [row[seat] for row in totals_by_round] for seat in range(seats)]
    low = min(0, *(value for line in series for value in line))
    high = max(target, *(value for line in series for value in line))
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x(r: int) -> float:
        return round(LEFT + plot_w * r / max(rounds, 1), 1)

    def y(value: int) -> float:
        return round(TOP + plot_h * (high - value) / (high - low), 1)

    ticks: list = []
    for value in (target, 0, high, low, target // 2):  # by importance; no two labels overlap
        if all(abs(y(value) - y(kept)) >= TICK_GAP for kept in ticks):
            ticks.append(value)
    ticks.sort()
    return {
        "width": WIDTH, "height": HEIGHT, "left": LEFT, "right": WIDTH - RIGHT, "bottom": HEIGHT - BOTTOM,
        "ticks": [{"y": y(value), "label": value, "target": value == target} for value in ticks],
        "rounds": [{"x": x(r), "label": r} for r in range(1, rounds + 1)],
        "label_y": HEIGHT - 6,
        "lines": [{
            "name": names[seat], "colour": COLOURS[seat % len(COLOURS)], "total": series[seat][-1],
            "points": " ".join(f"{x(r)},{y(value)}" for r, value in enumerate(series[seat])),
            "dots": [{"x": x(r), "y": y(value), "value": value, "round": r}
                     for r, value in enumerate(series[seat]) if r],
        } for seat in range(seats)],
        "summary": ", ".join(f"{names[seat]} {series[seat][-1]}" for seat in range(seats)),
    }
