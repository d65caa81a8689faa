"""The table page's arrangement of one viewer's view: what ``pigpile/table.html`` draws.

Pure Python (no Django): it only regroups the view and the viewer's legal
actions — cards by number with the counts that may be played, the prompt, the
other seats in play order — so the template stays free of logic. Nothing here
adds information the view does not already give this viewer.
"""
from __future__ import annotations

from games.core.cards import word_list
from games.pigpile.cards import SPECIAL_NAME, WILD, rank_words
from games.pigpile.rules import strongest

PILE_SHOWN = 4
PROMPTS = {
    "play": "Your turn: tap the cards of one number to play them, as many as you like.",
    "pickup": "Nothing fits. Pick up the pig pile.",
    "pickup_faceup": "No face-up card fits: tap one to pick it up with the pile.",
    "slop": "Flip one of your Slop cards — blind.",
    "faceup": "Choose three cards to lay face up.",
}


def present(view: dict, legal: list[dict], players: list[dict], seat: int | None) -> dict:
    names = {player["index"]: player["name"] for player in players}
    seats = view["seats"]
    order = [(seat + step) % seats for step in range(1, seats)] if seat is not None else list(range(seats))
    kinds = {action["type"] for action in legal}
    hand_plays = [action for action in legal if action["type"] == "play" and action["from"] == "hand"]
    flips = [action for action in legal if action["type"] == "slop"]
    table_plays = [action for action in legal if action["type"] in ("play", "pickup_faceup")
                   and action.get("from") != "hand"]
    return {
        "phase": view["phase"],
        "round": view["round"],
        "rounds": view["rounds"],
        "dealer": names.get(view["dealer"], ""),
        "clockwise": view["direction"] == "clockwise",
        "draw_count": view["draw_count"],
        "washed_count": view["washed_count"],
        "pen": view["pen"],
        "others": [_seat(view, other, names) for other in order],
        "me": _seat(view, seat, names) if seat is not None else None,
        "pile": view["pile"][-PILE_SHOWN:],
        "pile_count": len(view["pile"]),
        "pile_hint": _pile_hint(view),
        "prompt": _prompt(view, kinds, names, seat),
        "hand": _groups(view["hand"] or [], hand_plays, "hand") if seat is not None else [],
        "face_up": _groups(view["players"][seat]["face_up"], table_plays, "faceup") if seat is not None else [],
        "pickup": next((action for action in legal if action["type"] == "pickup"), None),
        "slop": [{"action": action, "label": f"Flip Slop card {action['index'] + 1} of {len(flips)} (face down)"}
                 for action in flips],
        "choosing": _choosing(view["hand"] or []) if "faceup" in kinds else None,
        "strongest": _strongest(legal) if "faceup" in kinds else None,
        "results": _results(view, names),
        "standings": [{**row, "name": names.get(row["seat"], "")} for row in view["standings"] or []],
    }


def _seat(view: dict, index: int, names: dict) -> dict:
    player = view["players"][index]
    return {**player, "name": names.get(index, f"Seat {index + 1}"), "is_turn": view["turn"] == index,
            "is_dealer": view["dealer"] == index, "slop_range": range(player["slop_count"]),
            "place_text": {1: "out first", 2: "out second"}.get(player["place"], "")}


def _groups(cards: list[dict], actions: list[dict], where: str) -> list[dict]:
    """Cards of one number together. A group the viewer may play (or, PP15, take back) is one
    control: tapping its cards opens ``plays``, one button per count, each naming its cards."""
    groups: list[dict] = []
    for card in cards:
        if groups and groups[-1]["rank"] == card["rank"]:
            groups[-1]["cards"].append(card)
        else:
            groups.append({"rank": card["rank"], "cards": [card], "plays": []})
    for group in groups:
        rank = group["rank"]
        group["key"] = f"{where}-{_label(rank)}"
        group["name"] = card_name(rank)
        for action in actions:
            if action["rank"] == rank:
                group["plays"].append({"action": action, "label": _play_label(action, where)})
        if group["plays"]:
            verb = "Play" if group["plays"][0]["action"]["type"] == "play" else "Pick up the pile with"
            held = len(group["cards"])
            group["pick_label"] = (f"{verb} {rank_words(rank, 1)}" if held == 1 else
                                   f"{verb} {_plural(rank)}: you have {held}") + " — choose how many"
    return groups


def _play_label(action: dict, where: str) -> str:
    cards = rank_words(action["rank"], action["count"])
    if action["type"] == "pickup_faceup":
        return f"Pick up the pile and {cards}"
    return f"Play {cards}" + (" from your face-up cards" if where == "faceup" else "")


def _choosing(hand: list[dict]) -> list[dict]:
    """PP1: every hand card is a toggle; any three make a legal choice (identical cards are one)."""
    return [{**card, "value": card["rank"], "order": 13 if card["rank"] == WILD else card["rank"],
             "title": card_name(card["rank"])} for card in hand]


def _strongest(legal: list[dict]) -> dict:
    """PP1 in one tap: the three strongest cards, the choice the clock would make (a
    newcomer's first move need not be a puzzle)."""
    action = strongest([action for action in legal if action["type"] == "faceup"])
    names = [card_name(rank) for rank in sorted(action["ranks"], key=lambda rank: 13 if rank == WILD else rank)]
    return {"action": action, "label": f"Lay my strongest three: {word_list(names)}"}


def card_name(rank: int) -> str:
    """A card as a player says it: "5", "8 (Hog Wash)", "Hog Wild"."""
    if rank == WILD:
        return SPECIAL_NAME[WILD]
    return f"{rank} ({SPECIAL_NAME[rank]})" if rank in SPECIAL_NAME else str(rank)


def _plural(rank: int) -> str:
    return "Hog Wilds" if rank == WILD else f"{rank}s"


def _pile_hint(view: dict) -> str:
    if view["phase"] == "over":
        return ""
    if not view["pile"]:
        return "Empty pile: anything goes."
    if view["pile_value"] == 0:
        return "Hog Wild on top: anything goes."
    run = view["run"]
    hint = f"Play {view['pile_value']} or higher, or a Hog Wild."
    if run and run["count"] == 2:
        hint += f" Two {run['rank']}s in a row: one more washes."
    return hint


def _prompt(view: dict, kinds: set, names: dict, seat: int | None) -> str:
    if view["phase"] == "over":
        return "Game over."
    for kind in ("faceup", "slop", "pickup_faceup", "pickup"):
        if kind in kinds:
            return PROMPTS[kind]
    if "play" in kinds:
        return PROMPTS["play"] if view["playing_from"] == "hand" else "Your hand is empty: tap your face-up cards to play them."
    if view["phase"] == "choose":
        return "Waiting for the others to choose…" if seat is not None else "Everyone is choosing face-up cards…"
    where = {"hand": "", "faceup": " from the face-up cards", "slop": " from the Slop"}.get(view["playing_from"], "")
    return f"{names.get(view['turn'], 'Someone')} is playing{where}."


def _results(view: dict, names: dict) -> list[dict]:
    """The round just ended, while the next one's face-up cards are chosen and at the game's
    end; once the next round is played its board is what matters (the log keeps the results)."""
    last = view["last_round"]
    if last is None or view["phase"] == "play":
        return []
    places = dict(zip(last["out"], ("out first", "out second")))
    return [{"name": names.get(index, ""), "pigs": pigs, "cards": cards, "place": places.get(index, "")}
            for index, (pigs, cards) in enumerate(zip(last["pigs"], last["cards"]))]


def _label(rank: int) -> str:
    return "W" if rank == WILD else str(rank)
