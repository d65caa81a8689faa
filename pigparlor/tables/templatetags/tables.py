"""Tags and filters every game's table template may use.

``{% action_form action version label %}``: a button that sends one legal
action. It renders a ``ws-send`` form with the two fields every table socket
reads: ``version`` (the version the action answers) and ``action`` (its JSON).

``{{ sentence|isolate_names:players }}``: a game's sentence with each player's
name in it wrapped in ``<bdi>``.

``{% memo_include "game/_card.html" card=card %}``: a partial rendered once per
process for the values it is given (below).

``{% for_every_viewer "name" %}…{% endfor_every_viewer %}``: rendered once per
version for all the table's viewers (below).

``{% log_lines log %}``: the table log's items, newest first (below).
"""
import json
import pickle
import re

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import SafeData, mark_safe

from pigparlor.tables.fragments import MEMO_SLOTS, SHARED_BLOCKS, slot
from pigparlor.tables.rendering import Lru

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
    names = tuple(sorted({player["name"] for player in players or () if player.get("name")},
                         key=lambda name: (-len(name), name)))  # longest first; a stable key
    sentence = str(sentence)
    if not names:
        return escape(sentence)
    key = (sentence, names)  # a prompt is the same for many versions and viewers (issue 14)
    isolated = ISOLATED.get(key)
    if isolated is None:
        isolated = ISOLATED.put(key, _isolated(sentence, names))
    return isolated


ISOLATED = Lru(4096)


def _isolated(sentence: str, names: tuple[str, ...]) -> str:
    pieces, last = [], 0
    for match in re.finditer("|".join(map(re.escape, names)), sentence):
        pieces += [escape(sentence[last:match.start()]), format_html("<bdi>{}</bdi>", match.group(0))]
        last = match.end()
    return mark_safe("".join(pieces) + escape(sentence[last:]))


# -- {% memo_include %} ----------------------------------------------------------
MEMO = Lru(8192)


def _memo_key(values: dict) -> bytes:
    """The partial's inputs as bytes: equal bytes only for equal values of the same
    types (a marked-safe string pickles apart from a plain one: they render
    differently); a sharing difference can only cost a miss."""
    return pickle.dumps(values, protocol=pickle.HIGHEST_PROTOCOL)


class MemoIncludeNode(template.Node):
    def __init__(self, name: str, extra: dict):
        self.name, self.extra = name, extra

    def render(self, context):
        values = {key: value.resolve(context) for key, value in self.extra.items()}
        try:
            key = (self.name, context.autoescape, context.use_l10n, _memo_key(values))
        except (pickle.PicklingError, TypeError, AttributeError):  # not plain data: render without the memo
            key = None
        html = MEMO.get(key) if key is not None else None
        if html is None:
            partial = context.template.engine.get_template(self.name)
            html = partial.render(template.Context(values, autoescape=context.autoescape,
                                                   use_l10n=context.use_l10n, use_tz=context.use_tz))
            if key is not None:
                MEMO.put(key, html)
        return _as_slot(context, html)


def _as_slot(context, html: str) -> str:
    """``html`` left as a slot where the render cuts around them (``MEMO_SLOTS``), else in place."""
    slots = context.get(MEMO_SLOTS)
    if slots is None:
        return html
    slots.append(html)
    return mark_safe(slot(len(slots) - 1))


@register.tag
def memo_include(parser, token):
    """``{% memo_include "game/_card.html" card=card size="large" %}``: the partial
    rendered with only the values named (as ``{% include … with … only %}``), and
    remembered by them: the same card, seat or chart renders once per process,
    not once per viewer per version (a third of a browser seat's update was
    ``{% include %}``, issue 14). Only for partials whose HTML depends on nothing
    but those values (no request, no version, no viewer unless passed)."""
    bits = token.split_contents()
    if len(bits) < 2 or bits[1][0] not in "\"'" or bits[1][-1] != bits[1][0]:
        raise template.TemplateSyntaxError(f"{bits[0]} takes a quoted template name, then name=value pairs")
    extra = template.base.token_kwargs(bits[2:], parser, support_legacy=False)
    if len(extra) != len(bits) - 2:
        raise template.TemplateSyntaxError(f"{bits[0]}: every value after the name must be name=value")
    return MemoIncludeNode(bits[1][1:-1], extra)


# -- {% for_every_viewer %} ---------------------------------------------------------
class ForEveryViewerNode(template.Node):
    def __init__(self, name: str, nodelist):
        self.name, self.nodelist = name, nodelist

    def render(self, context):
        blocks = context.get(SHARED_BLOCKS)
        if blocks is None:  # a render outside html_parts: in place
            return self.nodelist.render(context)
        html = blocks.get(self.name)
        if html is None:
            with context.push({MEMO_SLOTS: None}):  # partials in place: the block is one slot
                html = mark_safe(self.nodelist.render(context))
            html = blocks.setdefault(self.name, html)  # two render threads: either is the same
        return _as_slot(context, html)


@register.tag
def for_every_viewer(parser, token):
    """``<section id="pp-pile">{% for_every_viewer "pp-pile" %}…{% endfor_every_viewer %}</section>``:
    the block is rendered by the first viewer of a version and given as it is to the
    others (``Snapshot.shared_blocks``), as one slot of the cut (``MEMO_SLOTS``). Only
    for blocks that show every viewer the same (public cards, the log, the score sheet),
    never a hand, a prompt or a "you"; tests/tables/test_memo_include.py renders every
    viewer of seeded games in place and starting from each viewer to hold that. Inside
    an element, never around one: the cut must still see the element's tags."""
    bits = token.split_contents()
    if len(bits) != 2 or bits[1][0] not in "\"'" or bits[1][-1] != bits[1][0]:
        raise template.TemplateSyntaxError(f"{bits[0]} takes one quoted block name")
    nodelist = parser.parse(("endfor_every_viewer",))
    parser.delete_first_token()
    return ForEveryViewerNode(bits[1][1:-1], nodelist)


# -- {% log_lines %} -----------------------------------------------------------------
LOG_LINES = Lru(16384)


@register.simple_tag
def log_lines(log):
    """The log's ``<li>`` items, newest first (``tables/_shell.html``), each line's HTML
    remembered by its number, who and text: a version renders only its new lines. A
    long game's log has hundreds, and rendering them all at every version was a ninth
    of a browser seat's update, the largest single piece (issue 14)."""
    items = []
    for event in reversed(log):
        number, who, text = event.get("n", ""), event.get("who"), event.get("text", "")
        key = (number, who, text, isinstance(text, SafeData), isinstance(who, SafeData))
        html = LOG_LINES.get(key)
        if html is None:
            html = format_html('<li data-n="{}">{}{}</li>', number,
                               format_html("<b><bdi>{}</bdi></b> ", who) if who else "", text)
            LOG_LINES.put(key, html)
        items.append(html)
    return mark_safe("".join(items))
