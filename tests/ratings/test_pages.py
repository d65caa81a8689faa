"""Ratings on the pages: the results screen's changes, the waiting room's
ratings, the profile's ratings and chart, the leaderboard, names that link."""
import re

import pytest
from django.test import Client

from pigparlor.ratings import queries, service
from pigparlor.ratings.chart import geometry
from pigparlor.ratings.models import Rating
from pigparlor.ratings.pages import change_text
from pigparlor.ratings.scale import Skill
from pigparlor.tables import rendering, services
from tests.support.tables import finished_table, make_user

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_change_reads_before_arrow_after_and_the_difference():
    assert change_text(Skill(25 + 12 / 48, 2), Skill(25 + 31 / 48, 2)) == "1512 → 1531 (+19)"
    assert change_text(Skill(25, 8), Skill(24, 7)) == "1500? → 1452? (−48)"


def test_the_results_screen_shows_each_players_change_after_the_rating():
    ana, ben = make_user("ana"), make_user("ben")
    table = finished_table([ana, ben, "sensible"], [1, 3, 2])
    html = "".join(rendering.html_parts(rendering.load_snapshot(table.pk), 0).values())
    assert "on their way" in html and "→" not in html
    service.rate_table(table.pk)  # bumps seats_rev: a fresh render
    html = "".join(rendering.html_parts(rendering.load_snapshot(table.pk), 0).values())
    ana_after = Rating.objects.get(user=ana).skill
    assert f"1500? → {ana_after.shown} (+{ana_after.rating - 1500})" in html
    assert html.count("rating-change") == 3
    assert 'href="/players/ana/"' in html and 'href="/players/bot:sensible/"' in html


def test_a_casual_table_shows_no_rating_line():
    ana, ben = make_user("ana"), make_user("ben")
    table = finished_table([ana, ben], [1, 2], rated=False)
    html = "".join(rendering.html_parts(rendering.load_snapshot(table.pk), 0).values())
    assert "Final standings" in html and "rating-change" not in html and "Rated game" not in html


def test_the_waiting_room_shows_each_seats_rating(count_game):
    ana, ben = make_user("ana"), make_user("ben")
    Rating.objects.create(user=ben, game="countgame", mu=27, sigma=2, games=30)
    table = services.create_table(host=ana, game="countgame", seats=3)
    services.join_table(table, ben)
    html = signed_in(ana).get(f"/lobby/tables/{table.pk}/").content.decode()
    seats = re.findall(r'class="seat-rating"[^>]*>([^<]+)<', html)
    assert seats == ["1500?", "1596"]
    assert 'href="/players/ben/"' in html and "rated</span>" in html


def test_the_profile_shows_ratings_games_place_and_a_chart():
    ana, ben = make_user("ana"), make_user("ben")
    for _ in range(3):
        service.rate_table(finished_table([ana, ben], [1, 2]).pk)
    Rating.objects.filter(user=ana).update(sigma=2.0)
    html = signed_in(ben).get("/players/ana/").content.decode()
    row = Rating.objects.get(user=ana)
    assert row.skill.shown in html and "3 rated games" in html and "#1 on the leaderboard" in html
    assert html.count("<svg") == 1 and "rating-chart__line" in html
    own = signed_in(ben).get("/profile/").content.decode()
    assert "provisional" in own and Rating.objects.get(user=ben).skill.shown in own


def test_a_bots_page_has_its_ratings():
    service.rate_table(finished_table([make_user("ana"), "random"], [1, 2]).pk)
    html = Client().get("/players/bot:random/").content.decode()
    assert "Random bot" in html and "A bot" in html and "1 rated game" in html


def test_the_chart_runs_from_the_start_through_every_game_and_dashes_the_provisional_part():
    skills = [Skill(25 + n, 8 - n) for n in range(1, 8)]
    chart = geometry(skills)
    assert chart["provisional"].count(",") == 7  # start + games 1..6 (sigma 2 at game 6 ends it)
    assert chart["established"].count(",") == 2
    assert chart["last"]["label"] == skills[-1].shown
    assert all(chart["left"] <= float(point.split(",")[0]) <= chart["right"]
               for point in (chart["provisional"] + " " + chart["established"]).split())
    assert geometry([])["provisional"] == "" and geometry([])["summary"].startswith("from 1500?")


def test_the_leaderboard_page_lists_the_top_and_your_own_place(monkeypatch):
    users = [make_user(f"p{n}") for n in range(4)]
    for n, user in enumerate(users):
        Rating.objects.create(user=user, game="snout", mu=30 - n, sigma=2, games=20 + n)
    Rating.objects.create(user=make_user("newbie"), game="snout", mu=40, sigma=6, games=2)
    html = signed_in(users[3]).get("/games/snout/leaderboard/").content.decode()
    assert re.findall(r'href="/players/([^/]+)/"', html) == ["p0", "p1", "p2", "p3"]
    assert "newbie" not in html and 'class="is-you"' in html
    monkeypatch.setattr(queries, "LEADERBOARD_SIZE", 2)
    html = signed_in(users[3]).get("/games/snout/leaderboard/").content.decode()
    assert "#4" in html and "p3" not in re.findall(r'href="/players/([^/]+)/"', html)
    assert Client().get("/games/chess/leaderboard/").status_code == 404
