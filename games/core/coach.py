"""Teaching a game at its table: what a player can do now, and a first game's hints.

Pure Python, no Django, like the rules and the bots. Each game's ``coach.py``
exposes ``COACH``, a ``Coach``; the platform registers it with the game and
calls it with one seat's view and that seat's legal actions only, exactly what
a bot sees — so a hint can never tell a player anything their own screen does
not already show.

- ``now(view, legal)``: a sentence or two on what the viewer can do in this
  phase (the "How to play" panel of every table, any viewer, spectators too).
- ``hint(view, legal)``: at a first game with hints (a lesson table), the move
  to make and why, with ``targets``: CSS selectors of the game's table template
  naming what to tap, in order (the page highlights them).
- ``learned(view)``: the lesson's aim is reached (``Lesson.aim``), judged from
  the view alone.

A ``Lesson`` is how a game's first game is dealt: the seats, the table options,
the bots' kind and a fixed ``seed``. The deal comes from that seed through the
engine's own ``start`` (no salts are mixed in), so no rule changes; each game's
tests check that its seed still deals the friendly game it promises.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Hint:
    """One suggestion: ``text`` (the move and why, in the player's words), the legal
    ``action`` it suggests (None: nothing to do but watch), and ``targets``."""

    text: str
    action: dict | None = None
    targets: tuple[str, ...] = ()


@dataclass(frozen=True)
class Lesson:
    """A game's first game with hints: ``seats`` (the learner in seat 0, bots of kind
    ``bot`` in the others), table ``options``, the deal's ``seed``, and its ``aim``
    in one sentence ("Win your first pile.")."""

    seats: int
    seed: int
    bot: str
    aim: str
    options: dict = field(default_factory=dict)


class Coach:
    """Base class of every game's coach (see the module's docstring)."""

    lesson: Lesson

    def now(self, view: dict, legal: list[dict]) -> str:
        raise NotImplementedError

    def hint(self, view: dict, legal: list[dict]) -> Hint | None:
        raise NotImplementedError

    def learned(self, view: dict) -> bool:
        raise NotImplementedError

    def samples(self) -> dict:
        """What the pictures of the "How to play" panel and the rules pages draw, by name:
        cards as the game's views show them, each made with ``picture`` (drawn with the
        game's own card partials), and any list a picture needs."""
        return {}


def picture(card: dict) -> dict:
    """A view's card for a picture: without its id, so a picture never names a real card
    (the leak checks read a page's ``data-card`` ids, games.core.viewcheck)."""
    return {key: value for key, value in card.items() if key != "card"}


def action_value(action: dict) -> str:
    """An action as a table form's ``action`` field holds it (the ``action_form`` tag)."""
    return json.dumps(action, separators=(",", ":"))


def form_button(action: dict, within: str = "#table-socket") -> str:
    """The selector of the submit button of the form that sends ``action``."""
    return f"{within} form:has(> input[name=\"action\"][value='{action_value(action)}']) button[type=submit]"
