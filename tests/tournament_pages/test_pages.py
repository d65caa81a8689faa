"""The tournament pages (issue 12 item 5): the list, one tournament's page
before, during and after, the register / withdraw / check-in forms and their
errors, the banner's socket in the base template, and the profile's history
(item 6). Tournaments are built and run through the core's services."""
import random
import re
from datetime import timedelta

import pytest
from django.urls import reverse

from games.core import Progress
from pigparlor.tournaments import progress, services
from pigparlor.tournaments.models import Entry, Tournament
from pigparlor.tournaments.standings import open_tables
from tests.support.tables import make_user
from tests.tournament_pages.helpers import make_tournament, play_out, play_round, start_now

pytestmark = pytest.mark.django_db
COUNT_CUP = [{"game": "countgame", "format": "elimination", "table_size": 2, "advance": 1}]
COUNT_SWISS = [{"game": "countgame", "format": "swiss", "table_size": 2, "rounds": 2, "advance": 2},
               {"game": "countgame", "format": "elimination", "table_size": 2, "advance": 1}]


def page(client, tournament, status=200):
    response = client.get(reverse("tournaments:detail", args=[tournament.pk]))
    assert response.status_code == status
    return response.content.decode()


def post(client, tournament, action):
    return client.post(reverse(f"tournaments:{action}", args=[tournament.pk]))


def text(html: str) -> str:
    """The page's words, tags and runs of space dropped."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


# -- the list --------------------------------------------------------------------

def test_the_list_shows_upcoming_with_a_countdown_running_and_finished(client, count_game):
    upcoming, _ = make_tournament(COUNT_CUP, players=2, name="Sunrise cup")
    running, players = make_tournament(COUNT_CUP, players=4, name="Midday cup", prefix="m")
    start_now(running, players)
    over, finishers = make_tournament(COUNT_CUP, players=2, name="Dusk cup", prefix="d")
    start_now(over, finishers)
    play_out(over, random.Random(3))
    html = client.get(reverse("tournaments:list")).content.decode()
    sections = {name: html.index(heading) for name, heading in (
        ("upcoming", 'id="t-upcoming-heading"'), ("running", 'id="t-running-heading"'),
        ("finished", 'id="t-finished-heading"'))}
    assert sections["upcoming"] < html.index("Sunrise cup") < sections["running"] < html.index("Midday cup") \
        < sections["finished"] < html.index("Dusk cup")
    assert 'data-countdown="' in html.split("Sunrise cup")[1].split("</li>")[0]
    assert "2 of 64 registered" in text(html)
    assert "Stage 1: Count to Ten, round 1" in text(html)
    winner = Entry.objects.get(tournament=over, place=1).user.username
    assert f"Won by {winner}" in text(html)
    assert 'ws-connect="/ws/tournaments/"' in html


def test_every_page_links_to_the_tournaments(client):
    html = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("tournaments:list")}"' in html and ">Tournaments</a>" in html


# -- before the start --------------------------------------------------------------

def test_an_upcoming_tournament_shows_its_stages_rules_and_players_with_ratings(client, count_game):
    tournament, users = make_tournament(COUNT_SWISS, players=3, minimum=3, maximum=8)
    Entry.objects.filter(user=users[1]).update(rating=1612)
    html = page(client, tournament)
    words = text(html)
    assert "Stage 1: Count to Ten Swiss" in words and "Stage 2: Count to Ten elimination" in words
    assert "2 rounds, each seating players of close score together" in words
    assert "Points per place at a full table: 1st 1 · 2nd 0" in words and "a bye scores 0.5" in words
    assert "Tables of exactly 2: when the players do not divide by 2, the rest sit the round out" in words
    # The elimination stage says what tables odd counts make.
    assert "Tables of 2 when the players divide evenly; otherwise tables differ by one seat, within the 2 to 4 " \
           "players Count to Ten takes (5 players: 1 table of 3, 1 of 2)" in words
    assert "The top 2 go on to stage 2." in words
    assert "the winner of each table goes on" in words
    assert "they play the final table; its places end the tournament" in words
    assert "Players 3 of 8" in words and "it needs 3 checked in to start" in words
    assert words.index("p01 1612") < words.index("p00 1500")  # best rating first
    assert "Who may enter: everyone." in words
    assert "Log in to register" in words
    assert f'ws-connect="/ws/tournaments/{tournament.pk}/"' in html
    assert 'aria-live="polite"' in html


def test_entry_conditions_are_listed_and_explain_why_a_player_cannot_enter(client, count_game):
    tournament, _ = make_tournament(COUNT_CUP, conditions={"min_rating": 1600, "min_games": 5})
    client.force_login(make_user("newcomer"))
    words = text(page(client, tournament))
    assert "Count to Ten rating at least 1600; at least 5 rated Count to Ten games" in words
    assert "You cannot enter this one: you need a Count to Ten rating of at least 1600 (yours is 1500)" in words
    assert 'id="t-register"' not in page(client, tournament)


def test_register_check_in_and_withdraw_through_the_forms(client, count_game):
    tournament, _ = make_tournament(COUNT_CUP, starts_in=timedelta(minutes=5))
    ana = make_user("ana")
    client.force_login(ana)
    assert 'id="t-register"' in page(client, tournament)

    response = post(client, tournament, "register")
    assert response.status_code == 302 and response["Location"] == reverse("tournaments:detail", args=[tournament.pk])
    html = client.get(response["Location"]).content.decode()
    assert "You are registered" in html and 'id="t-checkin"' in html and 'id="t-withdraw"' in html
    assert "ana 1500" in text(html)
    assert Entry.objects.get(user=ana).status == Entry.REGISTERED

    response = post(client, tournament, "checkin")
    assert response.status_code == 302
    html = client.get(response["Location"]).content.decode()
    assert "You are checked in" in html and "checked in" in text(html)
    assert Entry.objects.get(user=ana).status == Entry.CHECKED_IN

    response = post(client, tournament, "withdraw")
    assert response.status_code == 302
    assert Entry.objects.get(user=ana).status == Entry.WITHDRAWN
    assert 'id="t-register"' in page(client, tournament)


def test_check_in_waits_for_its_window(client, count_game, settings):
    tournament, (ana,) = make_tournament(COUNT_CUP, players=1, starts_in=timedelta(minutes=30))
    client.force_login(ana)
    html = page(client, tournament)
    button = re.search(r'<button type="submit" id="t-checkin"[^>]*>', html).group(0)
    assert "disabled" in button and "data-enable-at=" in button
    assert "Check-in opens" in text(html)


def _refused(client, tournament, action, status, message):
    before = list(Entry.objects.order_by("pk").values_list("pk", "status", "checked_in_at"))
    revision = Tournament.objects.get(pk=tournament.pk).revision
    response = post(client, tournament, action)
    assert response.status_code == status, response.status_code
    html = response.content.decode()
    assert re.search(r'<p class="t-error" role="alert" id="t-error">([^<]*)</p>', html).group(1) == message
    assert list(Entry.objects.order_by("pk").values_list("pk", "status", "checked_in_at")) == before
    assert Tournament.objects.get(pk=tournament.pk).revision == revision


def test_refused_forms_show_the_reason_with_its_status_and_change_nothing(client, count_game):
    tournament, (ana,) = make_tournament(COUNT_CUP, players=1, maximum=2, starts_in=timedelta(minutes=30))
    client.force_login(ana)
    _refused(client, tournament, "register", 409, "you are already registered")
    _refused(client, tournament, "checkin", 409, "check-in opens 10 minutes before the start, at "
             + (tournament.starts_at - timedelta(minutes=10)).isoformat())
    bea = make_user("bea")
    client.force_login(bea)
    _refused(client, tournament, "withdraw", 409, "you are not registered for this tournament")
    services.register(tournament.pk, make_user("cy"))
    _refused(client, tournament, "register", 409, "the tournament is full (2 players)")

    strict, _ = make_tournament(COUNT_CUP, conditions={"established": True}, name="Strict cup")
    _refused(client, strict, "register", 403, "you need an established Count to Ten rating (yours is still provisional)")

    Tournament.objects.filter(pk=tournament.pk).update(starts_at=tournament.starts_at - timedelta(hours=1))
    _refused(client, tournament, "register", 409, "registration closed when the tournament started")


def test_forms_for_an_unknown_tournament_anonymous_visitors_and_gets(client, count_game):
    tournament, _ = make_tournament(COUNT_CUP)
    response = post(client, tournament, "register")
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))
    assert not Entry.objects.exists()
    client.force_login(make_user("ana"))
    assert client.get(reverse("tournaments:register", args=[tournament.pk])).status_code == 405
    assert client.post(reverse("tournaments:register", args=[tournament.pk + 99])).status_code == 404
    assert client.get(reverse("tournaments:detail", args=[tournament.pk + 99])).status_code == 404
    assert not Entry.objects.exists()


# -- running and finished ------------------------------------------------------------

def test_a_running_elimination_shows_every_table_its_status_results_and_who_went_on(client, count_game):
    tournament, users = make_tournament(COUNT_CUP, players=4)
    start_now(tournament, users)
    tournament.refresh_from_db()
    seated = open_tables(tournament)
    me = users[0]
    client.force_login(me)
    html = page(client, tournament)
    words = text(html)
    assert "live Stage 1: Count to Ten, round 1" in words
    assert "Round 1 · 2 tables of 2 2 of 2 playing" in words
    for table_id in set(seated.values()):
        assert f'href="{reverse("table", args=[table_id])}"' in html
        assert 'aria-label="Watch table' in html
    assert 'id="t-my-table"' in html and f'href="{reverse("table", args=[seated[me.pk]])}"' in html
    assert "data-follow" not in html  # the page load itself never jumps away
    for user in users:
        assert f">{user.username}</bdi>" in html

    play_round(tournament, random.Random(5))
    html = page(client, tournament)
    words = text(html)
    assert "Round 1 · 2 tables of 2 done" in words and "Final table · a table of 2 1 of 1 playing" in words
    assert html.count("tag--ok\">goes on") == 2 and html.count("tag--out\">out") == 2
    assert "finished" in words

    play_out(tournament, random.Random(6))
    html = page(client, tournament)
    words = text(html)
    assert "Final standings" in words
    places = dict(Entry.objects.filter(tournament=tournament).values_list("user__username", "place"))
    assert sorted(places.values()) == [1, 2, 3, 3]
    if places[me.username] == 1:
        assert "You placed 1st" in words
    else:
        assert f"You placed {places[me.username]}" in words


def test_a_swiss_stage_shows_points_byes_and_the_cut(client, count_game):
    tournament, users = make_tournament(COUNT_SWISS, players=5)
    start_now(tournament, users)
    html = page(client, tournament)
    assert "Round 1 of 2" in text(html) and "Bye:" in html
    rng = random.Random(8)
    play_round(tournament, rng)
    html = page(client, tournament)
    assert "+1" in html  # a winner's points at their table
    play_round(tournament, rng)
    words = text(page(client, tournament))
    assert "Went on to stage 2:" in words
    assert "Stage 2: Count to Ten elimination" in words and "Final table" in words


def test_a_cancelled_tournament_says_why(client, count_game):
    tournament, (ana,) = make_tournament(COUNT_CUP, players=1)
    services.cancel_tournament(tournament.pk, "the parlor is closed for cleaning")
    client.force_login(ana)
    assert "This tournament was cancelled: the parlor is closed for cleaning" in text(page(client, tournament))
    listing = text(client.get(reverse("tournaments:list")).content.decode())
    assert "cancelled the parlor is closed for cleaning" in listing


# -- the banner's socket and the profile --------------------------------------------

def test_signed_in_pages_hold_the_player_socket_and_anonymous_ones_do_not(client):
    html = client.get(reverse("home")).content.decode()
    assert "/ws/player/" not in html and 'id="table-ready"' not in html
    client.force_login(make_user("ana"))
    html = client.get(reverse("home")).content.decode()
    assert 'ws-connect="/ws/player/"' in html
    assert '<div id="table-ready" aria-live="assertive" aria-atomic="true"></div>' in html


def test_the_profile_lists_tournaments_with_places(client, count_game):
    tournament, users = make_tournament(COUNT_CUP, players=4, name="Mud cup")
    start_now(tournament, users)
    play_out(tournament, random.Random(2))
    waiting, _ = make_tournament(COUNT_CUP, players=0, name="Later cup")
    services.register(waiting.pk, users[0])
    entry = Entry.objects.get(tournament=tournament, user=users[0])
    client.force_login(users[0])
    html = client.get(reverse("accounts:profile")).content.decode()
    words = text(html)
    assert 'id="tournament-history"' in html and "Mud cup" in words and "Later cup" not in words
    place = "1st" if entry.place == 1 else {2: "2nd", 3: "3rd"}[entry.place]
    assert f"{place} of 4" in words
    other = text(client.get(reverse("accounts:player", args=[users[1].username])).content.decode())
    assert "Mud cup" in other


# -- progress words ------------------------------------------------------------------

@pytest.mark.parametrize(("found", "expected"), [
    (Progress(round=3, rounds=5), "round 3 of 5"),
    (Progress(round=2, target=100, leading=63), "round 2 · top score 63 of 100"),
    (Progress(round=4), "round 4"),
    (Progress(turn_number=7), "turn 7"),
    (Progress(round=True, rounds=5), ""),
    (Progress(), ""),
])
def test_progress_words_say_what_the_engine_tells(found, expected):
    assert progress.words(found) == expected


def test_a_real_pig_pile_table_reads_round_1_of_5():
    from pigparlor.tables import services as tables

    table = tables.create_table(host=make_user("host"), game="pigpile", seats=3, bots=2)
    table.refresh_from_db()
    assert progress.table_progress(table) == "round 1 of 5"


def test_the_forms_also_post_with_htmx_since_the_socket_renders_them_without_a_csrf_field(client, count_game):
    from pigparlor.tournaments import live

    tournament, _ = make_tournament(COUNT_CUP)
    ana = make_user("ana")
    html, _ = live.me_html(tournament, ana)
    register = reverse("tournaments:register", args=[tournament.pk])
    assert f'hx-post="{register}"' in html and "csrfmiddlewaretoken" not in html
    client.force_login(ana)
    response = client.post(register, headers={"HX-Request": "true"})
    assert response.status_code == 204
    assert response["HX-Redirect"] == reverse("tournaments:detail", args=[tournament.pk])
    assert Entry.objects.get(user=ana).status == Entry.REGISTERED

    response = client.post(register, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#t-error-slot" and response["HX-Reswap"] == "innerHTML"
    assert response.content.decode().strip() == '<p class="t-error" role="alert" id="t-error">you are already registered</p>'
    assert Entry.objects.filter(user=ana).count() == 1
