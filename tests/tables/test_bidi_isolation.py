"""Every name and table title a page shows is isolated from the text around it
(issue 9 item 10): inside ``<bdi>`` (or an element with ``dir``), so a
right-to-left name — or a right-to-left override that got into a name before
names were checked — cannot flip the words next to it."""
from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from games.core.playout import play
from games.core.registry import all_games, get_game
from pigparlor.accounts.models import Profile
from pigparlor.lobby.listing import render_listing
from pigparlor.tables import rendering, services
from pigparlor.tables.models import FINISHED, Table
from tests.support.tables import make_user

NAME = "Zephyrine"
TITLE = "Swillhouse"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class TextCheck(HTMLParser):
    """Collects each piece of page text containing ``needle`` that no isolating element encloses."""

    def __init__(self, needle: str):
        super().__init__()
        self.needle, self.stack, self.bare, self.seen = needle, [], [], 0

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append((tag, tag == "bdi" or "dir" in dict(attrs)))

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        if self.needle not in data or any(tag in ("title", "script") for tag, _ in self.stack):
            return  # a window or tooltip title, not page text
        self.seen += 1
        if not any(isolating for _, isolating in self.stack):
            self.bare.append(data.strip())


def assert_isolated(html: str, needle: str) -> None:
    check = TextCheck(needle)
    check.feed(html)
    assert check.seen, f"{needle!r} is not on the page"
    assert not check.bare, f"{needle!r} shown without <bdi>: {check.bare}"


def test_the_checker_sees_a_bare_name():
    with pytest.raises(AssertionError, match="without <bdi>"):
        assert_isolated(f"<p><b>{NAME}</b> played</p>", NAME)
    assert_isolated(f"<p><b><bdi>{NAME}</bdi></b> played <span dir='auto'>{NAME}</span></p>", NAME)


@pytest.fixture
def host(db):
    ana = make_user("ana")
    Profile.objects.create(user=ana, display_name=NAME)
    return ana


@pytest.mark.django_db
def test_the_lobby_listing_and_the_waiting_room(client, count_game, host):
    table = services.create_table(host=host, game="countgame", seats=3, title=TITLE)
    listing = render_listing(count_game)
    assert_isolated(listing, TITLE), assert_isolated(listing, NAME)
    client.force_login(host)
    room = client.get(reverse("lobby:table", args=[table.pk])).content.decode()
    assert_isolated(room, TITLE), assert_isolated(room, NAME)
    game_page = client.get(reverse("lobby:game", args=["countgame"])).content.decode()
    assert_isolated(game_page, TITLE)


@pytest.mark.django_db
def test_the_table_page_players_turn_log_and_standings(client, count_game, host):
    table = services.create_table(host=host, game="countgame", seats=2, bots=1, title=TITLE)
    spectator = rendering.html_parts(rendering.load_snapshot(table.pk), None)
    assert f"<bdi>{NAME}</bdi>’s turn" in "".join(spectator.values())
    action = count_game.engine.legal_actions(count_game.engine.load(Table.objects.get(pk=table.pk).state), 0)[0]
    services.act(table.pk, 0, action, 1, user=host)
    client.force_login(host)
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert_isolated(page, TITLE), assert_isolated(page, NAME)
    assert f"<b><bdi>{NAME}</bdi></b>" in page  # the log
    Table.objects.filter(pk=table.pk).update(status=FINISHED, outcome={"ranks": [1, 2], "scores": [10, 4]})
    rendering.SNAPSHOTS.items.clear(), rendering.HTML.items.clear()
    finished = "".join(rendering.html_parts(rendering.load_snapshot(table.pk), None).values())
    assert_isolated(finished, NAME)
    assert "Final standings" in finished


@pytest.mark.django_db
def test_the_profile_pages(client, host):
    from tests.support.tables import finished_table

    finished_table([host, None], [1, 2], game="snout", scores=[100, 20], rated=False, title=TITLE)
    client.force_login(host)
    own = client.get(reverse("accounts:profile")).content.decode()
    assert_isolated(own, TITLE), assert_isolated(own, NAME), assert_isolated(own, "ana")
    client.force_login(make_user("bea"))
    public = client.get(reverse("accounts:player", args=["ana"])).content.decode()
    assert_isolated(public, TITLE), assert_isolated(public, NAME)


GAMES = all_games()


@pytest.mark.parametrize("slug", [game.slug for game in GAMES])
def test_every_games_table_isolates_player_names(slug):
    """Sampled states of a bot playout through to the end, for a player and a spectator."""
    game = get_game(slug)
    engine, seats = game.engine, max(3, game.engine.min_seats)
    states = []
    result = play(engine, [game.bots["random"]] * seats, seed=7, on_step=lambda state, *_: states.append(state))
    for state in [*states[::max(1, len(states) // 80)], result.state]:
        for seat in (1, None):
            players = [{"index": index, "name": f"{NAME} {index}", "is_bot": False, "is_you": index == seat,
                        "connected": True} for index in range(seats)]
            context = {"view": engine.view(state, seat), "legal": engine.legal_actions(state, seat) if seat else [],
                       "version": 7, "seat": seat, "table": None, "players": players, "deadline_ms": None, "now_ms": 0}
            html = render_to_string(f"{slug}/table.html", context)
            assert_isolated(html, NAME)


def test_isolate_names_escapes_the_sentence_and_wraps_only_the_names():
    from pigparlor.tables.templatetags.tables import isolate_names

    players = [{"name": "amp"}, {"name": "Ana <b>"}, {"name": "Ana"}]
    assert isolate_names("Ana <b> & Ana & amp", players) == (
        "<bdi>Ana &lt;b&gt;</bdi> &amp; <bdi>Ana</bdi> &amp; <bdi>amp</bdi>")
    assert isolate_names("Nobody & no name", []) == "Nobody &amp; no name"
