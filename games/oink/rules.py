"""The moves of Oink! as pure functions from state to state: flip, slap, judge, clock.

``engine.py`` validates actions and calls these; they assume the action is legal.
"""
from __future__ import annotations

from dataclasses import replace

from games.core.cards import plural
from games.oink.cards import card_name, correct_cry, cry_name
from games.oink.fairness import COLLECT_MS, LAG_CAP_MS, ranked_reaction, too_early
from games.oink.state import LogEntry, OinkState, Phase, Slap, Verdict

LOG_KEEP = 30
LAST_CARD_MIN_MS = 2000
"""The last card of the game stays open to slaps for at least this long (O8)."""


def logged(state: OinkState, seat: int | None, text: str, **changes) -> OinkState:
    """``state`` with ``changes`` made and one event added to the log."""
    entry = LogEntry(state.events + 1, seat, text)
    return replace(state, log=(*state.log, entry)[-LOG_KEEP:], events=state.events + 1, **changes)


def next_flipper(decks: tuple[tuple[int, ...], ...], after: int) -> int | None:
    """The next seat clockwise from ``after`` with cards in its deck; empty decks are skipped (O7)."""
    seats = len(decks)
    for step in range(1, seats + 1):
        seat = (after + step) % seats
        if decks[seat]:
            return seat
    return None


def flipped(state: OinkState) -> tuple[int, ...]:
    """The cards flipped onto the pile this round, bottom first: the pile without the penalty
    cards put under it (O5), which nobody saw flipped and so never count for O3."""
    return state.pile[state.under:]


def top_two(cards: tuple[int, ...]) -> tuple[int | None, int | None]:
    top = cards[-1] if cards else None
    under = cards[-2] if len(cards) >= 2 else None
    return top, under


def open_flipping(state: OinkState, now: int) -> OinkState:
    """The reveal gap is over: the flipper may flip until the turn timer runs out (O2)."""
    return replace(state, phase=Phase.FLIP, deadline_at=now + state.turn_ms, phase_since=now)


def waiting(state: OinkState, flipper: int | None, now: int) -> dict:
    """The changes that start the reveal gap; with every deck empty, the last card's window (O8)."""
    wait = state.reveal_gap_ms if flipper is not None else max(state.reveal_gap_ms, LAST_CARD_MIN_MS)
    return {"phase": Phase.WAIT, "deadline_at": now + wait, "phase_since": now}


def flip(state: OinkState, seat: int, now: int, timed_out: bool = False) -> OinkState:
    """Reveal the top card of ``seat``'s deck onto the pile: a new pile state (O2, O4)."""
    card, *rest = state.decks[seat]
    decks = tuple(tuple(rest) if index == seat else deck for index, deck in enumerate(state.decks))
    flipper = next_flipper(decks, seat)
    text = f"flipped {card_name(card)}" + (" (out of time)" if timed_out else "")
    return logged(state, seat, text, decks=decks, pile=(*state.pile, card), pile_id=state.pile_id + 1,
                  revealed_at=now, pile_open=True, slaps=(), judged=0, flipper=flipper, **waiting(state, flipper, now))


def is_right(state: OinkState, record: Slap) -> bool:
    """True when ``record`` made the right cry on the current pile and was not a false slap (O5, O9)."""
    top, under = top_two(flipped(state))
    cry = None if top is None else correct_cry(top, under)
    return cry is not None and record.cry == cry and not record.early


def window_end(state: OinkState) -> int:
    """When the open collection window closes (O6, O9; docs/fairness.md, "The window").

    At least ``COLLECT_MS`` after the slap that opened it, and at least ``LAG_CAP_MS``
    past the best-ranked right slap in it (on the reveal's clock): a slap arriving
    later is ranked at least ``elapsed - LAG_CAP_MS`` and so could not beat that slap
    — but until then it could, whether or not the slap that opened the window was
    right. Each right slap can extend the window by at most ``LAG_CAP_MS`` past its
    own arrival and each seat slaps once, so a window cannot hang.
    """
    end = state.phase_since + COLLECT_MS
    right = [slap.ranked_ms for slap in state.slaps[state.judged:] if is_right(state, slap)]
    if right:
        end = max(end, state.revealed_at + min(right) + LAG_CAP_MS)
    return end


def slap(state: OinkState, seat: int, cry: int, claimed: int | None, rtt: int | None, now: int) -> OinkState:
    """Record a slap on the current pile state; the first one opens the collection window,
    a right one may keep it open for a later but faster right slap (O4, O6, O9)."""
    elapsed = max(0, now - state.revealed_at)
    record = Slap(seat, cry, elapsed, ranked_reaction(elapsed, claimed, rtt), too_early(elapsed, rtt))
    opened = {} if state.phase is Phase.COLLECT else {"phase": Phase.COLLECT, "phase_since": now}
    state = logged(state, seat, "slapped the pile!", slaps=(*state.slaps, record), **opened)
    end = window_end(state)
    state = replace(state, deadline_at=end)
    if len(state.slaps) == state.seats or end <= now:
        return judge(state, now)
    return state


def judge(state: OinkState, now: int) -> OinkState:
    """Close the collection window: rank its slaps, give the pile, punish mistakes (O5, O6, O9).

    Exact ties keep arrival order (O6). Penalty cards go under the pile before
    it is taken, so the taker wins them too. When nobody was right the card
    stays open to the players who have not slapped it yet, as the rulebook
    gives the pile to a later slapper when the first was wrong; their slaps
    open a new window (our decisions).
    """
    top, under = top_two(flipped(state))
    cry = None if top is None else correct_cry(top, under)
    window = state.slaps[state.judged:]
    order = sorted(range(len(window)), key=lambda i: (window[i].ranked_ms, i))
    ranked = tuple(window[i] for i in order)
    right = [s for s in ranked if cry is not None and s.cry == cry and not s.early]
    taker = right[0].seat if right else None
    pile, under, won, monkeys = state.pile, state.under, list(state.won), list(state.monkeys)
    penalised, monkeyed = [], []
    for wrong in (s for s in ranked if s not in right):
        if state.penalty_card and won[wrong.seat]:
            pile, under = (won[wrong.seat][-1], *pile), under + 1
            won[wrong.seat] = won[wrong.seat][:-1]
            penalised.append(wrong.seat)
        else:
            monkeys[wrong.seat] += 1
            monkeyed.append(wrong.seat)
    verdict = Verdict(state.pile_id, cry, ranked, taker, len(pile) if taker is not None else 0,
                      tuple(monkeyed), tuple(penalised))
    state = replace(state, pile=pile, under=under, won=tuple(won), monkeys=tuple(monkeys), verdict=verdict,
                    judged=len(state.slaps), pile_open=taker is None and len(state.slaps) < state.seats)
    for wrong in (s for s in ranked if s not in right):
        text = "put a card under the pile" if wrong.seat in penalised else "made the monkey — U-a-u-a!"
        reason = "too early" if wrong.early else cry_name(wrong.cry)
        state = logged(state, wrong.seat, f"{text} ({reason})")
    if taker is None:
        if state.flipper is None and not state.pile_open:
            return game_over(logged(state, None, "Nobody took the last pile."), now)
        return replace(state, **waiting(state, state.flipper, now))
    won[taker] = (*won[taker], *pile)
    state = logged(state, taker, f"cried {cry_name(cry)} and took the pile ({plural(len(pile), 'card')})",
                   won=tuple(won), pile=(), under=0, flipper=taker, round=state.round + 1)
    if any(not deck for deck in state.decks):
        return game_over(state, now)
    return replace(state, **waiting(state, taker, now))


def game_over(state: OinkState, now: int) -> OinkState:
    return logged(state, None, "The game is over.", phase=Phase.OVER, deadline_at=None, phase_since=now,
                  pile_open=False)


def clock(state: OinkState, now: int) -> OinkState:
    """The one deadline that is due: the gap ends, the turn timer flips, or the window closes."""
    if state.phase is Phase.COLLECT:
        return judge(state, now)
    if state.phase is Phase.FLIP:
        assert state.flipper is not None  # FLIP only while someone has cards to flip
        return flip(state, state.flipper, now, timed_out=True)
    if state.flipper is None:
        return game_over(logged(state, None, "Nobody slapped the last card."), now)
    return open_flipping(state, now)
