"""Template tags of the Piggy Piggy table page (docs/platform.md §5).

- ``{% piggypiggy_board as board %}``: the presenter's arrangement of the context.
- ``{{ action|action_json }}``: an action as the ``action`` field of a ``ws-send``
  form, for the forms whose button is a card (goat targets) or whose action
  piggypiggy.js rewrites (the PG5 picker); ``action_form`` renders the rest.
"""
import json

from django import template

from games.piggypiggy.templatetags.board import present

register = template.Library()


@register.simple_tag(takes_context=True)
def piggypiggy_board(context):
    return present(context["view"], context.get("legal") or [], context.get("players") or [], context.get("seat"))


@register.filter
def action_json(action) -> str:
    return json.dumps(action, separators=(",", ":"))
