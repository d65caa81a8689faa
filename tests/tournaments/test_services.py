"""The tournament services in one process, with real tables played through
the tables' door: elimination chained to a final of another game, Swiss with
byes, check-in, no-shows, withdrawals, staff removal, idempotent advance."""
import random
from datetime import timedelta

import pytest
from django.utils import timezone

from pigparlor.ratings.models import RatingEvent
from pigparlor.tables import presence
from pigparlor.tables.errors import TableError
from pigparlor.tables.models import FINISHED as TABLE_FINISHED
from pigparlor.tournaments import services
from pigparlor.tournaments.models import CANCELLED, FINISHED, RUNNING, Entry, Result, Round, Tournament, TournamentTable
from pigparlor.tournaments.standings import me_status, rounds, standings
from tests.support.tables import make_user
from tests.tournaments.helpers import (
    check_everyone_in,
    make_tournament,
    near_the_end,
    play_round,
    play_table,
    running_tables,
    seat_all,
    start_now,
)

pytestmark = pytest.mark.django_db(transaction=True)

PIG_PILE_THEN_SNOUT = [
    {"game": "pigpile", "format": "elimination", "table_size": 4, "advance": 2, "options": {"turn_seconds": 30}},
    {"game": "snout", "format": "elimination", "table_size": 4, "advance": 2},
]


@pytest.fixture(autouse=True)
def _long_grace(settings):
    # Players here have no sockets: they must not be taken for absent while the clock skips ahead.
    settings.PIGPARLOR_SEAT_GRACE_MS = 10 ** 9


def test_eight_players_two_pig_pile_tables_then_a_snout_final_of_the_four_who_went_on():
    tournament, users = make_tournament(PIG_PILE_THEN_SNOUT, players=8, starts_in=timedelta(minutes=5))
    check_everyone_in(tournament, users)
    start_now(tournament)
    tournament.refresh_from_db()
    assert tournament.status == RUNNING
    first = Round.objects.get(tournament=tournament, stage__index=0, index=0)
    assert [len(t.players) for t in first.tables.all()] == [4, 4]
    assert all(t.table.game == "pigpile" and t.table.rated and t.bots == 0 for t in first.tables.all())
    assert me_status(tournament, users[0])["status"] == "playing"
    rng = random.Random(8)
    for table_id in running_tables(tournament):
        near_the_end(table_id)  # the Pig Pile tables' last round decides who goes on, as a whole game would
    play_round(tournament, rng)
    final = Round.objects.get(tournament=tournament, stage__index=1, index=0)
    assert final.final and final.tables.count() == 1
    finalists = final.tables.get().players
    assert len(finalists) == 4
    # The two best of each Pig Pile table went on.
    for table in first.tables.all():
        places = dict(Result.objects.filter(table=table).values_list("entry__user_id", "place"))
        assert {user for user, place in places.items() if user in finalists} == \
            {user for user, _ in sorted(places.items(), key=lambda item: item[1])[:2]} or \
            sorted(places[user] for user in places if user in finalists) == sorted(places.values())[:2]
    play_round(tournament, rng)
    tournament.refresh_from_db()
    assert tournament.status == FINISHED
    final_table = final.tables.get().table
    assert final_table.game == "snout" and final_table.status == TABLE_FINISHED
    table_places = dict(Result.objects.filter(round=final).values_list("entry__user__username", "place"))
    rows = standings(tournament)
    assert {row.username: row.place for row in rows[:4]} == table_places
    assert [row.place for row in rows] == sorted(row.place for row in rows)
    assert all(row.status == "done" for row in rows[:4]) and all(row.status == "out" for row in rows[4:])
    assert me_status(tournament, users[0])["status"] == "done"
    assert Entry.objects.filter(tournament=tournament, place__isnull=True).count() == 0
    # Rated: every table moved its players' ratings through the ratings hook.
    for tournament_table in TournamentTable.objects.filter(round__tournament=tournament):
        assert RatingEvent.objects.filter(table=tournament_table.table).count() == 4
    described = rounds(tournament)
    assert [(r["stage"], r["round"], len(r["tables"])) for r in described] == [(0, 0, 2), (1, 0, 1)]


def test_advance_is_idempotent_and_seats_a_round_once():
    tournament, users = make_tournament(PIG_PILE_THEN_SNOUT, players=8)
    check_everyone_in(tournament, users)
    start_now(tournament)
    assert not services.advance(tournament.pk)
    assert seat_all() == 0
    rng = random.Random(3)
    for table_id in running_tables(tournament):
        near_the_end(table_id)  # what is checked is the advance after the round, not the play
        play_table(table_id, rng)
    for _ in range(3):
        services.advance(tournament.pk)
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert seat_all() == 1 and seat_all() == 0


def test_swiss_with_byes_and_a_withdrawal_between_rounds():
    stages = [{"game": "snout", "format": "swiss", "table_size": 4, "rounds": 3}]
    tournament, users = make_tournament(stages, players=11)
    check_everyone_in(tournament, users)
    start_now(tournament)
    first = Round.objects.get(tournament=tournament, index=0)
    assert first.tables.count() == 2
    byes = list(Result.objects.filter(round=first, bye=True).values_list("entry__user_id", flat=True))
    assert len(byes) == 3 and all(points == 1.5 for points in Result.objects.filter(
        round=first, bye=True).values_list("points", flat=True))
    rng = random.Random(11)
    # A player with a bye may withdraw between rounds; a seated player may not.
    seated = first.tables.first().players[0]
    with pytest.raises(TableError) as refused:
        services.withdraw(tournament.pk, next(u for u in users if u.pk == seated))
    assert refused.value.code == "illegal"
    leaver = next(u for u in users if u.pk == byes[0])
    services.withdraw(tournament.pk, leaver)
    play_round(tournament, rng)
    second = Round.objects.get(tournament=tournament, index=1)
    assert leaver.pk not in [p for t in second.tables.all() for p in t.players]
    second_byes = set(Result.objects.filter(round=second, bye=True).values_list("entry__user_id", flat=True))
    assert len(second_byes) == 10 % 4 and not second_byes & set(byes)  # nobody has a second bye yet
    play_round(tournament, rng)
    play_round(tournament, rng)
    tournament.refresh_from_db()
    assert tournament.status == FINISHED
    rows = standings(tournament)
    assert rows[-1].username == leaver.username and rows[-1].status == "out"
    points = [row.points for row in rows[:-1]]
    assert points == sorted(points, reverse=True)


def test_no_shows_are_dropped_and_too_few_cancels_it():
    tournament, users = make_tournament(PIG_PILE_THEN_SNOUT, players=5, minimum=4)
    check_everyone_in(tournament, users[:3])
    start_now(tournament)
    tournament.refresh_from_db()
    assert tournament.status == CANCELLED and "3" in tournament.cancel_reason
    assert set(tournament.entries.values_list("status", flat=True)) == {"checked_in", "no_show"}
    assert me_status(tournament, users[0]) == {"status": "done", "table": None}


def test_no_shows_are_dropped_at_the_start():
    tournament, users = make_tournament(PIG_PILE_THEN_SNOUT, players=9)
    check_everyone_in(tournament, users[:8])
    start_now(tournament)
    assert Entry.objects.get(user=users[8]).status == "no_show"
    assert me_status(tournament, users[8]) == {"status": "out", "table": None}
    assert sum(len(t.players) for t in TournamentTable.objects.filter(round__tournament=tournament)) == 8


def test_check_in_only_in_the_last_ten_minutes():
    tournament, users = make_tournament(PIG_PILE_THEN_SNOUT, players=1, starts_in=timedelta(minutes=30))
    with pytest.raises(TableError) as refused:
        services.check_in(tournament.pk, users[0])
    assert refused.value.code == "illegal" and "10 minutes" in refused.value.message
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() + timedelta(minutes=9))
    assert services.check_in(tournament.pk, users[0]).status == "checked_in"
    assert services.check_in(tournament.pk, users[0]).status == "checked_in"


def test_registration_refusals_change_nothing():
    tournament, users = make_tournament(PIG_PILE_THEN_SNOUT, players=2, maximum=2)
    extra = make_user("late")
    with pytest.raises(TableError) as full:
        services.register(tournament.pk, extra)
    assert full.value.code == "illegal" and "full" in full.value.message
    with pytest.raises(TableError) as twice:
        services.register(tournament.pk, users[0])
    assert twice.value.code == "illegal"
    picky, _ = make_tournament(PIG_PILE_THEN_SNOUT, conditions={"min_games": 3}, name="Picky")
    with pytest.raises(TableError) as unfit:
        services.register(picky.pk, extra)
    assert unfit.value.code == "forbidden" and "3 rated Pig Pile games" in unfit.value.message
    established, _ = make_tournament(PIG_PILE_THEN_SNOUT, conditions={"established": True}, name="Est")
    with pytest.raises(TableError) as provisional:
        services.register(established.pk, extra)
    assert provisional.value.code == "forbidden"
    assert Entry.objects.filter(user=extra).count() == 0


def test_staff_remove_a_player_before_the_start_and_cancel_with_a_reason():
    tournament, users = make_tournament(PIG_PILE_THEN_SNOUT, players=3)
    services.remove_player(tournament.pk, users[0], "abusive chat")
    assert Entry.objects.get(user=users[0]).status == "removed"
    with pytest.raises(TableError):
        services.cancel_tournament(tournament.pk, "  ")
    services.cancel_tournament(tournament.pk, "server maintenance")
    tournament.refresh_from_db()
    assert (tournament.status, tournament.cancel_reason) == (CANCELLED, "server maintenance")
    with pytest.raises(TableError) as late:
        services.register(tournament.pk, make_user("newcomer"))
    assert late.value.code == "illegal"


def test_a_player_who_never_comes_scores_last_at_their_table(settings):
    tournament, users = make_tournament([{"game": "snout", "format": "swiss", "table_size": 4, "rounds": 1}],
                                        players=4)
    check_everyone_in(tournament, users)
    start_now(tournament)
    settings.PIGPARLOR_SEAT_GRACE_MS = 60_000
    [table_id] = running_tables(tournament)
    for user in users[:2] + users[3:]:  # the others are at the table, with a socket open
        presence.open_socket(table_id, user, f"test-channel-{user.pk}")
    play_table(table_id, random.Random(1), absent={users[2].pk})
    result = Result.objects.get(entry__user=users[2])
    assert (result.place, result.points, result.left) == (4, 0.0, True)
    tournament.refresh_from_db()
    assert tournament.status == FINISHED and standings(tournament)[-1].username == users[2].username
