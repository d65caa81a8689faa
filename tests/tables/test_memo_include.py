"""``{% memo_include %}`` and the slots ``html_parts`` cuts around (issue 14): the
parts a browser seat receives are exactly what rendering every partial in place
gives, for every game and viewer."""
import pytest
from django.template import Context, Engine, TemplateSyntaxError
from django.utils.safestring import mark_safe

from pigparlor.tables import rendering
from pigparlor.tables.fragments import MEMO_SLOTS, SHARED_BLOCKS, fill_slots, split_top_level
from pigparlor.tables.templatetags import tables as tags
from tests.support.tables import bot_game_snapshots

PARTIALS = {
    "card.html": '<span class="card" data-n="{{ card.n }}">{{ card.name }}{% if size %} ({{ size }}){% endif %}</span>',
    "memo.html": '{% load tables %}<div id="a">{% for card in cards %}{% memo_include "card.html" card=card %}'
                 '{% endfor %}</div><p id="b">{{ note }}</p>',
    "shared.html": '{% load tables %}<div id="a">{% for_every_viewer "a" %}{% for card in cards %}'
                   '{% memo_include "card.html" card=card %}{% endfor %}{% endfor_every_viewer %}</div>'
                   '<p id="b">{{ note }}</p>',
    "plain.html": '<div id="a">{% for card in cards %}{% include "card.html" with card=card only %}'
                  '{% endfor %}</div><p id="b">{{ note }}</p>',
}


@pytest.fixture
def engine():
    tags.MEMO.items.clear()
    return Engine(loaders=[("django.template.loaders.locmem.Loader", PARTIALS)],
                  libraries={"tables": "pigparlor.tables.templatetags.tables"})


def render(engine, name, **values):
    return engine.get_template(name).render(Context(values))


def test_a_memoised_partial_renders_as_an_include_with_only_its_values(engine):
    cards = [{"n": 1, "name": "Ace"}, {"n": 2, "name": "<Two>"}]
    assert render(engine, "memo.html", cards=cards, note="x") == render(engine, "plain.html", cards=cards, note="x")
    # Remembered by value: a changed card renders anew, an unchanged one the same.
    cards[1]["name"] = "Three"
    again = render(engine, "memo.html", cards=cards, note="y")
    assert again == render(engine, "plain.html", cards=cards, note="y") and "Three" in again and "Two" not in again
    # The outer context's values do not leak in (``size`` is not passed).
    assert "(" not in render(engine, "memo.html", cards=cards, note="", size="big")


def test_marked_safe_and_plain_text_are_remembered_apart(engine):
    plain = render(engine, "memo.html", cards=[{"n": 1, "name": "<b>x</b>"}], note="")
    safe = render(engine, "memo.html", cards=[{"n": 1, "name": mark_safe("<b>x</b>")}], note="")
    assert "&lt;b&gt;x&lt;/b&gt;" in plain and "<b>x</b>" in safe


def test_slots_are_cut_around_and_filled_back_and_cannot_be_forged(engine):
    cards = [{"n": 1, "name": "Ace"}, {"n": 2, "name": "Two"}]
    forged = "<\ue0000>"  # what a slot looks like, as a player's text
    slots = []
    html = engine.get_template("memo.html").render(Context({"cards": cards, "note": forged, MEMO_SLOTS: slots}))
    assert len(slots) == 2 and "card" not in html  # the partials' HTML waits in the list
    parts = fill_slots(split_top_level(html), slots)
    assert parts == split_top_level(render(engine, "plain.html", cards=cards, note=forged))
    assert "&lt;\ue0000&gt;" in parts["b"] and "Ace" not in parts["b"]


def test_a_block_for_every_viewer_is_rendered_once_per_shared_dict(engine):
    """``{% for_every_viewer %}``: the first render of a version keeps the block, later
    viewers of that version are given it (even were their context to differ); without
    a dict (a page render, a test) it renders in place."""
    cards = [{"n": 1, "name": "Ace"}]
    blocks = {}
    first = render(engine, "shared.html", cards=cards, note="you", **{SHARED_BLOCKS: blocks})
    assert first == render(engine, "plain.html", cards=cards, note="you") and set(blocks) == {"a"}
    later = render(engine, "shared.html", cards=[{"n": 2, "name": "Two"}], note="me", **{SHARED_BLOCKS: blocks})
    assert "Ace" in later and "Two" not in later and "me" in later  # the block given, the rest rendered
    assert "Two" in render(engine, "shared.html", cards=[{"n": 2, "name": "Two"}], note="")  # no dict: in place
    assert "Two" in render(engine, "shared.html", cards=[{"n": 2, "name": "Two"}], note="", **{SHARED_BLOCKS: {}})


def test_a_shared_block_is_one_slot_with_its_partials_in_place(engine):
    cards = [{"n": 1, "name": "Ace"}, {"n": 2, "name": "Two"}]
    blocks, slots = {}, []
    html = engine.get_template("shared.html").render(
        Context({"cards": cards, "note": "x", MEMO_SLOTS: slots, SHARED_BLOCKS: blocks}))
    assert len(slots) == 1 and "<\ue000" not in slots[0] and slots[0] == blocks["a"]
    assert fill_slots(split_top_level(html), slots) == split_top_level(render(engine, "plain.html", cards=cards, note="x"))


def test_for_every_viewer_takes_one_quoted_name():
    bare = Engine(libraries={"tables": "pigparlor.tables.templatetags.tables"})
    for source in ('{% for_every_viewer %}x{% endfor_every_viewer %}', '{% for_every_viewer name %}x{% endfor_every_viewer %}',
                   '{% for_every_viewer "a" "b" %}x{% endfor_every_viewer %}', '{% for_every_viewer "a" %}x'):
        with pytest.raises(TemplateSyntaxError):
            bare.from_string("{% load tables %}" + source)


def test_memo_include_names_a_quoted_template_then_pairs(engine):
    with pytest.raises(TemplateSyntaxError):
        Engine(libraries={"tables": "pigparlor.tables.templatetags.tables"}).from_string(
            "{% load tables %}{% memo_include card %}")
    with pytest.raises(TemplateSyntaxError):
        Engine(libraries={"tables": "pigparlor.tables.templatetags.tables"}).from_string(
            '{% load tables %}{% memo_include "card.html" card %}')


@pytest.mark.parametrize("slug", ["oink", "pigpile", "piggypiggy", "snout"])
def test_every_viewers_parts_are_what_rendering_in_place_gives(slug):
    """The parts with slots filled equal the parts cut from a plain render (no slots, no
    shared blocks), for the spectator and every seat, over a whole seeded bot game; each
    version is rendered first for another viewer, whose ``{% for_every_viewer %}`` blocks
    the others are then given."""
    rendering.HTML.items.clear()
    checked = 0
    viewers = (None, 0, 1, 2, 3)
    for at, snapshot in enumerate(bot_game_snapshots(slug, seed=5, name="Player <{}>")[::7]):
        for viewer in viewers[at % 5:] + viewers[:at % 5]:
            ctx = rendering.context(snapshot, viewer)
            plain = split_top_level(rendering.render_table_template(rendering.SHELL_TEMPLATE, ctx))
            plain.update(split_top_level(rendering.render_table_template(snapshot.game.table_template, ctx)))
            parts = rendering.html_parts(snapshot, viewer)
            assert parts == plain, (slug, snapshot.table.version, viewer)
            checked += 1
        assert snapshot.shared_blocks  # the blocks were shared, not rendered in place
    assert checked > 20


def test_log_lines_are_the_log_newest_first_escaped_as_the_template_did():
    """``{% log_lines %}``: each line's HTML is remembered, but a marked-safe text (the
    page's named lines) and the same characters as plain text stay apart."""
    tags.LOG_LINES.items.clear()
    log = [{"n": 1, "who": "Ana <3", "text": mark_safe("played <b>two 5s</b>")},
           {"n": 2, "who": None, "text": "<b>Round 2</b> & on"}]
    expected = ('<li data-n="2">&lt;b&gt;Round 2&lt;/b&gt; &amp; on</li>'
                '<li data-n="1"><b><bdi>Ana &lt;3</bdi></b> played <b>two 5s</b></li>')
    assert tags.log_lines(log) == expected and tags.log_lines(log) == expected  # a miss, then a hit
    plain = [{"n": 1, "who": "Ana <3", "text": "played <b>two 5s</b>"}]
    assert tags.log_lines(plain) == '<li data-n="1"><b><bdi>Ana &lt;3</bdi></b> played &lt;b&gt;two 5s&lt;/b&gt;</li>'
    assert tags.log_lines([]) == ""
