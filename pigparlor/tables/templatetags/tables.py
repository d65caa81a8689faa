"""``{% action_form action version label %}``: a button that sends one legal action.

It renders a ``ws-send`` form with the two fields every table socket reads:
``version`` (the version the action answers) and ``action`` (its JSON).
"""
import json

from django import template
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def action_form(action, version, label, css_class=""):
    return format_html(
        '<form ws-send class="action-form{}"><input type="hidden" name="version" value="{}">'
        '<input type="hidden" name="action" value="{}"><button type="submit">{}</button></form>',
        f" {css_class}" if css_class else "", version, json.dumps(action, separators=(",", ":")), label)
