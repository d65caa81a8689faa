"""A first game with hints through the tables' one door, and the "How to play" panel of every
table page (pigparlor/tables/lessons.py, rendering.coaching, templates/tables/table.html)."""
import html as html_lib
import json
import re

import pytest
from django.urls import reverse

from games.core.registry import all_games, get_game
from games.core.viewcheck import cards_in_html
from pigparlor.tables import rendering, services
from pigparlor.tables.errors import TableError
from pigparlor.tables.lessons import lesson_offered, start_lesson
from pigparlor.tables.models import RUNNING, ActionLog, Table
from tests.support.tables import make_user

pytestmark = pytest.mark.django_db
GAMES = [game for game in all_games() if game.coach is not None]
TARGETS = re.compile(r'id="table-hint"[^>]*data-targets="([^"]*)"')


def page(client, user, table) -> str:
    client.force_login(user)
    response = client.get(reverse("table", args=[table.pk]))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.slug)
def test_a_lesson_is_a_private_unrated_table_dealt_from_the_lesson_s_seed_with_bots(ana, game):
    table = start_lesson(ana, game.slug)
    lesson = game.coach.lesson
    seats = list(table.seat_set.order_by("index"))
    assert table.status == RUNNING and table.tutorial and table.private and not table.rated
    assert table.seats == lesson.seats and seats[0].user == ana
    assert all(seat.bot_kind == lesson.bot for seat in seats[1:])
    assert table.seed == lesson.seed and table.deal_seed == lesson.seed  # no salt mixed in
    engine = game.engine
    assert engine.load(table.state) == engine.start(lesson.seats, lesson.seed, table.options)
    assert table.options == engine.clean_options(lesson.options)


def test_asking_again_goes_back_to_the_running_lesson(ana):
    first = start_lesson(ana, "snout")
    assert start_lesson(ana, "snout") == first
    assert start_lesson(ana, "oink") != first
    assert Table.objects.filter(tutorial=True).count() == 2


def test_a_game_without_a_coach_has_no_lesson(ana, count_game):
    with pytest.raises(TableError):
        start_lesson(ana, "countgame")


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.slug)
def test_the_lesson_s_page_shows_the_seat_s_hint_and_highlights_only_that_seat_s_cards(client, ana, game):
    table = start_lesson(ana, game.slug)
    snapshot = rendering.load_snapshot(table.pk)
    view = game.engine.view(snapshot.state, 0)
    hint = game.coach.hint(view, game.engine.legal_actions(snapshot.state, 0))
    html = page(client, ana, table)
    assert 'id="table-hint"' in html and f"Aim: {html_lib.escape(game.coach.lesson.aim)}" in html
    assert html_lib.escape(hint.text) in html
    targets = json.loads(html_lib.unescape(TARGETS.search(html).group(1)))
    assert targets == list(hint.targets)
    named = {int(card) for target in targets for card in re.findall(r'data-card="(\d+)"', target)}
    assert not named & game.engine.hidden_cards(snapshot.state, 0)
    assert not cards_in_html(html) & game.engine.hidden_cards(snapshot.state, 0)


def test_hints_go_only_to_a_lesson_s_seats_and_never_into_the_json_protocol(client, ana):
    table = start_lesson(ana, "pigpile")
    snapshot = rendering.load_snapshot(table.pk)
    assert "table-hint" in rendering.html_parts(snapshot, 0)
    assert "table-hint" not in rendering.html_parts(snapshot, None)  # a watcher (with the invite) gets none
    assert "hint" not in json.dumps(rendering.json_state(snapshot, 0)).lower()
    other = services.create_table(host=make_user("bea"), game="pigpile", seats=3, bots=2)
    assert "table-hint" not in rendering.html_parts(rendering.load_snapshot(other.pk), 0)


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.slug)
def test_every_table_page_has_the_how_to_play_panel_with_what_the_viewer_can_do_now(client, ana, game):
    table = services.create_table(host=ana, game=game.slug, seats=game.engine.min_seats,
                                  bots=game.engine.min_seats - 1)
    html = page(client, ana, table)
    start = html.index('<dialog id="howto"')
    panel = html[start:html.index("</dialog>", start)]  # (the page has other dialogs: Leave's)
    assert 'aria-labelledby="howto-title"' in panel and f"How to play {html_lib.escape(game.title)}" in panel
    assert 'id="table-now"' in panel
    snapshot = rendering.load_snapshot(table.pk)
    now = game.coach.now(game.engine.view(snapshot.state, 0), game.engine.legal_actions(snapshot.state, 0))
    assert html_lib.escape(now) in panel
    assert 'class="card-legend"' in panel or "card-legend " in panel
    assert "data-howto-open" in html and 'aria-controls="howto"' in html
    assert 'id="table-hint"' not in html  # hints are for a first game with hints only
    assert html.count('id="table-now"') == 1  # in the panel, not also among the board's parts
    # A spectator has the panel too.
    client.logout()
    assert 'id="table-now"' in client.get(reverse("table", args=[table.pk])).content.decode()


def test_the_now_part_follows_the_phase_as_the_socket_sends_it(ana):
    table = services.create_table(host=ana, game="pigpile", seats=3, bots=2)
    before = rendering.html_parts(rendering.load_snapshot(table.pk), 0)["table-now"]
    assert "Choose three of your seven cards" in before
    services.act(table.pk, 0, {"type": "faceup", "ranks": get_game("pigpile").engine.legal_actions(
        rendering.load_snapshot(table.pk).state, 0)[0]["ranks"]}, table.version, user=ana)
    table.refresh_from_db()
    after = rendering.html_parts(rendering.load_snapshot(table.pk), 0)["table-now"]
    assert after != before


def test_a_player_s_first_table_of_a_game_offers_the_lesson_and_later_ones_do_not(client, ana):
    first = services.create_table(host=ana, game="snout", seats=2, bots=1)
    assert lesson_offered(ana, first)
    html = page(client, ana, first)
    assert "Play a first game with hints" in html and reverse("lobby:learn", args=["snout"]) in html
    second = services.create_table(host=ana, game="snout", seats=2, bots=1)
    assert not lesson_offered(ana, second) and not lesson_offered(ana, first)
    assert 'class="lesson-offer"' not in page(client, ana, second)
    # Another game's first table still offers its own; a lesson never offers itself.
    assert lesson_offered(ana, services.create_table(host=ana, game="oink", seats=2, bots=1))
    assert not lesson_offered(ana, start_lesson(ana, "piggypiggy"))
    client.logout()
    assert 'class="lesson-offer"' not in client.get(reverse("table", args=[first.pk])).content.decode()


def test_having_played_a_lesson_the_first_real_table_offers_it_no_more(ana):
    start_lesson(ana, "pigpile")
    assert not lesson_offered(ana, services.create_table(host=ana, game="pigpile", seats=3, bots=2))


def test_the_lobby_s_button_starts_a_lesson_and_goes_to_its_table(client, ana):
    client.force_login(ana)
    url = reverse("lobby:learn", args=["oink"])
    assert client.get(url).status_code == 405
    response = client.post(url)
    table = Table.objects.get(tutorial=True)
    assert response.status_code == 302 and response["Location"] == reverse("table", args=[table.pk])
    assert client.post(url)["Location"] == reverse("table", args=[table.pk])  # the same one again
    assert f'action="{url}"' in client.get(reverse("lobby:game", args=["oink"])).content.decode()


def test_a_visitor_plays_the_lesson_as_a_guest_and_an_unknown_game_is_404(client, ana):
    from pigparlor.accounts.guests import is_guest

    html = client.get(reverse("lobby:game", args=["oink"])).content.decode()
    assert "Play a first game with hints" in html and "you play as a guest" in html
    assert client.post(reverse("lobby:learn", args=["chess"])).status_code == 404
    assert not Table.objects.exists() and "_auth_user_id" not in client.session
    response = client.post(reverse("lobby:learn", args=["oink"]))
    table = Table.objects.get(tutorial=True)
    assert response.status_code == 302 and response["Location"] == reverse("table", args=[table.pk])
    assert is_guest(table.seat_set.get(index=0).user)


def test_a_lesson_s_moves_go_through_the_one_door_and_are_logged(ana):
    table = start_lesson(ana, "snout")
    snapshot = rendering.load_snapshot(table.pk)
    game = get_game("snout")
    hint = game.coach.hint(game.engine.view(snapshot.state, 0), game.engine.legal_actions(snapshot.state, 0))
    services.act(table.pk, 0, hint.action, table.version, user=ana)
    assert ActionLog.objects.filter(table=table, user=ana, action=hint.action).exists()
