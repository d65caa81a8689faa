"""Cutting rendered HTML into out-of-band swaps, and the action_form tag."""
import json

from django.template import Context, Template

from pigparlor.tables.fragments import out_of_band, split_top_level


def test_top_level_elements_are_cut_by_id_with_nesting_void_tags_and_comments():
    html = ('<div id="a" data-x="a>b"><p>hi <b>x</b></p><!-- <div> --></div>\n text '
            "<section id='b'>\n<input type=hidden name=v value=3><br>\n</section>"
            '<hr id="c"><span>no id</span><img id="d"/><svg id="e"><path d="M0"/></svg>'
            '<script id="f">if (a < b) { x("</div>") }</script>')
    parts = split_top_level(html)
    assert list(parts) == ["a", "b", "c", "d", "e", "f"]
    assert parts["a"] == '<div id="a" data-x="a>b"><p>hi <b>x</b></p><!-- <div> --></div>'
    assert parts["b"].endswith("</section>") and parts["e"].endswith("</svg>")


def test_out_of_band_marks_the_opening_tag():
    assert out_of_band('<div id="a"><p>x</p></div>') == '<div hx-swap-oob="true" id="a"><p>x</p></div>'
    assert out_of_band('<hr id="c">') == '<hr hx-swap-oob="true" id="c">'


def test_action_form_sends_the_version_and_the_action_json_escaped():
    html = Template("{% load tables %}{% action_form action 7 label %}").render(
        Context({"action": {"type": "say", "text": '"<hi>"'}, "label": "<Say>"}))
    assert html.startswith('<form ws-send class="action-form">')
    assert '<input type="hidden" name="version" value="7">' in html
    assert "&lt;Say&gt;" in html and "<Say>" not in html and "&lt;hi&gt;" in html
    value = html.split('name="action" value="')[1].split('"><button')[0]
    assert json.loads(value.replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">")
                      .replace("&#x27;", "'").replace("&amp;", "&")) == {"type": "say", "text": '"<hi>"'}
