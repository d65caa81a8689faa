"""Ratings on the pages: the results screen's changes and why, the waiting room's
ratings, the profile's ratings and chart, the rating history, the leaderboard with
its newcomers and bots, names that link."""
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from pigparlor.ratings import queries, service
from pigparlor.ratings.bot_levels import bot_skill
from pigparlor.ratings.chart import geometry
from pigparlor.ratings.explain import Opponent, SeatRating, reason
from pigparlor.ratings.models import Rating
from pigparlor.ratings.scale import NEWCOMER, Skill, Standing
from pigparlor.tables import rendering, services
from tests.ratings.helpers import decided_in_turn, standing
from tests.support.tables import finished_table, make_user

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def results(table, viewer) -> str:
    return "".join(rendering.html_parts(rendering.load_snapshot(table.pk), viewer).values())


def reasons(html: str) -> list[str]:
    """The results screen's "why" lines, as text."""
    block = re.search(r'<ul class="rating-reasons"[^>]*>(.*?)</ul>', html, re.S).group(1)
    return [re.sub(r"<[^>]+>", "", line).strip() for line in re.findall(r"<li[^>]*>(.*?)</li>", block, re.S)]


def test_a_change_reads_before_arrow_after_and_the_difference_and_why():
    placed = SeatRating(seat=0, name="Ana", bot=False, before=Standing(Skill(25 + 12 / 24, 2), 40),
                        after=Standing(Skill(25 + 36 / 24, 2), 41), place=2, of=4,
                        above=(Opponent("Bo", "1612"), Opponent("Easy bot 3", "1480")))
    assert placed.change == "1512 → 1536 (+24)"
    assert reason(placed) == "+24: 2nd of 4, above Bo (1612) and Easy bot 3 (1480)"
    gone = SeatRating(seat=1, name="Cy", bot=False, before=NEWCOMER, after=Standing(Skill(24, 7), 1), left=True,
                      place=4, of=4)
    assert gone.change == "1500? → 1476? (−24)"
    assert reason(gone, you=True) == "−24: rated last: you left" and reason(gone) == "−24: rated last: left the game"
    last = SeatRating(seat=2, name="Di", bot=False, before=NEWCOMER, after=Standing(Skill(24, 7), 1), place=2,
                      of=2, behind=(Opponent("Ana", "1512"),))
    assert reason(last) == "−24: 2nd of 2, behind Ana (1512)"


def test_the_results_screen_shows_each_change_and_why_and_a_bots_fixed_rating():
    ana, ben = make_user("ana"), make_user("ben")
    table = finished_table([ana, ben, "sensible"], [1, 3, 2])
    html = results(table, 0)
    assert "on their way" in html and "→" not in html
    service.rate_table(table.pk)  # bumps seats_rev: a fresh render
    html = results(table, 0)
    ana_after = Rating.objects.get(user=ana).standing
    assert f"1500? → {ana_after.shown} (+{ana_after.rating - 1500})" in html
    assert html.count("rating-change") == 2  # the people; the bot's rating is fixed
    assert re.search(r'class="rating-fixed">1500 <small class="muted">fixed</small>', html)
    ben_after = Rating.objects.get(user=ben).standing
    assert reasons(html) == [
        f"You +{ana_after.rating - 1500}: 1st of 3, above Sensible bot 3 (1500) and ben (1500?)",
        f"ben −{1500 - ben_after.rating}: 3rd of 3, behind ana (1500?) and Sensible bot 3 (1500)"]
    assert 'href="/players/ana/"' in html and 'href="/players/bot:sensible/"' in html


def test_three_bots_of_one_level_take_three_places_and_none_of_them_moves():
    ana = make_user("ana")
    table = finished_table([ana, "easy", "easy", "easy"], [3, 1, 4, 2])
    service.rate_table(table.pk)
    html = results(table, 0)
    easy = bot_skill("snout", "easy").rating
    rows = re.findall(r'<tr data-seat="(\d)"[^>]*>\s*<td class="rank">(\w+)', html)
    assert rows == [("1", "1st"), ("3", "2nd"), ("0", "3rd"), ("2", "4th")]
    assert html.count(f'class="rating-fixed">{easy} ') == 3 and html.count("rating-change") == 1
    (line,) = reasons(html)
    assert re.fullmatch(rf"You [+−]\d+: 3rd of 4, above Easy bot 3 \({easy}\)", line)


def test_a_leaver_reads_rated_last_you_left_and_the_others_gain_nothing_from_them():
    host, alt = make_user("host"), make_user("alt")
    table = finished_table([host, alt], [2, 1], left=[1], left_early=[1])
    service.rate_table(table.pk)
    assert standing(host) == NEWCOMER
    alt_reason = next(line for line in reasons(results(table, 1)) if line.startswith("You"))
    assert re.fullmatch(r"You −\d+: rated last: you left", alt_reason)
    host_html = results(table, 0)
    assert "You not rated: alt left before playing half of their moves" in reasons(host_html)
    assert "nobody gains for beating them" in host_html


def test_a_repeat_game_says_why_it_is_not_rated():
    ana, ben = make_user("ana"), make_user("ben")
    tables = decided_in_turn([ana, ben], [0, 0.1, 0.2, 0.3])
    html = results(tables[3], 0)
    assert "Not rated: these players already have 3 rated Snout! games together within 24 hours." in html
    assert reasons(html)[0] == "You not rated: the same players already have 3 rated games together within 24 hours"
    assert "rating-change" not in html


def test_a_casual_table_shows_no_rating_line():
    ana, ben = make_user("ana"), make_user("ben")
    table = finished_table([ana, ben], [1, 2], rated=False)
    html = results(table, 0)
    assert "Final standings" in html and "rating-change" not in html and "Rated game" not in html
    assert "rating-reasons" not in html


def test_the_waiting_room_shows_each_seats_rating_and_a_bots_fixed_one(count_game):
    ana, ben = make_user("ana"), make_user("ben")
    Rating.objects.create(user=ben, game="countgame", mu=27, sigma=2, games=30)
    table = services.create_table(host=ana, game="countgame", seats=3)
    services.join_table(table, ben)
    html = signed_in(ana).get(f"/lobby/tables/{table.pk}/").content.decode()
    seats = re.findall(r'class="seat-rating"[^>]*>([^<]+)<', html)
    assert seats == ["1500?", "1548"]
    assert 'href="/players/ben/"' in html and "rated</span>" in html


def _rated_games(ana, ben, n):
    """``ana`` beats ``ben`` ``n`` times, a day apart."""
    decided_in_turn([ana, ben], [-24 * day for day in range(n)])


def test_the_profile_shows_ratings_games_place_a_chart_and_a_link_to_the_history():
    ana, ben = make_user("ana"), make_user("ben")
    _rated_games(ana, ben, 3)
    Rating.objects.filter(user=ana).update(games=20)
    html = signed_in(ben).get("/players/ana/").content.decode()
    row = Rating.objects.get(user=ana)
    assert row.standing.shown in html and "20 rated games" in html and "#1 on the leaderboard" in html
    assert html.count('<figure class="rating-chart"') == 1 and "rating-chart__line" in html
    assert 'href="/players/ana/ratings/snout/"' in html
    own = signed_in(ben).get("/profile/").content.decode()
    assert "provisional" in own and Rating.objects.get(user=ben).standing.shown in own


def test_the_rating_history_lists_every_change_newest_first_with_why():
    ana, ben = make_user("ana"), make_user("ben")
    _rated_games(ana, ben, 2)
    html = Client().get("/players/ben/ratings/snout/").content.decode()
    lines = [re.sub(r"<[^>]+>", "", line).strip()
             for line in re.findall(r'<p class="rating-history__why">(.*?)</p>', html, re.S)]
    assert len(lines) == 2 and all(re.fullmatch(r"−\d+: 2nd of 2, behind ana \(\d{4}\?\)", line) for line in lines)
    assert "Snout! rating history" in html and Rating.objects.get(user=ben).standing.shown in html
    assert Client().get("/players/ben/ratings/chess/").status_code == 404
    assert Client().get("/players/nobody/ratings/snout/").status_code == 404


def test_a_bots_page_has_its_fixed_ratings_even_before_it_played():
    assert Client().get("/players/bot:wizard/").status_code == 404
    html = Client().get("/players/bot:random/").content.decode()
    random_snout = bot_skill("snout", "random").rating
    assert "Random bot" in html and "never moves" in html
    card = re.search(r'data-game="snout".*?</li>', html, re.S).group(0)
    assert f"{random_snout}</strong> · fixed" in card and "history" not in card


def test_the_chart_runs_from_the_start_through_every_game_and_dashes_the_provisional_part():
    standings = [Standing(Skill(25 + n, 8 - n / 4), n) for n in range(1, 26)]
    chart = geometry(standings)
    assert chart["provisional"].count(",") == 21  # start + games 1..20 (the 20th ends it)
    assert chart["established"].count(",") == 6
    assert chart["last"]["label"] == standings[-1].shown
    assert all(chart["left"] <= float(point.split(",")[0]) <= chart["right"]
               for point in (chart["provisional"] + " " + chart["established"]).split())
    assert geometry([])["provisional"] == "" and geometry([])["summary"].startswith("from 1500?")


def test_the_leaderboard_lists_established_players_by_rating_and_active_newcomers_apart(monkeypatch):
    users = [make_user(f"p{n}") for n in range(4)]
    for n, user in enumerate(users):
        Rating.objects.create(user=user, game="snout", mu=30 - n, sigma=7 - n, games=20 + n)
    newbie = make_user("newbie")
    _rated_games(newbie, make_user("gone"), 1)
    Rating.objects.filter(user=newbie).update(mu=40)
    html = signed_in(users[3]).get("/games/snout/leaderboard/").content.decode()
    board = html[html.index('id="leaderboard"'):html.index('id="newcomers-heading"')]
    assert re.findall(r'href="/players/([^/]+)/"', board) == ["p0", "p1", "p2", "p3"]
    newcomers = html[html.index('id="newcomers"'):html.index('id="bot-levels"')]
    assert re.findall(r'href="/players/([^/]+)/"', newcomers) == ["newbie", "gone"]
    assert 'class="is-you"' in board and "1860?" in newcomers
    bots = html[html.index('id="bot-levels"'):]
    assert "Easy bot" in bots and "Sensible bot" in bots and "Random" not in bots
    monkeypatch.setattr(queries, "LEADERBOARD_SIZE", 2)
    html = signed_in(users[3]).get("/games/snout/leaderboard/").content.decode()
    assert "#4" in html and "p3" not in re.findall(r'href="/players/([^/]+)/"', html)
    assert Client().get("/games/chess/leaderboard/").status_code == 404


def test_a_player_with_20_rated_games_is_on_the_leaderboard():
    ana, ben = make_user("ana"), make_user("ben")
    now = timezone.now()
    for day in range(20):  # a day apart: three games a day together count
        service.rate_table(finished_table([ana, ben], [1 + day % 2, 2 - day % 2],
                                          finished_at=now - timedelta(days=day)).pk)
    assert Rating.objects.get(user=ana).games == 20 and not standing(ana).provisional
    html = Client().get("/games/snout/leaderboard/").content.decode()
    board = html[html.index('id="leaderboard"'):html.index('id="newcomers-heading"')]
    assert sorted(re.findall(r'href="/players/([^/]+)/"', board)) == ["ana", "ben"]
    assert [placed.username for placed in queries.leaderboard("snout")] == sorted(
        ["ana", "ben"], key=lambda name: -Rating.objects.get(user__username=name).mu)
