"""Template tags of the Snout! table page (docs/platform.md §5).

- ``{% snout_board as board %}``: the presenter's arrangement of the context.
- ``{% snout_chart board.sheet view.target as chart %}``: the score chart's SVG geometry.
- ``{% pass_form picker version %}``: the pass picker's form, with the same two
  fields as ``action_form``; snout.js rewrites its ``action`` as cards are tapped.
"""
import json

from django import template
from django.utils.html import format_html

from games.snout.templatetags.board import present
from games.snout.templatetags.chart import geometry

register = template.Library()


@register.simple_tag(takes_context=True)
def snout_board(context):
    return present(context["view"], context.get("legal") or [], context.get("players") or [], context.get("seat"))


@register.simple_tag
def snout_chart(sheet, target):
    return geometry(sheet["totals_by_round"], sheet["names"], target)


@register.simple_tag
def pass_form(picker, version):
    return format_html(
        '<form ws-send class="action-form sn-pass" data-to="{}"><input type="hidden" name="version" value="{}">'
        '<input type="hidden" name="action" value="{}">'
        '<button type="submit" class="sn-pass__send">Pass these 3 to <bdi>{}</bdi></button></form>',
        picker["to"], version, json.dumps(picker["action"], separators=(",", ":")), picker["to"])
