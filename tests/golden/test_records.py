"""The golden records' own machinery: what the normaliser keeps, and that a difference
is named down to its version, viewer and element."""
from tests.golden.records import table_differences, table_record
from tests.golden.tables import Case, Digests, Sent, normalise_html

CASE = Case("snout", 2, 7)


def test_the_normaliser_keeps_the_content_and_drops_only_spacing_and_static_hashes():
    html = ('<section id="sn-hand">\n  <p class="a  b">Your  hand\n <bdi>ana</bdi></p>\n'
            '  <svg><use href="/static/img/cards.fa2fc863c41b.svg#snout-sider"></use></svg>\n</section>\n')
    assert normalise_html(html) == ('<section id="sn-hand"><p class="a b">Your hand <bdi>ana</bdi></p>'
                                    '<svg><use href="/static/img/cards.svg#snout-sider"></use></svg></section>')
    assert normalise_html('<span data-card="12">12</span>') != normalise_html('<span data-card="13">12</span>')


def game(changed_log_at: int | None = None, frame_at: int | None = None) -> tuple[list[Sent], Digests]:
    """Three versions of a two-seat table; optionally seat 1's log or seat 0's frame differs at one version."""
    digests, sent = Digests(), []
    for version in (1, 2, 3):
        parts, frames = {}, {}
        for viewer in CASE.viewers:
            log = f"<ol id='table-log'><li>move {version}</li></ol>"
            if version == changed_log_at and viewer == 1:
                log = log.replace("move", "moved")
            parts[viewer] = {"table-log": digests.of_html(log), "sn-css": digests.of_html("<link id='sn-css'>")}
            frame = f'{{"version":{version},"seat":{viewer}}}' + (" " if version == frame_at and viewer == 0 else "")
            frames[viewer] = digests.of_text(frame)
        sent.append(Sent(version, {"round": version}, parts, frames))
    return sent, digests


def test_the_same_game_has_no_differences():
    sent, digests = game()
    assert table_differences(CASE, table_record(CASE, sent), table_record(CASE, sent), sent, digests.previews) == []


def test_a_changed_element_is_named_by_version_viewer_and_element():
    before, _ = game()
    after, digests = game(changed_log_at=2)
    found = table_differences(CASE, table_record(CASE, before), table_record(CASE, after), after, digests.previews)
    assert [line.split(";")[0] for line in found] == [
        "snout at 2 seats, seed 7, version 2, viewer seat 1, element #table-log: the HTML changed"]
    assert "moved 2" in found[0]


def test_a_changed_frame_is_named_by_version_and_viewer():
    before, _ = game()
    after, digests = game(frame_at=3)
    found = table_differences(CASE, table_record(CASE, before), table_record(CASE, after), after, digests.previews)
    assert [line.split(";")[0] for line in found] == [
        "snout at 2 seats, seed 7, version 3, viewer seat 0: the JSON API frame changed"]
