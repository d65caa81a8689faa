"""Rating farming, played through the tables' own doors (create, join, leave, act,
the clock, a socket coming back) with the tiny count-to-ten game:

- a second account that leaves at once at a rated 2-seat table (private with
  ``"rated": true``, or public) feeds its host nothing, game after game;
- leaving at the start, letting the stand-in bot play and coming back for the
  last moves is leaving: rated last, whatever the bot scored;
- the same two people playing on keep only three rated games a day.

docs/ratings.md, "Leaving" and "Playing the same people again"."""
import pytest
from django.core.management import call_command

from games.core.bots import Bot
from games.core.replay import commitment
from pigparlor.ratings import service
from pigparlor.ratings.models import RatingEvent
from pigparlor.ratings.scale import NEWCOMER
from pigparlor.tables import presence, services
from pigparlor.tables.models import FINISHED, RUNNING, ActionLog, Table
from tests.ratings.helpers import standing
from tests.support.tables import make_user, step_clock, table
from tests.tables.countgame import ENGINE

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def many_tables(settings):
    settings.PIGPARLOR_TABLES_PER_MINUTE = 50


def rated_pair_table(host, alt, *, private: bool):
    created = services.create_table(host=host, game="countgame", seats=2, private=private, rated=True)
    services.join_table(created, alt, invite_code=created.invite_code or None)
    assert table(created.pk).status == RUNNING and table(created.pk).rated
    return created.pk


def play_out(table_id, players: dict, *, come_back=None):
    """Until the end: each seat in ``players`` is played by its person while they sit
    there themselves (their first card); the clock and the stand-in bots play the
    rest. ``come_back`` (seat, user, turn): that player opens a socket again at their
    ``turn``-th turn, which takes the seat back from its bot, and plays on."""
    turns = {}
    while (current := table(table_id)).status == RUNNING:
        state = ENGINE.load(current.state)
        seat = current.seat_set.get(index=state.turn)
        if come_back and seat.index == come_back[0] and seat.replaced and turns.get(seat.index, 0) == come_back[2]:
            presence.open_socket(table_id, come_back[1], f"back-{table_id}")
            continue
        turns[seat.index] = turns.get(seat.index, 0) + 1
        if seat.index in players and not seat.replaced:
            legal = ENGINE.legal_actions(state, seat.index)
            services.act(table_id, seat.index, legal[0], current.version, user=players[seat.index])
        else:
            assert step_clock(table_id)
    service.rate_unrated()  # what the receiver of the last move does after its commit
    return table(table_id)


class FirstCard(Bot):
    """A stand-in that plays its first card, as the people here do: a game from a known deal."""

    def choose(self, view, legal, rng):
        return legal[0]


def deal_of_six_moves() -> int:
    """A seed whose game, everyone playing their first card, ends with the sixth move:
    seat 0 moves 1st, 3rd and 5th, seat 1 ends it."""
    for seed in range(10_000):
        state, moves = ENGINE.start(2, seed), 0
        while ENGINE.outcome(state) is None:
            state = ENGINE.apply(state, state.turn, ENGINE.legal_actions(state, state.turn)[0], 0)
            moves += 1
        if moves == 6:
            return seed
    raise AssertionError("no such deal")


@pytest.mark.parametrize("private", [True, False], ids=["private rated", "public"])
def test_an_alt_that_leaves_at_once_feeds_its_host_nothing_game_after_game(count_game, private):
    host, alt = make_user("host"), make_user("alt")
    for _ in range(5):
        table_id = rated_pair_table(host, alt, private=private)
        services.leave_table(table(table_id), alt)
        finished = play_out(table_id, {0: host})
        assert finished.status == FINISHED and finished.outcome["left_early"] == [1]
        assert standing(host, "countgame") == NEWCOMER  # not one point, not one game
    assert not RatingEvent.objects.filter(user=host, reason="table").exists()
    # The alt is rated last three times; from the fourth game of the day on, the pair's games are casual.
    assert standing(alt, "countgame").skill.mu < NEWCOMER.skill.mu and standing(alt, "countgame").games == 3
    call_command("ratings", "--check")


def test_leaving_at_the_start_and_coming_back_for_the_end_is_leaving(count_game, monkeypatch, settings):
    """The bot plays the seat's first two moves (its player never opened the table: the
    seat grace ran out), the player takes the seat back for the last (any socket does):
    the result is the bot's, so the player is rated last whatever it scored, and the
    people at the table gain nothing from them."""
    monkeypatch.setitem(count_game.bots, "sensible", FirstCard())
    settings.PIGPARLOR_SEAT_GRACE_MS = 0
    seed = deal_of_six_moves()
    farmer, other = make_user("farmer"), make_user("other")
    before_other = standing(other, "countgame")
    for _ in range(3):
        created = services.create_table(host=farmer, game="countgame", seats=2, rated=True)
        Table.objects.filter(pk=created.pk).update(seed=seed, commitment=commitment(seed))
        services.join_table(created, other)
        presence.open_socket(created.pk, other, f"other-{created.pk}")  # the other player is there
        step_clock(created.pk)  # the farmer is not: a bot takes the seat
        assert table(created.pk).seat_set.get(index=0).replaced
        finished = play_out(created.pk, {0: farmer, 1: other}, come_back=(0, farmer, 2))
        assert not finished.seat_set.get(index=0).replaced  # back in the seat at the end
        assert ActionLog.objects.filter(table=finished, seat=0, user=farmer).count() == 1
        assert ActionLog.objects.filter(table=finished, seat=0, user=None).count() == 2
        assert finished.outcome["left"] == finished.outcome["left_early"] == [0]
        event = RatingEvent.objects.get(table=finished, user=farmer)
        assert event.after.mu < event.before.mu  # rated last: never a gain, whoever won the seat
        assert not RatingEvent.objects.filter(table=finished, user=other).exists()
    assert standing(other, "countgame") == before_other
    assert standing(farmer, "countgame").skill.mu < NEWCOMER.skill.mu
    call_command("ratings", "--check")


def test_the_same_two_people_keep_three_rated_games_a_day(count_game):
    """An alt that stays and loses on purpose: the fourth game of the day is casual."""
    host, alt = make_user("host"), make_user("alt")
    outcomes = []
    for _ in range(5):
        finished = play_out(rated_pair_table(host, alt, private=True), {0: host, 1: alt})
        outcomes.append(finished.outcome.get("unrated"))
    assert outcomes == [None, None, None, "repeat", "repeat"]
    assert standing(host, "countgame").games == standing(alt, "countgame").games == 3
    call_command("ratings", "--check")
