"""Tags and filters every game's table template may use.

``{% action_form action version label %}``: a button that sends one legal
action. It renders a ``ws-send`` form with the two fields every table socket
reads: ``version`` (the version the action answers) and ``action`` (its JSON).

``{{ sentence|isolate_names:players }}``: a game's sentence with each player's
name in it wrapped in ``<bdi>``.
"""
import json
import re

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe

register = template.Library()


@register.simple_tag
def action_form(action, version, label, css_class=""):
    return format_html(
        '<form ws-send class="action-form{}"><input type="hidden" name="version" value="{}">'
        '<input type="hidden" name="action" value="{}"><button type="submit">{}</button></form>',
        f" {css_class}" if css_class else "", version, json.dumps(action, separators=(",", ":")), label)


@register.filter
def isolate_names(sentence, players):
    """``sentence`` escaped, with every player's name in it inside ``<bdi>``, so
    a right-to-left name cannot reorder the words around it (issue 9 item 10).
    A game's presenter builds sentences such as "Ana is playing" in plain
    Python; the isolation happens here, at the edge, for every game alike."""
    names = sorted({player["name"] for player in players or () if player.get("name")}, key=len, reverse=True)
    sentence = str(sentence)
    if not names:
        return escape(sentence)
    pieces, last = [], 0
    for match in re.finditer("|".join(map(re.escape, names)), sentence):
        pieces += [escape(sentence[last:match.start()]), format_html("<bdi>{}</bdi>", match.group(0))]
        last = match.end()
    return mark_safe("".join(pieces) + escape(sentence[last:]))
