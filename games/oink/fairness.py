"""Fair reflexes (O9): ranking a slap by the reaction time the server can confirm.

A reveal leaves the server at ``revealed_at``; the slap arrives ``elapsed``
ms later. That elapsed time is the card's trip down, the player's reaction
and the slap's trip up. The socket's round-trip estimate ``rtt`` (a low
percentile of recent pings, added by the platform as "rtt_ms") says how much
of it was travel. The client's own claim ("reaction_ms", measured from the
frame that drew the card) is trusted only inside what the server can confirm:

    ranked = clamp(claimed, elapsed - min(rtt, LAG_CAP_MS), elapsed), never below 0

so nobody is ranked slower than they arrived, and nobody gets more than
``LAG_CAP_MS`` of credit for lag. A slap without a claim ranks at the lower
bound, exactly as a claim of 0 would: claiming nothing and claiming the
impossible are worth the same, so omitting the field is no trick. See
docs/fairness.md for the method and its limits.
"""
from __future__ import annotations

LAG_CAP_MS = 300
"""The most round-trip credit a slap can get (about 150 ms each way, O9)."""

COLLECT_MS = LAG_CAP_MS
"""The shortest collection window, counted from the slap that opens it (O6). A
window also stays open ``LAG_CAP_MS`` past its best-ranked right slap
(``rules.window_end``): a slap arriving later is ranked at least
``elapsed - LAG_CAP_MS``, so it could not beat that slap, while one arriving
sooner still could — even when the slap that opened the window was wrong."""

MAX_REPORTED_MS = 60_000
"""The sane range for "reaction_ms" and "rtt_ms": 0 to one minute."""


def ranked_reaction(elapsed: int, claimed: int | None, rtt: int | None) -> int:
    """The reaction time a slap is ranked by (O9)."""
    credit = min(rtt or 0, LAG_CAP_MS)
    floor = max(0, elapsed - credit)
    if claimed is None:
        return floor
    return min(max(claimed, floor), elapsed)


def too_early(elapsed: int, rtt: int | None) -> bool:
    """True when the slap arrived sooner than one round trip after the reveal (O9).

    The card reaches the client after its trip down and the slap comes back
    after its trip up, so any slap sent after the card was drawn arrives at
    least a round trip after the reveal. ``rtt`` is a low percentile of the
    socket's recent round trips, so real trips are rarely shorter; a slap
    beating it was sent before the card could have been seen (a guess on a
    predicted pile id) and is a false slap. The uncapped estimate is used: a
    player who inflates it only makes this check stricter for themselves.
    """
    return elapsed < (rtt or 0)
