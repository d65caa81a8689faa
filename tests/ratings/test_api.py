"""The ratings in the JSON API: "rated" on create and read, a finished table's
rating changes, a player's ratings, a game's leaderboard; 400/404 for bad input."""
import pytest

from pigparlor.ratings import service
from pigparlor.ratings.models import Rating
from pigparlor.ratings.scale import START, Skill
from pigparlor.tables.models import Table
from tests.api.test_http import api
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


def test_a_finished_rated_table_lists_each_seats_rating_change():
    ana, ben = make_user("ana"), make_user("ben")
    table = finished_table([ana, "sensible", ben], [2, 1, 3])
    call = api(ana)
    assert call("get", f"/api/tables/{table.pk}/").json()["rating_changes"] == []
    service.rate_table(table.pk)
    body = call("get", f"/api/tables/{table.pk}/").json()
    start = {"rating": 1500, "mu": START.mu, "sigma": START.sigma, "provisional": True}
    assert [(c["seat"], c["username"], c["before"]) for c in body["rating_changes"]] == [
        (0, "ana", start), (1, "bot:sensible", start), (2, "ben", start)]
    after = Rating.objects.get(user=ana).skill
    assert body["rating_changes"][0]["after"] == {"rating": after.rating, "mu": after.mu, "sigma": after.sigma,
                                                  "provisional": True}
    assert [seat["username"] for seat in body["seats"]] == ["ana", "bot:sensible", "ben"]


def test_a_players_ratings_with_a_place_once_established():
    ana, ben = make_user("ana"), make_user("ben")
    Rating.objects.create(user=ana, game="snout", mu=30, sigma=2, games=40)
    Rating.objects.create(user=ben, game="snout", mu=31, sigma=1, games=60)
    Rating.objects.create(user=ana, game="oink", mu=27, sigma=5, games=3)
    body = api(ben)("get", "/api/players/ana/").json()
    assert body == {"username": "ana", "ratings": {
        "oink": {"rating": Skill(27, 5).rating, "mu": 27.0, "sigma": 5.0, "games": 3, "provisional": True,
                 "rank": None},
        "snout": {"rating": 1740, "mu": 30.0, "sigma": 2.0, "games": 40, "provisional": False, "rank": 2}}}


def test_the_leaderboard_lists_established_players_by_mu_minus_three_sigma(count_game):
    users = [make_user(name) for name in ("ana", "ben", "cy", "dee")]
    for user, (mu, sigma) in zip(users, [(30, 2), (31, 1), (40, 6), (28, 0.5)]):
        Rating.objects.create(user=user, game="snout", mu=mu, sigma=sigma, games=50)
    body = api(users[0])("get", "/api/leaderboard/snout/").json()
    assert body == {"game": "snout", "players": [
        {"rank": 1, "username": "ben", "rating": 1788, "games": 50},
        {"rank": 2, "username": "dee", "rating": 1644, "games": 50},
        {"rank": 3, "username": "ana", "rating": 1740, "games": 50}]}


@pytest.mark.parametrize("path", ["/api/leaderboard/chess/", "/api/players/nobody/"])
def test_unknown_game_or_player_is_a_404_in_the_protocols_shape(path):
    response = api(make_user("ana"))("get", path)
    assert response.status_code == 404
    assert response.json()["type"] == "error" and response.json()["code"] == "not_found"
