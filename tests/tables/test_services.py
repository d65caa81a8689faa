"""The table services and the one door, ``act``: order of checks, refusals that change nothing."""
import pytest

from pigparlor.tables import presence, services
from pigparlor.tables.errors import TableError
from pigparlor.tables.models import ABORTED, FINISHED, OPEN, RUNNING, ActionLog, Table
from tests.support.tables import make_user, state_at, step_clock

pytestmark = pytest.mark.django_db


def snapshot(table_id):
    table = Table.objects.get(pk=table_id)
    return table.version, table.state, list(ActionLog.objects.filter(table=table).values_list("version", "action"))


def refused(code, table_id, *args, **kwargs):
    before = snapshot(table_id)
    with pytest.raises(TableError) as caught:
        services.act(table_id, *args, **kwargs)
    assert caught.value.code == code
    assert snapshot(table_id) == before


def test_table_with_bots_in_every_other_seat_starts_at_once(count_game):
    ana = make_user("ana")
    table = services.create_table(host=ana, game="countgame", seats=3, bots=2)
    table.refresh_from_db()
    assert table.status == RUNNING and table.version == 1 and table.state is not None
    assert [(seat.user_id, seat.bot_kind) for seat in table.seat_set.all()] == [
        (ana.pk, ""), (None, "sensible"), (None, "sensible")]


def test_open_table_starts_when_the_last_seat_is_taken(count_game):
    ana, ben = make_user("ana"), make_user("ben")
    table = services.create_table(host=ana, game="countgame", seats=2)
    assert Table.objects.get(pk=table.pk).status == OPEN
    assert services.join_table(table, ben) == 1
    assert Table.objects.get(pk=table.pk).status == RUNNING


def test_host_starts_early_with_bots_in_the_empty_seats(count_game):
    ana, ben = make_user("ana"), make_user("ben")
    table = services.create_table(host=ana, game="countgame", seats=4)
    with pytest.raises(TableError) as caught:
        services.start_table(table, ben)
    assert caught.value.code == "forbidden"
    services.start_table(table, ana)
    table.refresh_from_db()
    assert table.status == RUNNING
    assert [seat.bot_kind for seat in table.seat_set.all()] == ["", "sensible", "sensible", "sensible"]


def test_unknown_game_bad_seats_and_bad_options_are_bad_requests(count_game):
    ana = make_user("ana")
    for kwargs in ({"game": "nope", "seats": 2}, {"game": "countgame", "seats": 9},
                   {"game": "countgame", "seats": 2, "options": {"colour": "red"}},
                   {"game": "countgame", "seats": 2, "bots": 2}):
        with pytest.raises(TableError) as caught:
            services.create_table(host=ana, **kwargs)
        assert caught.value.code == "bad_request"
    assert not Table.objects.exists()


def test_private_table_needs_its_invite_code(count_game):
    ana, ben = make_user("ana"), make_user("ben")
    table = services.create_table(host=ana, game="countgame", seats=2, private=True)
    with pytest.raises(TableError) as caught:
        services.join_table(table, ben)
    assert caught.value.code == "forbidden"
    assert services.join_table(table, ben, invite_code=table.invite_code) == 1


def test_leaving_before_the_start_frees_the_seat_and_the_last_human_closes_the_table(count_game):
    ana, ben = make_user("ana"), make_user("ben")
    table = services.create_table(host=ana, game="countgame", seats=3)
    services.join_table(table, ben)
    services.leave_table(table, ana)
    table.refresh_from_db()
    assert table.host == ben and table.seat_set.get(index=0).user is None
    services.leave_table(table, ben)
    assert Table.objects.get(pk=table.pk).status == ABORTED


def test_act_applies_logs_and_bumps_the_version(count_game):
    ana = make_user("ana")
    table = services.create_table(host=ana, game="countgame", seats=2, bots=1)
    table.refresh_from_db()
    card = count_game.engine.legal_actions(count_game.engine.load(table.state), 0)[0]
    assert services.act(table.pk, 0, card, 1, user=ana) == 2
    entry = ActionLog.objects.get(table=table)
    assert (entry.version, entry.seat, entry.action, entry.user) == (2, 0, card, ana)


def test_act_refuses_in_order_and_changes_nothing(count_game):
    ana, ben = make_user("ana"), make_user("ben")
    table = services.create_table(host=ana, game="countgame", seats=2, bots=1)
    table.refresh_from_db()
    play = count_game.engine.legal_actions(count_game.engine.load(table.state), 0)[0]
    with pytest.raises(TableError) as caught:
        services.act(999999, 0, play, 1)
    assert caught.value.code == "not_found"
    refused("forbidden", table.pk, 0, play, 1, user=ben)       # not your seat, even with a stale version
    refused("forbidden", table.pk, 1, play, 1, user=ana)       # the bot's seat is not yours
    refused("stale", table.pk, 0, play, 0, user=ana)
    refused("illegal", table.pk, 0, {"type": "play", "card": 999}, 1, user=ana)
    refused("illegal", table.pk, 1, play, 1)                   # not seat 1's turn
    refused("bad_request", table.pk, 0, {"card": 1}, 1, user=ana)
    refused("bad_request", table.pk, 0, play, "1", user=ana)


def test_a_finished_game_refuses_everything_as_over(count_game):
    ana = make_user("ana")
    table = services.create_table(host=ana, game="countgame", seats=2, bots=1, options={"turn_seconds": 5})
    while step_clock(table.pk):
        pass
    table.refresh_from_db()
    assert table.status == FINISHED and table.outcome["ranks"] in ([1, 2], [2, 1])
    refused("illegal", table.pk, 0, {"type": "play", "card": 0}, table.version, user=ana)


def test_the_log_replays_to_the_stored_state(count_game):
    ana = make_user("ana")
    table = services.create_table(host=ana, game="countgame", seats=3, bots=2, options={"turn_seconds": 5})
    while step_clock(table.pk):
        pass
    table.refresh_from_db()
    engine = count_game.engine
    assert state_at(table.pk, table.version) == engine.load(table.state)


def test_leaving_a_running_table_is_for_good_a_bot_plays_the_seat_to_the_end(count_game):
    ana, ben = make_user("ana"), make_user("ben")
    table = services.create_table(host=ana, game="countgame", seats=2)
    services.join_table(table, ben)
    services.leave_table(table, ana)
    table.refresh_from_db()
    seat = table.seat_set.get(index=0)
    assert seat.replaced and seat.resigned and seat.user_id == ana.pk  # still hers for the result
    step_clock(table.pk)  # the stand-in bot plays seat 0's turn
    table.refresh_from_db()
    assert table.version == 2 and ActionLog.objects.get(table=table).seat == 0
    services.act(table.pk, 1, count_game.engine.legal_actions(count_game.engine.load(table.state), 1)[0], 2, user=ben)
    table.refresh_from_db()
    refused("forbidden", table.pk, 0, count_game.engine.legal_actions(count_game.engine.load(table.state), 0)[0], 3,
            user=ana)
    presence.reclaim_seat(table.pk, ana)  # "I'm here" does not undo a Leave
    assert table.seat_set.get(index=0).replaced
    with pytest.raises(TableError) as caught:
        services.leave_table(table, ana)
    assert caught.value.code == "illegal"


def test_three_timeouts_in_a_row_hand_the_seat_to_a_bot(count_game):
    ana, ben = make_user("ana"), make_user("ben")
    table = services.create_table(host=ana, game="countgame", seats=2, options={"turn_seconds": 30})
    services.join_table(table, ben)
    for player in (ana, ben):  # both have the table open: only the timeouts count
        presence.open_socket(table.pk, player, f"test-channel-{player.username}")
    engine = count_game.engine
    for turn in range(3):
        for _ in range(3):  # ana's turn runs out (the clock may first have something else due)
            step_clock(table.pk)
            table.refresh_from_db()
            if table.seat_set.get(index=0).timeouts > turn or table.status != RUNNING:
                break
        if table.status != RUNNING:
            break
        assert table.seat_set.get(index=0).timeouts == turn + 1
        if table.status != RUNNING:
            break
        services.act(table.pk, 1, engine.legal_actions(engine.load(table.state), 1)[0], table.version, user=ben)
    assert table.seat_set.get(index=0).replaced or table.status == FINISHED
