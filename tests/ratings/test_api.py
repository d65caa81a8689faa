"""The ratings in the JSON API: "rated" on create and read, a finished table's
rating changes and the outcome's left_early and unrated, a player's (and a bot's)
ratings, a game's leaderboard; 400/404 for bad input."""
import pytest

from pigparlor.ratings import service
from pigparlor.ratings.bot_levels import bot_skills
from pigparlor.ratings.models import Rating
from pigparlor.ratings.scale import START, Skill
from pigparlor.tables.models import Table
from tests.api.test_http import api
from tests.ratings.helpers import decided_in_turn
from tests.support.tables import finished_table, make_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("rated", ["yes", 1, None, "true", [], {}])
def test_rated_that_is_not_a_boolean_is_refused_and_nothing_is_made(count_game, rated):
    response = api(make_user("ana"))("post", "/api/tables/", {"game": "countgame", "seats": 2, "rated": rated})
    assert response.status_code == 400 and response.json()["code"] == "bad_request"
    assert "rated" in response.json()["message"] and not Table.objects.exists()


def test_rated_is_taken_and_read_back(count_game):
    call = api(make_user("ana"))
    casual = call("post", "/api/tables/", {"game": "countgame", "seats": 2, "rated": False}).json()["id"]
    public = call("post", "/api/tables/", {"game": "countgame", "seats": 2}).json()["id"]
    private = call("post", "/api/tables/", {"game": "countgame", "seats": 2, "private": True}).json()["id"]
    assert [call("get", f"/api/tables/{t}/").json()["rated"] for t in (casual, public, private)] == [False, True, False]


def test_a_finished_rated_table_lists_each_persons_rating_change_and_the_outcome_says_who_left_early():
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    table = finished_table([ana, "sensible", ben, cy], [2, 1, 3, 4], left=[3], left_early=[3])
    call = api(ana)
    body = call("get", f"/api/tables/{table.pk}/").json()
    assert body["rating_changes"] == [] and body["outcome"]["left_early"] == [3]
    service.rate_table(table.pk)
    body = call("get", f"/api/tables/{table.pk}/").json()
    start = {"rating": 1500, "mu": START.mu, "sigma": START.sigma, "provisional": True}
    assert [(c["seat"], c["username"], c["before"]) for c in body["rating_changes"]] == [
        (0, "ana", start), (2, "ben", start), (3, "cy", start)]  # the bot's rating is fixed: no change
    after = Rating.objects.get(user=ana).skill
    assert body["rating_changes"][0]["after"] == {"rating": after.rating, "mu": after.mu, "sigma": after.sigma,
                                                  "provisional": True}
    assert [seat["username"] for seat in body["seats"]] == ["ana", "bot:sensible", "ben", "cy"]
    assert "unrated" not in body["outcome"]


def test_a_repeat_game_says_unrated_repeat_in_the_outcome():
    ana, ben = make_user("ana"), make_user("ben")
    tables = decided_in_turn([ana, ben], [0, 0.1, 0.2, 0.3])
    body = api(ana)("get", f"/api/tables/{tables[3].pk}/").json()
    assert body["outcome"]["unrated"] == "repeat" and body["rating_changes"] == []


def test_a_players_ratings_with_a_place_once_established():
    ana, ben = make_user("ana"), make_user("ben")
    Rating.objects.create(user=ana, game="snout", mu=30, sigma=2, games=40)
    Rating.objects.create(user=ben, game="snout", mu=31, sigma=1, games=60)
    Rating.objects.create(user=ana, game="oink", mu=27, sigma=5, games=3)
    body = api(ben)("get", "/api/players/ana/").json()
    assert body == {"username": "ana", "ratings": {
        "oink": {"rating": Skill(27, 5).rating, "mu": 27.0, "sigma": 5.0, "games": 3, "provisional": True,
                 "rank": None},
        "snout": {"rating": 1620, "mu": 30.0, "sigma": 2.0, "games": 40, "provisional": False, "rank": 2}}}


def test_a_bots_ratings_are_its_levels_fixed_ones_even_before_it_played():
    body = api(make_user("ana"))("get", "/api/players/bot:easy/").json()
    easy = {game: bot_skills(game)["easy"] for game in ("oink", "pigpile", "piggypiggy", "snout")}
    assert body["username"] == "bot:easy" and set(body["ratings"]) == set(easy)
    assert body["ratings"]["snout"] == {"rating": easy["snout"].rating, "mu": easy["snout"].mu,
                                        "sigma": easy["snout"].sigma, "provisional": False, "games": None,
                                        "rank": None, "fixed": True}


def test_the_leaderboard_lists_established_players_by_rating(count_game):
    users = [make_user(name) for name in ("ana", "ben", "cy", "dee")]
    for user, (mu, games) in zip(users, [(30, 50), (31, 20), (40, 19), (28, 90)]):
        Rating.objects.create(user=user, game="snout", mu=mu, sigma=3, games=games)
    body = api(users[0])("get", "/api/leaderboard/snout/").json()
    assert body == {"game": "snout", "players": [
        {"rank": 1, "username": "ben", "rating": 1644, "games": 20},
        {"rank": 2, "username": "ana", "rating": 1620, "games": 50},
        {"rank": 3, "username": "dee", "rating": 1572, "games": 90}]}


@pytest.mark.parametrize("path", ["/api/leaderboard/chess/", "/api/players/nobody/", "/api/players/bot:wizard/"])
def test_unknown_game_or_player_is_a_404_in_the_protocols_shape(path):
    response = api(make_user("ana"))("get", path)
    assert response.status_code == 404
    assert response.json()["type"] == "error" and response.json()["code"] == "not_found"
