"""Rendering a game's table template straight from an engine state, as the platform would."""
from django.template.loader import render_to_string

from pigparlor.tables.rendering import seat_label


def render_table(engine, state, seat, version=7):
    """The page ``seat`` (None = spectator) gets for ``state``, and the legal actions it offers.

    Without the ``<bdi>`` tags that isolate player names: the game tests read the
    game's words; tests/tables/test_bidi_isolation.py checks every name is isolated."""
    players = [{"index": index, "name": f"Player {index + 1}", "is_bot": False, "is_you": index == seat,
                "connected": True, "label": seat_label(f"Player {index + 1}", index == seat, False)}
               for index in range(state.seats)]
    legal = engine.legal_actions(state, seat) if seat is not None else []
    context = {"view": engine.view(state, seat), "legal": legal, "version": version, "seat": seat, "table": None,
               "players": players, "deadline_ms": None, "now_ms": 0}
    page = render_to_string(f"{engine.slug}/table.html", context)
    return page.replace("<bdi>", "").replace("</bdi>", ""), legal
