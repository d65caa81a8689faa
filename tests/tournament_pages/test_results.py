"""Results that read right: final standings 1st / 2nd / 3rd with the points
explained round by round, no "goes on" on the table that ended the
tournament (its winner "wins"), each round's tables as played ("a table of
3" where the table size was 2), and a tournament table's end screen leading
back to its tournament instead of "Play again" / "New table"."""
import random
import re

import pytest
from django.urls import reverse

from pigparlor.tables import rendering
from pigparlor.tables import services as tables
from pigparlor.tournaments.models import Entry, Round, TournamentTable
from tests.support.tables import make_user
from tests.tournament_pages.helpers import make_tournament, play_out, start_now
from tests.tournaments.helpers import play_table, running_tables

pytestmark = pytest.mark.django_db
CUP = [{"game": "countgame", "format": "elimination", "table_size": 2, "advance": 1}]
SWISS = [{"game": "countgame", "format": "swiss", "table_size": 2, "rounds": 3}]


def words(client, tournament) -> str:
    html = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'")


def test_a_finished_swiss_reads_1st_2nd_3rd_with_each_rounds_place_and_what_points_mean(client, count_game):
    tournament, users = make_tournament(SWISS, players=5)
    start_now(tournament, users)
    play_out(tournament, random.Random(11))
    text = words(client, tournament)
    standings = text[text.index("Final standings"):text.index("How points count")]
    # Every player's line: their place in words, their points, how each of the 3 rounds went, and the
    # tie-break that ordered equal points.
    # (A seat the clock gave to a bot, time skipped past the seat grace, reads "2nd (left)".)
    lines = re.findall(r"(\d+(?:st|nd|rd|th)) \S+ 1500 ([\d.]+) ((?:(?:1st|2nd|bye)(?: \(left\))?(?:, )?){3}) "
                       r"Buchholz [\d.]+",
                       standings)
    assert len(lines) == 5 and lines[0][0] == "1st", standings
    places = dict(Entry.objects.filter(tournament=tournament).values_list("user__username", "place"))
    assert sorted(places.values()) == sorted(int(place[:-2]) for place, _, _ in lines)
    assert "Stage 1 (Count to Ten Swiss): each table gives 1st 1 · 2nd 0 at a full table of 2 (other sizes " \
           "scaled); a bye 0.5; ties go to Buchholz" in text
    html = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    # A medal for each place on the podium, as the places fell (under a busy clock a seat it
    # handed to a bot can tie two players, and a shared 1st leaves no 2nd).
    medals = re.findall(r't-medal t-medal--(\d)">(\d)(?:st|nd|rd)', html)
    assert medals and medals[0] == ("1", "1") and all(medal == place for medal, place in medals)
    assert sorted(int(place) for place, _ in medals) == sorted(place for place in places.values() if place <= 3)


def test_a_running_swiss_shows_the_tie_break_and_byes_in_the_round_heading(client, count_game):
    from tests.tournament_pages.helpers import play_round

    tournament, users = make_tournament(SWISS, players=5)
    start_now(tournament, users)
    assert "Round 1 of 3 · 2 tables of 2, 1 bye" in words(client, tournament)
    play_round(tournament, random.Random(2))
    standings = words(client, tournament)
    standings = standings[standings.index("Standings Place"):standings.index("How points count")]
    assert standings.count("Buchholz") == 5


def test_the_table_that_ends_the_tournament_has_a_winner_and_nobody_goes_on(client, count_game):
    """Three players at table size 2 share one table (as even as the seats allow):
    the tournament's only table is its final."""
    tournament, users = make_tournament(CUP, players=3)
    start_now(tournament, users)
    assert Round.objects.get(tournament=tournament).final
    assert "Final table · a table of 3 1 of 1 playing" in words(client, tournament)
    play_out(tournament, random.Random(5))
    html = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert 'tag--ok">goes on<' not in html and 'tag--out">out<' not in html
    assert html.count('tag--ok">wins<') == 1
    text = words(client, tournament)
    assert "Final table · a table of 3 done" in text
    winner = Entry.objects.get(tournament=tournament, place=1).user.username
    assert re.search(rf"1st {winner} 1500 1 1st", text)


def test_a_stage_whose_one_table_ends_it_reads_as_the_final_too(client, count_game):
    """A first stage of one table sends one player on, and the second stage has
    nothing left to play: that table was the final, and nobody "goes on"."""
    two_stages = [CUP[0], {"game": "countgame", "format": "elimination", "table_size": 2, "advance": 1}]
    tournament, users = make_tournament(two_stages, players=2)
    start_now(tournament, users)
    play_out(tournament, random.Random(7))
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    html = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert 'tag--ok">goes on<' not in html and html.count('tag--ok">wins<') == 1
    assert "Final table · a table of 2 done" in words(client, tournament)


def test_an_upcoming_elimination_says_which_tables_its_players_make(client, count_game):
    tournament, _ = make_tournament(CUP, players=7)
    assert "With the 7 registered now: round 1: 1 table of 3, 2 of 2; the final: a table of 3." in \
        words(client, tournament)


def test_a_tournament_table_leads_back_to_its_tournament_when_it_is_over(client, count_game,
                                                                        django_capture_on_commit_callbacks):
    tournament, users = make_tournament(CUP, players=4)
    start_now(tournament, users)
    table_id = running_tables(tournament)[0]
    seated = TournamentTable.objects.get(table_id=table_id).players
    me = next(user for user in users if user.pk == seated[0])
    with django_capture_on_commit_callbacks(execute=True):
        table = play_table(table_id, random.Random(3))
    # The snapshot the last move primed (no query) already knows the way back...
    primed = rendering.cached_snapshot((table.pk, table.version, table.seats_rev))
    assert primed is not None and primed.origin.url == reverse("tournaments:detail", args=[tournament.pk])
    # ...and so does the page read afresh.
    rendering.SNAPSHOTS.items.clear()
    client.force_login(me)
    html = client.get(reverse("table", args=[table_id])).content.decode()
    back = f'<a class="button" href="{reverse("tournaments:detail", args=[tournament.pk])}">Back to Trough cup</a>'
    assert back in html
    assert "Play again" not in html and ">New table<" not in html and "Back to the lobby" in html


def test_an_ordinary_table_still_offers_play_again(client, count_game):
    ana = make_user("ana")
    table = tables.create_table(host=ana, game="countgame", seats=2, bots=1, options={"turn_seconds": 30})
    play_table(table.pk, random.Random(1))
    client.force_login(ana)
    html = client.get(reverse("table", args=[table.pk])).content.decode()
    assert "Play again" in html and ">New table<" in html and "Back to Trough" not in html
