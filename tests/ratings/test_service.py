"""The rating service: one decision per finished rated table, leavers last, bots at
fixed ratings, the repeat rule, idempotence, the start-up sweep, replay, void and
rebuild."""
import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction

from pigparlor.ratings import service
from pigparlor.ratings.accounts import bot_account, bot_username
from pigparlor.ratings.bot_levels import UNMEASURED, bot_skill
from pigparlor.ratings.models import BotAccount, Rating, RatingEvent, RatingRules
from pigparlor.ratings.scale import MODEL, NEWCOMER, START, Skill, rate_players
from pigparlor.tables import services
from pigparlor.tables.errors import TableError
from pigparlor.tables.models import FINISHED
from tests.ratings.helpers import decided_in_turn, standing
from tests.support.tables import finished_table, make_user, step_clock

pytestmark = pytest.mark.django_db


def skill(user, game="snout") -> Skill:
    return standing(user, game).skill


def check_passes():
    call_command("ratings", "--check")


def test_a_finished_rated_table_moves_each_player_as_openskill_does():
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    table = finished_table([ana, ben, cy], [2, 1, 3])
    assert service.rate_table(table.pk)
    expected = MODEL.rate([[MODEL.rating()], [MODEL.rating()], [MODEL.rating()]], ranks=[2, 1, 3])
    assert [(skill(u).mu, skill(u).sigma) for u in (ana, ben, cy)] == [(t[0].mu, t[0].sigma) for t in expected]
    assert Rating.objects.get(user=ben, game="snout").games == 1
    event = RatingEvent.objects.get(table=table, user=ben)
    assert (event.before, event.seat, event.reason, event.games) == (START, 1, "table", 1)
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


def test_every_bot_seat_is_its_own_player_at_its_levels_fixed_rating_and_never_moves():
    """Three Easy bots at one table take three different places: a person is rated
    against each by place, and no bot's rating changes."""
    ana = make_user("ana")
    easy = bot_skill("snout", "easy")
    table = finished_table([ana, "easy", "easy", "easy"], [2, 1, 3, 4])
    assert service.rate_table(table.pk)
    teams = [[MODEL.rating()]] + [[MODEL.rating(mu=easy.mu, sigma=easy.sigma)] for _ in range(3)]
    expected = MODEL.rate(teams, ranks=[2, 1, 3, 4])[0][0]
    assert skill(ana) == Skill(expected.mu, expected.sigma)
    assert [event.user for event in RatingEvent.objects.filter(table=table)] == [ana]
    bot = BotAccount.objects.get(kind="easy").user
    assert bot.get_username() == bot_username("easy") == "bot:easy" and not Rating.objects.filter(user=bot).exists()
    assert not bot.has_usable_password() and bot.profile.display_name == "Easy bot"
    check_passes()


def test_a_level_without_a_measured_rating_plays_at_1500_with_a_bots_certainty(count_game):
    ana = make_user("ana")
    service.rate_table(finished_table([ana, "sensible"], [1, 2], game="countgame").pk)
    expected = MODEL.rate([[MODEL.rating()], [MODEL.rating(mu=25, sigma=UNMEASURED.sigma)]],
                          ranks=[1, 2])[0][0]
    assert skill(ana, "countgame") == Skill(expected.mu, expected.sigma)


def test_a_table_of_bots_only_is_decided_as_unrated_and_left_alone():
    table = finished_table(["easy", "sensible"], [1, 2])
    assert service.rate_table(table.pk) and service.rate_table(table.pk) is False
    table.refresh_from_db()
    assert table.outcome["unrated"] == "no_players" and not RatingEvent.objects.exists()
    assert list(service.unrated_tables()) == []
    check_passes()


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


def test_rating_a_table_twice_changes_nothing_and_the_database_refuses_a_second_decision():
    ana, ben = make_user("ana"), make_user("ben")
    table = finished_table([ana, ben], [1, 2])
    assert service.rate_table(table.pk) is True
    once = (skill(ana), skill(ben), RatingEvent.objects.count(), Rating.objects.get(user=ana).games)
    assert service.rate_table(table.pk) is False and service.rate_unrated() == 0
    assert (skill(ana), skill(ben), RatingEvent.objects.count(), Rating.objects.get(user=ana).games) == once
    for reason in ("table", "repeat"):
        with pytest.raises(IntegrityError), transaction.atomic():
            RatingEvent.objects.create(user=ana, game="snout", table=table, mu_before=25, sigma_before=8,
                                       mu_after=26, sigma_after=7, reason=reason)


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
    # Ana left before playing her share: she is rated last; the bot's rating is fixed.
    assert RatingEvent.objects.filter(table=table).count() == 1 and table.outcome["left_early"] == [0]
    assert skill(ana, "countgame").mu < START.mu  # left for good: last, though the bot may have won
    check_passes()


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
    assert [e.user.get_username() for e in RatingEvent.objects.filter(table=table)] == ["ana"]
    assert BotAccount.objects.filter(kind="sensible").exists()  # the bot's page, linked from the results


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
              finished_table([cy, "sensible", ana], [1, 2, 3], left=[2], left_early=[2])]
    for table in tables:
        service.rate_table(table.pk)
    return (ana, ben, cy, dee), tables


def test_a_replay_of_the_rated_tables_equals_the_stored_ratings_and_check_notices_a_change():
    (ana, *_), _ = _three_tables()
    assert service.differences("snout") == []
    check_passes()
    Rating.objects.filter(user=ana).update(mu=30)
    assert [d.user_id for d in service.differences("snout")] == [ana.pk]
    with pytest.raises(CommandError):
        call_command("ratings", "--check")


def test_voiding_a_table_replays_without_it_in_one_call():
    (ana, ben, cy, dee), tables = _three_tables()
    service.void_table(tables[1].pk, note="collusion")
    expected = service.replay("snout").ratings
    assert {row.user_id: row.standing for row in Rating.objects.all()} == {**expected, dee.pk: NEWCOMER}
    assert Rating.objects.get(user=dee).games == 0 and skill(dee) == START
    voids = RatingEvent.objects.filter(reason="void", table=tables[1])
    assert voids.count() >= 4 and voids.get(user=dee).games == 0
    assert service.void_table(tables[1].pk) == 0
    check_passes()


# -- playing the same people again ---------------------------------------------

def test_the_same_people_count_three_times_within_24_hours_and_then_again_a_day_later():
    ana, ben = make_user("ana"), make_user("ben")
    tables = decided_in_turn([ana, ben, "sensible"], [0, 1, 2, 3, 5, 26, 27, 28, 29])
    assert [t.outcome.get("unrated") for t in tables] == [None, None, None, "repeat", "repeat",
                                                          None, None, None, "repeat"]
    assert Rating.objects.get(user=ana).games == 6
    repeat = RatingEvent.objects.filter(table=tables[3]).order_by("user_id")
    assert [(e.user, e.reason, e.before == e.after, e.games) for e in repeat] == [
        (ana, "repeat", True, 3), (ben, "repeat", True, 3)]
    assert service.audit("snout").misjudged == {}
    check_passes()


def test_another_group_or_a_person_with_bots_alone_is_not_a_repeat():
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    decided_in_turn([ana, ben], [0, 1, 2])
    assert [t.outcome.get("unrated") for t in decided_in_turn([ana, ben, cy], [3, 4])] == [None, None]
    assert [t.outcome.get("unrated") for t in decided_in_turn([ana, "easy"], [5, 6, 7, 8])] == [None] * 4
    assert Rating.objects.get(user=ana).games == 9


def test_the_rule_looks_both_ways_so_a_late_finisher_decided_last_is_the_repeat():
    """Decided in another order than they finished (a sweep after a crash, two
    processes): whichever is decided fourth within 24 hours of the other three is the
    repeat, and the replay, in the same order, agrees."""
    ana, ben = make_user("ana"), make_user("ben")
    tables = decided_in_turn([ana, ben], [10, 12, 14, 0])
    assert [t.outcome.get("unrated") for t in tables] == [None, None, None, "repeat"]
    assert service.audit("snout").misjudged == {}
    check_passes()


def test_check_refuses_a_decision_the_rules_do_not_give():
    ana, ben = make_user("ana"), make_user("ben")
    tables = decided_in_turn([ana, ben], [0, 1, 2, 3])
    tables[3].outcome = {key: value for key, value in tables[3].outcome.items() if key != "unrated"}
    tables[3].save()
    assert service.audit("snout").misjudged == {tables[3].pk: True}
    with pytest.raises(CommandError):
        call_command("ratings", "--check")


def test_a_voided_game_still_counts_as_played_together():
    ana, ben = make_user("ana"), make_user("ben")
    first, *_ = decided_in_turn([ana, ben], [0, 1, 2])
    service.void_table(first.pk)
    assert decided_in_turn([ana, ben], [3])[0].outcome["unrated"] == "repeat"
    check_passes()


# -- a change of rules ---------------------------------------------------------

def test_ratings_kept_under_older_rules_are_rebuilt_once_and_then_check_passes():
    """A site rated bots as one moving account per level and knew no repeat rule:
    ``rebuild_if_rules_changed`` replays every table under today's rules."""
    ana, ben = make_user("ana"), make_user("ben")
    tables = [finished_table([ana, ben, "easy", "easy"], [1, 2, 3, 4]) for _ in range(4)]
    sensible = bot_account("easy")
    for table in tables:  # what the old service wrote: bots moved, no repeat rule
        for seat, user in ((0, ana), (1, ben), (2, sensible)):
            RatingEvent.objects.create(user=user, game="snout", table=table, seat=seat, mu_before=25,
                                       sigma_before=8, mu_after=26, sigma_after=7, games=1)
    for user in (ana, ben, sensible):
        Rating.objects.create(user=user, game="snout", mu=27, sigma=6, games=4)
    RatingRules.objects.update(version=1)
    with pytest.raises(CommandError):
        call_command("ratings", "--check")
    assert service.rebuild_if_rules_changed() == 3 and service.rebuild_if_rules_changed() == 0
    assert RatingRules.objects.get().version == service.RULES
    tables[3].refresh_from_db()
    assert tables[3].outcome["unrated"] == "repeat" and Rating.objects.get(user=ana).games == 3
    assert Rating.objects.get(user=sensible).standing == NEWCOMER
    assert RatingEvent.objects.filter(reason="rules", table=None).count() == 3
    check_passes()
