"""The rules of Snout! as pure functions from state to state (rulings S1–S10).

Each function takes a ``SnoutState`` and the time of the action (ms since
the table started) and returns the next state; none mutates its input.
"""
from __future__ import annotations

import dataclasses
from itertools import combinations_with_replacement

from games.core import Rng
from games.core.cards import deal as take
from games.core.cards import next_seat, plural, remove_cards
from games.core.contract import turn_limit_ms
from games.snout import pigs
from games.snout.pigs import JOWLER, JOWLER_CARD, PIGS, describe
from games.snout.scoring import lowest_hands, round_points
from games.snout.state import Draw, End, Phase, RoundResult, SnoutState, Toss, with_events

HAND_SIZE = 8
PASS_SIZE = 3
TARGET = 100                 # S9
PASS_DEFAULT_MS = 60_000     # S3's timeout when the table has no turn timer
SNOUT_WINDOW_MS = 6_000      # S10's "short window"
ROUND_PAUSE_MS = 20_000      # time to read the scored hands before the next deal


def new_game(seats: int, seed: int, toss_odds: str, early_snout: bool, turn_seconds: int) -> SnoutState:
    """A table after the toss-off for the first deal (S2) and the first deal."""
    blank = SnoutState(
        seats=seats, toss_odds=toss_odds, early_snout=early_snout, turn_seconds=turn_seconds,
        rng=Rng.from_seed(seed), phase=Phase.PASS, round=0, dealer=0, tosser=0,
        hands=((),) * seats, pigsty=tuple(range(len(pigs.DECK))), pig_pile=(),
        passes=((),) * seats, done=(False,) * seats, deadline=None, scores=(0,) * seats,
        tosses=0, last_toss=None, results=(), log=(), log_n=0,
    )
    dealer, rng, events = toss_off(blank.rng, seats, toss_odds)
    state = with_events(dataclasses.replace(blank, rng=rng, dealer=dealer), events)
    return deal(state, 0)


def toss_off(rng: Rng, seats: int, odds: str) -> tuple[int, Rng, list]:
    """S2: everyone tosses; the tied highest toss again until one is highest."""
    events = []
    tossing = list(range(seats))
    while True:
        results = {}
        for seat in tossing:
            pig, rng = pigs.toss(rng, odds)
            results[seat] = PIGS[pig].points
            events.append((seat, f"tossed {describe(pig)} ({PIGS[pig].points}) for the deal"))
        best = max(results.values())
        tossing = [seat for seat in tossing if results[seat] == best]
        if len(tossing) == 1:
            events.append((tossing[0], "deals first"))
            return tossing[0], rng, events


def deal(state: SnoutState, now: int) -> SnoutState:
    """A new round: shuffle all 52 cards, deal 8 each from the dealer's left, start the pass."""
    cards, rng = state.rng.shuffled(range(len(pigs.DECK)))
    seats = state.seats
    dealt, pigsty = take(cards, HAND_SIZE * seats)
    order = [next_seat(state.dealer + i, seats) for i in range(1, seats + 1)]
    hands = [()] * seats
    for seat_index, seat in enumerate(order):
        hands[seat] = tuple(sorted(dealt[seat_index::seats]))
    number = state.round + 1
    pass_ms = state.turn_seconds * 1000 or PASS_DEFAULT_MS
    state = dataclasses.replace(
        state, rng=rng, phase=Phase.PASS, round=number, tosser=state.dealer,
        hands=tuple(hands), pigsty=pigsty, pig_pile=(), passes=((),) * seats,
        done=(False,) * seats, deadline=now + pass_ms, last_toss=None,
    )
    return with_events(state, [(state.dealer, f"deals round {number}")])


def pass_options(hand: tuple[int, ...]) -> list[tuple[int, ...]]:
    """S3: every distinct choice of 3 cards from ``hand``, as sorted position indices."""
    have = pigs.counts(hand)
    present = [pig for pig, count in enumerate(have) if count]
    options = []
    for choice in combinations_with_replacement(present, PASS_SIZE):
        if all(choice.count(pig) <= have[pig] for pig in set(choice)):
            options.append(choice)
    return options


def cards_for(hand: tuple[int, ...], choice: tuple[int, ...]) -> tuple[int, ...]:
    """The cards of ``hand`` that make up a choice of positions (cards of a position are alike)."""
    picked = []
    for pig in sorted(set(choice)):
        picked.extend([card for card in hand if pigs.pig_of(card) == pig][:choice.count(pig)])
    return tuple(sorted(picked))


def timeout_pass(hand: tuple[int, ...]) -> tuple[int, ...]:
    """S3's pick for a slow player: the three highest-valued cards (the Jowler first)."""
    return tuple(sorted(sorted(hand, key=lambda card: (pigs.points([card]), card))[-PASS_SIZE:]))


def choose_pass(state: SnoutState, seat: int, choice: tuple[int, ...], now: int) -> SnoutState:
    passes = list(state.passes)
    passes[seat] = cards_for(state.hands[seat], choice)
    state = with_events(dataclasses.replace(state, passes=tuple(passes)), [(seat, "chose three cards to pass")])
    if all(state.passes):
        return exchange(state, now)
    return state


def pass_timeout(state: SnoutState, now: int) -> SnoutState:
    passes = list(state.passes)
    events: list[tuple[int | None, str]] = []
    for seat, chosen in enumerate(passes):
        if not chosen:
            passes[seat] = timeout_pass(state.hands[seat])
            events.append((seat, "ran out of time; three cards were picked to pass"))
    return exchange(with_events(dataclasses.replace(state, passes=tuple(passes)), events), now)


def exchange(state: SnoutState, now: int) -> SnoutState:
    """S3: all passes happen together, to the left. Then the dealer tosses first (S2)."""
    seats = state.seats
    hands = []
    for seat in range(seats):
        kept = remove_cards(state.hands[seat], state.passes[seat])
        received = state.passes[next_seat(seat, seats, -1)]
        hands.append(tuple(sorted(kept + received)))
    state = dataclasses.replace(state, hands=tuple(hands))
    state = with_events(state, [(None, "Everyone passed three cards to the left.")])
    return start_turn(state, state.dealer, now)


def start_turn(state: SnoutState, tosser: int, now: int) -> SnoutState:
    """The pig is with ``tosser``; the turn timer (S6) tosses for a slow player — without one,
    after the longest wait, so no table waits for ever on one player."""
    return dataclasses.replace(state, phase=Phase.TOSS, tosser=tosser, done=(False,) * state.seats,
                               deadline=now + turn_limit_ms(state.turn_seconds))


def toss_pig(state: SnoutState, now: int) -> SnoutState:
    """S4: one toss, resolved in the rulebook's order."""
    seats = state.seats
    pig, rng = pigs.toss(state.rng, state.toss_odds)
    info = PIGS[pig]
    n = state.tosses + 1
    tosser = state.tosser
    order = [(tosser + i) % seats for i in range(seats)]
    events: list[tuple[int | None, str]] = [(tosser, f"tossed {describe(pig)} — {plural(info.points, 'point')}")]
    state = dataclasses.replace(state, rng=rng, tosses=n)

    # (1) S7: the Leaning Jowler tossed while someone holds the card wins the round at once.
    if pig == JOWLER:
        holder = next((seat for seat in order if JOWLER_CARD in state.hands[seat]), None)
        if holder is not None:
            events.append((holder, "holds the Leaning Jowler — Snout!"))
            record = Toss(n, tosser, pig, (0,) * seats, (Draw.NONE,) * seats, False)
            state = with_events(dataclasses.replace(state, last_toss=record), events)
            return finish_round(state, End.JOWLER, (holder,), None, now)

    # (2) Everyone holding the position discards all of it at once.
    hands = list(state.hands)
    pile = list(state.pig_pile)
    discards = [0] * seats
    for seat in order:
        matched = tuple(card for card in hands[seat] if pigs.pig_of(card) == pig)
        if matched:
            hands[seat] = remove_cards(hands[seat], matched)
            pile.extend(matched)
            discards[seat] = len(matched)
            events.append((seat, f"discarded {describe(pig, len(matched))}"))

    # (3) Those without a match draw one each, clockwise from the tosser (S5 reshuffles).
    pigsty = state.pigsty
    draws = [Draw.NONE] * seats
    reshuffled = False
    for seat in order:
        if discards[seat]:
            continue
        if not pigsty:
            # S5. Its "skip the draw if the Pig Pile is empty too" never happens: nobody who
            # draws holds the tossed position, so its cards are all in the Pigsty or the Pile.
            pigsty, rng = rng.shuffled(pile)
            pile = []
            reshuffled = True
            events.append((None, "The Pig Pile was shuffled into a new Pigsty."))
        card, pigsty = pigsty[0], pigsty[1:]
        if pigs.pig_of(card) == pig:
            pile.append(card)
            draws[seat] = Draw.MATCH
            events.append((seat, f"drew {describe(pig)} and discarded it"))
        else:
            hands[seat] = tuple(sorted(hands[seat] + (card,)))
            draws[seat] = Draw.HIDDEN
            events.append((seat, "drew a card"))

    record = Toss(n, tosser, pig, tuple(discards), tuple(draws), reshuffled)
    state = dataclasses.replace(state, rng=rng, hands=tuple(hands), pigsty=pigsty, pig_pile=tuple(pile),
                                last_toss=record)

    # (4) Empty hands go Snout (S8).
    out = tuple(seat for seat in order if not hands[seat])
    if out:
        events.extend((seat, "went out — Snout!") for seat in out)
        return finish_round(with_events(state, events), End.OUT, tuple(sorted(out)), None, now)

    # (5) The pig passes left; with early_snout, first a window to call Snout (S10).
    state = with_events(state, events)
    if state.early_snout:
        return dataclasses.replace(state, phase=Phase.SNOUT_WINDOW, tosser=next_seat(tosser, seats),
                                   done=(False,) * seats, deadline=now + SNOUT_WINDOW_MS)
    return start_turn(state, next_seat(tosser, seats), now)


def call_snout(state: SnoutState, seat: int, now: int) -> SnoutState:
    """S10: the caller stakes the round on holding the fewest points."""
    held = pigs.points(state.hands[seat])
    state = with_events(state, [(seat, f"called Snout! holding {held} point{'' if held == 1 else 's'}")])
    hand_points = tuple(pigs.points(hand) for hand in state.hands)
    return finish_round(state, End.EARLY_SNOUT, lowest_hands(hand_points), seat, now)


def play_on(state: SnoutState, seat: int, now: int) -> SnoutState:
    """A player lets the S10 window pass; once everyone has, the next toss is due."""
    done = tuple(flag or index == seat for index, flag in enumerate(state.done))
    state = dataclasses.replace(state, done=done)
    if all(done):
        return close_window(state, now)
    return state


def close_window(state: SnoutState, now: int) -> SnoutState:
    return start_turn(state, state.tosser, now)


def finish_round(state: SnoutState, end: End, winners: tuple[int, ...], caller: int | None,
                 now: int) -> SnoutState:
    """Score the round (S7, S8, S10), write the score sheet's line, and end the game at 100 (S9)."""
    hand_points = tuple(pigs.points(hand) for hand in state.hands)
    scored = round_points(hand_points, end, winners, caller)
    totals = tuple(total + points for total, points in zip(state.scores, scored))
    result = RoundResult(
        number=state.round, dealer=state.dealer, end=end, caller=caller, winners=winners,
        hands=tuple(pigs.counts(hand) for hand in state.hands), hand_points=hand_points,
        points=scored, totals=totals,
    )
    events: list[tuple[int | None, str]] = []
    for seat, points in enumerate(scored):
        if points > 0:
            events.append((seat, f"scores {points} point{'' if points == 1 else 's'}"))
        elif points < 0:
            events.append((seat, f"loses {plural(-points, 'point')}"))
    state = dataclasses.replace(state, scores=totals, results=state.results + (result,), done=(False,) * state.seats)
    if max(totals) >= TARGET:
        best = max(totals)
        events.extend((seat, f"wins the game with {plural(best, 'point')}") for seat in range(state.seats) if totals[seat] == best)
        return with_events(dataclasses.replace(state, phase=Phase.GAME_OVER, deadline=None), events)
    return with_events(dataclasses.replace(state, phase=Phase.ROUND_OVER, deadline=now + ROUND_PAUSE_MS), events)


def ready(state: SnoutState, seat: int, now: int) -> SnoutState:
    """A player has read the scores; when all have (or the pause ends) the deal passes left (S2)."""
    done = tuple(flag or index == seat for index, flag in enumerate(state.done))
    state = dataclasses.replace(state, done=done)
    if all(done):
        return next_round(state, now)
    return state


def next_round(state: SnoutState, now: int) -> SnoutState:
    return deal(dataclasses.replace(state, dealer=next_seat(state.dealer, state.seats)), now)
