"""``create_table(players=...)``: a table made with its players already chosen
(tournaments) seats them in order after the host, and starts only when every
seat is taken — never with an empty seat."""
import pytest

from pigparlor.tables import services
from pigparlor.tables.errors import TableError
from pigparlor.tables.models import OPEN, RUNNING
from tests.support.tables import make_user, step_clock

pytestmark = pytest.mark.django_db


def test_players_sit_in_order_and_the_table_starts_when_full(count_game):
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    table = services.create_table(host=None, players=[ana, ben, cy], game="countgame", seats=4, bots=1)
    seats = list(table.seat_set.order_by("index"))
    assert [seat.user for seat in seats[:3]] == [ana, ben, cy] and seats[3].bot_kind
    assert table.status == RUNNING and table.host is None


def test_no_host_and_bots_alone_never_start_with_an_empty_seat(count_game):
    table = services.create_table(host=None, game="countgame", seats=3, bots=2)
    assert table.status == OPEN


def test_more_players_and_bots_than_seats_are_refused(count_game):
    users = [make_user(f"u{n}") for n in range(3)]
    with pytest.raises(TableError) as refused:
        services.create_table(host=None, players=users, game="countgame", seats=3, bots=1)
    assert refused.value.code == "bad_request"


def test_players_absent_from_the_start_get_the_grace_then_a_bot(settings):
    """Issue 12 (a player absent when a round starts has the grace, then a bot): the
    absence starts with the deal. The seats were cached at the table's seats_rev
    before the start marked them absent, without a bump, so the clock, reading that
    cache, found no one absent, pushed the wake-up to the turn timer, and absent
    tournament players waited out 30 s timers instead of the grace."""
    settings.PIGPARLOR_SEAT_GRACE_MS = 300
    users = [make_user(f"p{n}") for n in range(4)]
    table = services.create_table(host=None, players=users, game="piggypiggy", seats=4, bots=0)
    table.refresh_from_db()
    assert table.wake_at_ms == table.started_at_ms + 300
    assert step_clock(table.pk)  # the grace is over: the clock's first wake-up
    table.refresh_from_db()
    assert all(seat.replaced for seat in table.seat_set.all())
    assert table.version == 1  # handing over is not a move
    step_clock(table.pk)
    table.refresh_from_db()
    assert table.version == 2 and table.wake_at_ms <= table.changed_at_ms  # the bots play at once
