"""The rules pages: docs/rules/<slug>.md with pictures of the cards drawn by the games' own
card partials, in players' words (pigparlor/lobby/rules.py)."""
import re

import pytest
from django.urls import reverse

from games.core.registry import all_games

pytestmark = pytest.mark.django_db
GAMES = [game for game in all_games() if game.coach is not None]
PICTURES = {"pigpile": 'data-game="pigpile"', "oink": 'class="card card--small ok-card"',
            "piggypiggy": 'data-game="piggypiggy"', "snout": 'data-game="snout"'}


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.slug)
def test_every_rules_page_shows_the_cards_and_says_nothing_internal(client, game):
    html = client.get(reverse("lobby:rules", args=[game.slug])).content.decode()
    assert html.count('class="card-legend') >= 1
    assert html.count(PICTURES[game.slug]) >= 6
    assert "<!-- figure" not in html and "<!-- /figure" not in html
    assert not re.search(r"stand-in|stand in", html, re.IGNORECASE)
    assert not re.search(r'data-card="\d', html)  # pictures, never a real card's id
    assert f"css/{game.slug}." in html  # the game's own stylesheet draws its cards as at the table


def test_a_picture_takes_the_place_of_the_table_it_illustrates(client):
    html = client.get(reverse("lobby:rules", args=["pigpile"])).content.decode()
    assert "<th>what it does</th>" not in html  # the specials' table, in the Markdown for readers of the file
    assert "Hog Wash" in html and "Three in a row" in html
    oink = client.get(reverse("lobby:rules", args=["oink"])).content.decode()
    assert "<th>cry</th>" not in oink and "Woof-woof" in oink
    assert "Two numbers that make 7" in oink  # the picture added after "When to slap", its list kept
    assert "Two of the same animal" in oink


def test_the_piggy_piggy_table_names_its_deck_in_players_words(client):
    from pigparlor.tables import rendering, services
    from tests.support.tables import make_user

    ana = make_user("ana")
    table = services.create_table(host=ana, game="piggypiggy", seats=2, bots=1)
    html = "".join(rendering.html_parts(rendering.load_snapshot(table.pk), 0).values())
    assert "Five foods (68 cards)" in html and "Stand-in deck" not in html
