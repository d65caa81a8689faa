"""The rating service: one rating per finished rated table, leavers last, bots
rated, idempotence, the start-up sweep, replay and void."""
import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction

from pigparlor.ratings import service
from pigparlor.ratings.accounts import bot_username
from pigparlor.ratings.models import BotAccount, Rating, RatingEvent
from pigparlor.ratings.scale import MODEL, START, Skill, rate_players
from pigparlor.tables import services
from pigparlor.tables.errors import TableError
from pigparlor.tables.models import FINISHED
from tests.support.tables import finished_table, make_user, step_clock

pytestmark = pytest.mark.django_db


def skill(user, game="snout") -> Skill:
    row = Rating.objects.filter(user=user, game=game).first()
    return row.skill if row else START


def test_a_finished_rated_table_moves_each_player_as_openskill_does():
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    table = finished_table([ana, ben, cy], [2, 1, 3])
    assert service.rate_table(table.pk)
    expected = MODEL.rate([[MODEL.rating()], [MODEL.rating()], [MODEL.rating()]], ranks=[2, 1, 3])
    assert [(skill(u).mu, skill(u).sigma) for u in (ana, ben, cy)] == [(t[0].mu, t[0].sigma) for t in expected]
    assert Rating.objects.get(user=ben, game="snout").games == 1
    event = RatingEvent.objects.get(table=table, user=ben)
    assert (event.before, event.seat, event.reason) == (START, 1, "table")
    assert event.after == skill(ben)


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_two_to_six_seats_with_ties(seats):
    users = [make_user(f"p{n}") for n in range(seats)]
    ranks = [1] + [2] * (seats - 1)
    service.rate_table(finished_table(users, ranks).pk)
    after = [skill(u) for u in users]
    assert after[0].mu > START.mu and len({s for s in after[1:]}) == 1
    assert all(s.sigma < START.sigma for s in after)


def test_a_four_player_win_moves_a_rating_more_than_a_two_player_win():
    two, four = make_user("two"), make_user("four")
    service.rate_table(finished_table([two, make_user("x")], [1, 2]).pk)
    service.rate_table(finished_table([four, make_user("y"), make_user("z"), make_user("w")], [1, 2, 3, 4]).pk)
    assert skill(four).mu - START.mu > skill(two).mu - START.mu


def test_a_player_who_left_for_good_ranks_last_even_when_the_bot_won_their_seat():
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    service.rate_table(finished_table([ana, ben, cy], [1, 2, 3], left=[0]).pk)
    expected = rate_players([1, 2, 3], {}, [4, 2, 3])
    assert (skill(ana), skill(ben), skill(cy)) == (expected[1], expected[2], expected[3])
    assert skill(ana).mu < START.mu


def test_bots_are_rated_players_with_one_account_per_policy():
    ana = make_user("ana")
    table = finished_table([ana, "sensible", "sensible", "random"], [2, 1, 3, 4])
    service.rate_table(table.pk)
    sensible = BotAccount.objects.get(kind="sensible").user
    assert sensible.get_username() == bot_username("sensible") == "bot:sensible"
    assert not sensible.has_usable_password() and sensible.profile.display_name == "Sensible bot"
    assert RatingEvent.objects.filter(table=table).count() == 3  # ana, sensible (two seats, one event), random
    expected = rate_players([ana.pk, sensible.pk, sensible.pk, "random"], {}, [2, 1, 3, 4])
    assert skill(sensible) == expected[sensible.pk] and skill(ana) == expected[ana.pk]
    assert Rating.objects.get(user=sensible, game="snout").games == 1


def test_casual_unfinished_and_voided_tables_are_not_rated():
    ana, ben = make_user("ana"), make_user("ben")
    casual = finished_table([ana, ben], [1, 2], rated=False)
    running = finished_table([ana, ben], [1, 2])
    running.status = "running"
    running.save()
    voided = finished_table([ana, ben], [1, 2])
    service.void_table(voided.pk)
    assert not any(service.rate_table(t.pk) for t in (casual, running, voided))
    assert not RatingEvent.objects.filter(reason="table").exists()


def test_rating_a_table_twice_changes_nothing_and_the_database_refuses_a_second_event():
    ana, ben = make_user("ana"), make_user("ben")
    table = finished_table([ana, ben], [1, 2])
    assert service.rate_table(table.pk) is True
    once = (skill(ana), skill(ben), RatingEvent.objects.count(), Rating.objects.get(user=ana).games)
    assert service.rate_table(table.pk) is False and service.rate_unrated() == 0
    assert (skill(ana), skill(ben), RatingEvent.objects.count(), Rating.objects.get(user=ana).games) == once
    with pytest.raises(IntegrityError), transaction.atomic():
        RatingEvent.objects.create(user=ana, game="snout", table=table, mu_before=25, sigma_before=8,
                                   mu_after=26, sigma_after=7, reason="table")


def test_the_sweep_catches_up_a_table_whose_rating_a_crash_lost(count_game):
    """The table's final commit happened, the after-commit rating never ran
    (this test's transaction never commits): the start-up sweep rates it."""
    ana = make_user("ana")
    table = services.create_table(host=ana, game="countgame", seats=2, bots=1)
    services.leave_table(table, ana)
    while step_clock(table.pk):
        pass
    table.refresh_from_db()
    assert table.status == FINISHED and table.rated and table.outcome["left"] == [0]
    assert list(service.unrated_tables()) == [table]
    assert service.rate_unrated() == 1 and service.rate_unrated() == 0
    # Ana left before playing her share: she is rated last, and nobody is rated for beating her.
    assert RatingEvent.objects.filter(table=table).count() == 1 and table.outcome["left_early"] == [0]
    assert skill(ana, "countgame").mu < START.mu  # left for good: last, though the bot may have won
    call_command("ratings", "--check")


def test_the_last_move_rates_the_table_after_its_commit(count_game, django_capture_on_commit_callbacks):
    ana = make_user("ana")
    with django_capture_on_commit_callbacks(execute=True):
        table = services.create_table(host=ana, game="countgame", seats=3, bots=2)
        services.leave_table(table, ana)
    while True:
        with django_capture_on_commit_callbacks(execute=True):
            if not step_clock(table.pk):
                break
    table.refresh_from_db()
    assert table.status == FINISHED
    events = RatingEvent.objects.filter(table=table)
    assert {e.user.get_username() for e in events} == {"ana", "bot:sensible"}


def test_rated_defaults_to_public_and_must_be_a_boolean(count_game):
    ana = make_user("ana")
    assert services.create_table(host=ana, game="countgame", seats=2).rated is True
    assert services.create_table(host=ana, game="countgame", seats=2, private=True).rated is False
    assert services.create_table(host=ana, game="countgame", seats=2, private=True, rated=True).rated is True
    tables = ana.hosted_tables.count()
    for bad in ("yes", 1, "false", None.__class__):
        with pytest.raises(TableError) as caught:
            services.create_table(host=ana, game="countgame", seats=2, rated=bad)
        assert caught.value.code == "bad_request"
    assert ana.hosted_tables.count() == tables


def _three_tables():
    ana, ben, cy, dee = (make_user(n) for n in ("ana", "ben", "cy", "dee"))
    tables = [finished_table([ana, ben, "sensible"], [1, 2, 3]),
              finished_table([ben, cy, dee, ana], [2, 2, 1, 4]),
              finished_table([cy, "sensible", ana], [1, 2, 3], left=[2])]
    for table in tables:
        service.rate_table(table.pk)
    return (ana, ben, cy, dee), tables


def test_a_replay_of_the_rated_tables_equals_the_stored_ratings_and_check_notices_a_change():
    (ana, *_), _ = _three_tables()
    assert service.differences("snout") == []
    call_command("ratings", "--check")
    Rating.objects.filter(user=ana).update(mu=30)
    assert [d.user_id for d in service.differences("snout")] == [ana.pk]
    with pytest.raises(CommandError):
        call_command("ratings", "--check")


def test_voiding_a_table_replays_without_it_in_one_call():
    (ana, ben, cy, dee), tables = _three_tables()
    service.void_table(tables[1].pk, note="collusion")
    expected = service.replay("snout")
    assert {row.user_id: (row.skill, row.games) for row in Rating.objects.all()} == {
        user_id: (found.skill, found.games) for user_id, found in expected.items()} | {dee.pk: (START, 0)}
    assert Rating.objects.get(user=dee).games == 0 and skill(dee) == START
    assert RatingEvent.objects.filter(reason="void", table=tables[1]).count() >= 4
    assert service.void_table(tables[1].pk) == 0
    call_command("ratings", "--check")
