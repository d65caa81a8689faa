"""``{% pigpile_board as board %}``: the presenter's arrangement of the table context (docs/platform.md §5)."""
import json

from django import template
from django.utils.html import format_html

from games.pigpile.presenter import present

register = template.Library()


@register.simple_tag(takes_context=True)
def pigpile_board(context):
    return present(context["view"], context.get("legal") or [], context.get("players") or [], context.get("seat"))


@register.simple_tag
def slop_flip(action, version, label):
    """A face-down card that flips that Slop card: the same two fields as ``action_form``."""
    return format_html(
        '<form ws-send class="action-form pp-flip"><input type="hidden" name="version" value="{}">'
        '<input type="hidden" name="action" value="{}">'
        '<button type="submit" class="card card--back" aria-label="{}"></button></form>',
        version, json.dumps(action, separators=(",", ":")), label)
