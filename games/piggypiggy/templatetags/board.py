"""The table page's arrangement of one viewer's Piggy Piggy view: what ``piggypiggy/table.html`` draws.

Pure Python (no Django): it regroups the view and the viewer's legal actions —
the seats from the viewer round the table, each stack with its food total and
the goat targets among its cards, the pigs and where they sit, the hand by
food with its play, the PG5 prompt — so the template stays free of logic.
Nothing here adds information the view does not already give this viewer.
"""
from __future__ import annotations

from games.core.cards import movers, next_seat, word_list
from games.piggypiggy.decks import DECK_OPTION
from games.piggypiggy.state import DROUGHT_ROUNDS, WIN_POINTS

# The shared card art (static/img/cards.svg, static/css/cards.css) names foods in the singular.
ART = {"ice-cream": "ice-cream", "tacos": "taco", "donuts": "donut", "fries": "fries", "cookies": "cookie"}
STEPS = ((1, "Play"), (2, "Steal"), (3, "Draw"), (4, "Score"))
DECK_LABELS = dict(DECK_OPTION.labelled_choices())  # what the table chip calls each deck


def present(view: dict, legal: list[dict], players: list[dict], seat: int | None) -> dict:
    names = {player["index"]: player["name"] for player in players}
    seats = len(view["hand_sizes"])
    names = {index: names.get(index, f"Player {index + 1}") for index in range(seats)}
    order = [next_seat(seat, seats, step) for step in range(1, seats)] if seat is not None else list(range(seats))
    targets = {(action["seat"], action["card"]): action for action in legal if action["type"] == "goat"}
    plays = {action["food"]: action for action in legal if action["type"] == "play_food"}
    adds = [action for action in legal if action["type"] == "add"]
    end = next((action for action in legal if action["type"] == "end_play"), None)
    foods = {food["food"]: food for food in view["foods"]}
    return {
        "deck": view["deck"],
        "deck_label": DECK_LABELS[view["deck"]["key"]],
        "target": WIN_POINTS,
        "turn_number": view["turn_number"],
        "draw_pile": view["draw_pile"],
        "discards": view["discards"],
        "drought": _drought(view),
        "steps": _steps(view),
        "pigs": [_pig(view, food, names, seat) for food in range(len(view["pigs"]))],
        "others": [_seat(view, other, names, targets) for other in order],
        "me": _seat(view, seat, names, targets) if seat is not None else None,
        "hand": _hand(view["hand"] or [], plays, foods) if seat is not None else [],
        "goats": sum(1 for card in view["hand"] or [] if card["goat"]),
        "can_goat": bool(targets),
        "end": end,
        "inherit": _inherit(view, adds, foods) if adds else None,
        "prompt": _prompt(view, legal, names, foods, seat),
        "scored": _scored(view, movers(players, seat)),
        "result": _result(view, names),
    }


def card_face(card: dict) -> dict:
    if card["goat"]:
        return {**card, "art": "goat", "tint": "goat", "label": "", "title": "Goat"}
    art = ART.get(card["food"], card["food"])
    amount = card["amount"]
    return {**card, "art": art, "tint": art, "label": str(amount), "title": f"{amount} {card['name']}"}


def _steps(view: dict) -> list[dict]:
    """PG2–PG8: step 1 is the only one with choices; steps 2–4 run the moment it ends."""
    step = view["step"]
    if step is None:
        return []
    return [{"n": n, "label": label, "active": n == step} for n, label in STEPS]


def _pig(view: dict, food: int, names: dict, seat: int | None) -> dict:
    """A pig, where it sits, and for a player the food race it follows (PG6): their stack
    against the biggest of the others', so the decision needs no scrolling on a phone."""
    pig = view["pigs"][food]
    holder = pig["holder"]
    where = "in the middle" if holder is None else ("with you" if holder == seat else f"with {names[holder]}")
    race = None
    if seat is not None:
        totals = [stacks[food]["total"] for stacks in view["stacks"]]
        best = max((total for other, total in enumerate(totals) if other != seat), default=0)
        if totals[seat] or best:
            race = {"yours": totals[seat], "best": best}
    return {**pig, "where": where, "is_yours": holder is not None and holder == seat, "race": race}


def _seat(view: dict, index: int, names: dict, targets: dict) -> dict:
    """One player's public side of the table (PG11): stacks with totals, pigs, points, hand size."""
    held = {pig["food"] for pig in view["pigs"] if pig["holder"] == index}
    stacks = []
    for stack, food in zip(view["stacks"][index], view["foods"]):
        if not stack["cards"]:
            continue
        cards = [{**card_face(card), "target": targets.get((index, card["card"]))} for card in stack["cards"]]
        stacks.append({**food, "art": ART.get(food["food"], food["food"]), "total": stack["total"],
                       "cards": cards, "has_pig": food["food"] in held})
    points = view["points"][index]
    point_cards = [card_face(card) for card in points["cards"]]
    return {
        "index": index,
        "name": names[index],
        "is_current": view["phase"] != "over" and view["current"] == index,
        "is_prompted": view["prompt"] is not None and view["prompt"]["seat"] == index,
        "hand_size": view["hand_sizes"][index],
        "points": points["count"],
        "pips": [card["tint"] for card in point_cards] + [""] * (WIN_POINTS - len(point_cards)),
        "stacks": stacks,
        "has_targets": any(card["target"] for stack in stacks for card in stack["cards"]),
        "is_winner": view["winner"] == index,
    }


def _hand(hand: list[dict], plays: dict, foods: dict) -> list[dict]:
    """The hand by food in deck order, goats last; each food group with its PG2 play if legal."""
    groups: dict = {}
    for card in hand:
        groups.setdefault(card["food"], []).append(card_face(card))
    ordered = [key for key in foods if key in groups] + ([None] if None in groups else [])
    result = []
    for key in ordered:
        cards = groups[key]
        total = sum(card["amount"] for card in cards)
        play = plays.get(key)
        label = f"Play {total} {foods[key]['name']}" if play else ""
        result.append({"food": key, "cards": cards, "play": play, "label": label, "goat": key is None})
    return result


def _inherit(view: dict, adds: list[dict], foods: dict) -> dict:
    """PG5's prompt for the new holder: the matching cards, all preselected, or none."""
    food = foods[view["prompt"]["food"]]
    everything = max(adds, key=lambda action: len(action["cards"]))
    matching = [card_face(card) for card in view["hand"] if card["card"] in everything["cards"]]
    return {"food": food, "cards": matching, "all": everything,
            "none": next(action for action in adds if not action["cards"]),
            "total": sum(card["amount"] for card in matching)}


def _prompt(view: dict, legal: list[dict], names: dict, foods: dict, seat: int | None) -> str:
    if view["phase"] == "over":
        return ""
    prompt = view["prompt"]
    if prompt is not None:
        food = foods[prompt["food"]]
        if prompt["seat"] == seat:
            return f"You took the {food['colour']} pig! Add matching {food['name']} cards to that stack?"
        return f"{names[prompt['seat']]} took the {food['colour']} pig and may add {food['name']} cards."
    if not legal:
        return f"{names[view['current']]} is playing step 1."
    kinds = {action["type"] for action in legal}
    if "play_food" in kinds:
        text = "Play one food — all your cards of it"
        return text + (", and goats before or after." if "goat" in kinds else ".")
    if "goat" in kinds:
        return "Food played. Play goats, or end step 1."
    return "Nothing more to play: end step 1 to steal, draw and score."


def _scored(view: dict, labels: dict) -> dict | None:
    """PG8, PG11: the cards the last player scored after drawing, shown to everyone."""
    scored = view["scored"]
    if scored is None:
        return None
    count = len(scored["cards"])
    return {"who": labels.get(scored["seat"], f"Player {scored['seat'] + 1}"), "count": count,
            "cards": [card_face(card) for card in scored["cards"]],
            "total": view["points"][scored["seat"]]["count"]}


def _drought(view: dict) -> dict | None:
    """PG10, our decision: once half the rounds the drought allows have gone by without a
    point, everyone sees how near the game is to ending on points."""
    if view["phase"] == "over" or view["dry_rounds"] < DROUGHT_ROUNDS // 2:
        return None
    return {"rounds": view["dry_rounds"], "limit": DROUGHT_ROUNDS}


def _result(view: dict, names: dict) -> dict | None:
    """PG10 (or one of our endings on points): why the game ended, and what split equal points.
    The places and points themselves are the platform's final standings, shown beside."""
    if view["phase"] != "over":
        return None
    points = {index: view["points"][index]["count"] for index in names}
    pigs = {index: sum(1 for pig in view["pigs"] if pig["holder"] == index) for index in names}
    if view["winner"] is not None:
        headline = (f"{names[view['winner']]} has {points[view['winner']]} points: "
                    f"{WIN_POINTS} or more win the game.")
    elif view["ending"] == "drought":
        headline = f"{DROUGHT_ROUNDS} rounds in a row without a point: the game ends on points."
    else:
        headline = "Nobody can score any more: the game ends on points."
    ties = []
    for count in sorted(set(points.values()), reverse=True):
        level = sorted((index for index in names if points[index] == count), key=lambda index: -pigs[index])
        if len(level) > 1 and len({pigs[index] for index in level}) > 1:
            held = ", ".join(f"{names[index]} {pigs[index]}" for index in level)
            ties.append(f"{word_list([names[index] for index in level])} have {count} points each: "
                        f"pigs held split them ({held}).")
    return {"headline": headline, "ties": ties}
