"""The table page's arrangement of one viewer's Snout! view: what ``snout/table.html`` draws.

Pure Python (no Django): it regroups the view and the viewer's legal actions —
the other seats from the viewer's left, what the last toss did to each hand,
the prompt and its buttons, the round's shown hands and the score sheet — so
the template stays free of logic. Nothing here adds information the view does
not already give this viewer.
"""
from __future__ import annotations

from games.core.cards import movers, next_seat, plural, word_list
from games.snout.pigs import PIG_BY_KEY, PIGS, describe
from games.snout.templatetags.chart import COLOURS

PILE_SHOWN = 3
BACKS_SHOWN = 6
ENDS = {
    "out": "went out",
    "jowler": "held the Leaning Jowler when it was tossed",
    "early_snout": "held the fewest points when Snout! was called",
}


def present(view: dict, legal: list[dict], players: list[dict], seat: int | None) -> dict:
    names = {player["index"]: player["name"] for player in players}
    seats = view["seats"]
    order = [next_seat(seat, seats, step) for step in range(1, seats)] if seat is not None else list(range(seats))
    kinds = {action["type"]: action for action in legal}
    revealed = view["hands"] is not None
    picker = _picker(view, names, seat) if "pass" in kinds and seat is not None else None
    return {
        "phase": view["phase"],
        "round": view["round"],
        "target": view["target"],
        "dealer": names.get(view["dealer"], ""),
        "odds": "a real pig's odds" if view["options"]["toss_odds"] == "kern" else "the deck's odds",
        "early_snout": view["options"]["early_snout"],
        "others": [_seat(view, other, names) for other in order],
        "me": _seat(view, seat, names) if seat is not None else None,
        "left": names.get(next_seat(seat, seats), "") if seat is not None else "",
        "right": names.get(next_seat(seat, seats, -1), "") if seat is not None else "",
        "pigsty": view["pigsty"],
        "pigsty_backs": range(min(view["pigsty"], 3)),
        "pile": view["pig_pile"][-PILE_SHOWN:],
        "pile_count": len(view["pig_pile"]),
        "pile_tally": _tally(card["pig"] for card in view["pig_pile"]),
        "toss": _toss(view, movers(players, seat)),
        "prompt": _prompt(view, kinds, names, seat),
        "actions": _actions(kinds, view),
        "picker": picker,
        "my_pass": _named(view["my_pass"]) if view["phase"] == "pass" else "",
        "received": _named(view["received"]) if view["toss"] is None else "",
        "hand": _hand(view["hand"], picker),
        "hand_count": sum(len(group["cards"]) for group in view["hand"]),
        "hand_points": view["hand_points"],
        "result": _result(view, names) if revealed and view["rounds"] else None,
        "sheet": _sheet(view, names),
    }


def _seat(view: dict, index: int, names: dict) -> dict:
    toss = view["toss"]
    return {
        "seat": index,
        "name": names.get(index, f"Seat {index + 1}"),
        "hand_size": view["hand_sizes"][index],
        "backs": range(min(view["hand_sizes"][index], BACKS_SHOWN)),
        "score": view["scores"][index],
        "is_dealer": view["dealer"] == index,
        "has_pig": view["phase"] in ("toss", "snout_window") and view["tosser"] == index,
        "passed": view["passed"][index] if view["phase"] == "pass" else None,
        "done": view["done"][index] if view["phase"] in ("snout_window", "round_over") else None,
        "did": _did(toss, index) if toss else "",
    }


def _did(toss: dict, index: int) -> str:
    """What the last toss did to one seat's hand (S4 steps 2 and 3)."""
    pig = PIG_BY_KEY[toss["pig"]]
    if toss["discards"][index]:
        return f"discarded {describe(pig, toss['discards'][index])}"
    return {"hidden": "drew a card", "match": f"drew {describe(pig)} and discarded it"}.get(toss["draws"][index], "")


def _toss(view: dict, who: dict) -> dict | None:
    toss = view["toss"]
    if toss is None:
        return None
    lines = []
    for index in [next_seat(toss["seat"], view["seats"], step) for step in range(view["seats"])]:
        did = _did(toss, index)
        if did:
            lines.append({"name": who.get(index, ""), "text": did})
    return {**toss, "tosser": who.get(toss["seat"], ""),
            "art": f"snout-{toss['pig']}", "lines": lines}


def _tally(keys) -> list[dict]:
    counted = [0] * len(PIGS)
    for key in keys:
        counted[PIG_BY_KEY[key]] += 1
    return [{"pig": pig.key, "name": pig.plural if count > 1 else pig.name, "count": count}
            for pig, count in zip(PIGS, counted) if count]


def _named(keys: list[str]) -> str:
    """"a Razorback and two Simple Siders" for passed or received positions."""
    parts = [describe(PIG_BY_KEY[item["pig"]], item["count"]) for item in _tally(keys)]
    if len(parts) > 1:
        return ", ".join(parts[:-1]) + " and " + parts[-1]
    return "".join(parts)


def _prompt(view: dict, kinds: dict, names: dict, seat: int | None) -> str:
    phase = view["phase"]
    tosser = names.get(view["tosser"], "")
    if phase == "pass":
        if "pass" in kinds and seat is not None:
            return f"Choose three cards to pass to {names.get(next_seat(seat, view['seats']), '')}."
        waiting = [names.get(index, "") for index, done in enumerate(view["passed"]) if not done]
        return f"Waiting for {word_list(waiting)} to choose." if waiting else "Passing…"
    if phase == "toss":
        return "You have the pig: toss it!" if "toss" in kinds else f"{tosser} has the pig."
    if phase == "snout_window":
        if "snout" in kinds:
            return f"Call Snout! with {plural(view['hand_points'], 'point')} in hand, or play on."
        return f"Snout! may still be called. {tosser} has the pig next."
    if phase == "round_over":
        if "next_round" in kinds:
            return f"Round {view['round']} is scored. Read the hands, then deal on."
        waiting = [names.get(index, "") for index, done in enumerate(view["done"]) if not done]
        return f"Waiting for {word_list(waiting)} to deal on."
    best = max(view["scores"])
    leaders = ["You" if index == seat else names.get(index, "") for index, score in enumerate(view["scores"])
               if score == best]
    return f"Game over: {word_list(leaders)} {'win' if len(leaders) > 1 or leaders == ['You'] else 'wins'} with {best} points."



def _actions(kinds: dict, view: dict) -> list[dict]:
    """Buttons for every legal action but the pass (which has its own picker), in a fixed order."""
    labels = {"toss": "Toss the pig", "snout": f"Snout! ({plural(view['hand_points'], 'point')} in hand)",
              "play_on": "Play on", "next_round": "Next round"}
    return [{"action": kinds[kind], "label": label, "kind": kind} for kind, label in labels.items() if kind in kinds]


def highest_three(hand: list[dict]) -> list[dict]:
    """The three highest cards of a view's grouped hand (ties: the higher id), in id order:
    what the timer would pass, and what the picker is preset to."""
    cards = sorted((card for group in hand for card in group["cards"]),
                   key=lambda card: (card["points"], card["card"]))
    return sorted(cards[-3:], key=lambda card: card["card"])


def _picker(view: dict, names: dict, seat: int) -> dict:
    """S3's pass, preset to what the timer would pass (the three highest cards) so one tap sends it."""
    chosen = highest_three(view["hand"])
    return {
        "action": {"type": "pass", "pigs": [card["pig"] for card in chosen]},
        "chosen": {card["card"] for card in chosen},
        "to": names.get(next_seat(seat, view["seats"]), ""),
    }


def _hand(groups: list[dict], picker: dict | None) -> list[dict]:
    """The hand grouped by position; while passing, each card says whether the picker holds it."""
    if picker is None:
        return groups
    return [{**group, "cards": [{**card, "chosen": card["card"] in picker["chosen"]} for card in group["cards"]]}
            for group in groups]


def _result(view: dict, names: dict) -> dict:
    """The last round, with every hand shown (S11) and what each seat scored."""
    last = view["rounds"][-1]
    rows = []
    for index, cards in enumerate(view["hands"]):
        rows.append({
            "name": names.get(index, ""), "cards": cards, "points_in_hand": last["hand_points"][index],
            "scored": last["points"][index], "total": last["totals"][index],
            "winner": index in last["winners"], "caller": last["caller"] == index,
        })
    winners = word_list([names.get(index, "") for index in last["winners"]])
    how = ENDS[last["end"]]
    if last["end"] == "early_snout":
        caller = names.get(last["caller"], "")
        how = f"{how} by {caller}" if last["caller"] not in last["winners"] else how
    return {"number": last["number"], "headline": f"{winners} {how}.", "rows": rows,
            "over": view["phase"] == "game_over"}


def _sheet(view: dict, names: dict) -> dict:
    """The running score sheet: one line per player, one column per round, then the total."""
    rounds = view["rounds"]
    best = max(view["scores"])
    return {
        "rounds": [result["number"] for result in rounds],
        "names": [names.get(index, "") for index in range(view["seats"])],
        "totals_by_round": [result["totals"] for result in rounds],
        "players": [{
            "name": names.get(index, ""),
            "colour": COLOURS[index % len(COLOURS)],
            "cells": [{"points": result["points"][index], "winner": index in result["winners"]} for result in rounds],
            "total": view["scores"][index],
            "leader": bool(rounds) and view["scores"][index] == best,
        } for index in range(view["seats"])],
    }
