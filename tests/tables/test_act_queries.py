"""What one ``act`` costs the database (issue 14): the query count of one move is
pinned, so a change that adds a query to every action of every table shows here.
The one door stays whole: row lock, version check, log row, new version."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.pigpile.engine import ENGINE
from pigparlor.tables import rendering, services
from pigparlor.tables.errors import TableError
from pigparlor.tables.models import ActionLog, Table
from tests.support.tables import make_user

pytestmark = pytest.mark.django_db(transaction=True)


def four_players_at_pig_pile():
    players = [make_user(name) for name in ("ana", "ben", "cy", "di")]
    table = services.create_table(host=players[0], game="pigpile", seats=4)
    for player in players[1:]:
        services.join_table(table, player)
    return Table.objects.get(pk=table.pk), players


def a_move(table):
    state = ENGINE.load(table.state)
    return next((seat, legal[0]) for seat in range(4) if (legal := ENGINE.legal_actions(state, seat)))


def statements(queries) -> list[str]:
    return [query["sql"].split()[0].upper() for query in queries.captured_queries]


def test_one_act_is_five_statements_lock_log_update():
    table, players = four_players_at_pig_pile()
    seat, action = a_move(table)
    rendering.load_snapshot(table.pk)  # this process has seen the table: its seats are cached
    with CaptureQueriesContext(connection) as queries:
        version = services.act(table.pk, seat, action, table.version, user=players[seat])
    assert statements(queries) == ["BEGIN", "SELECT", "INSERT", "UPDATE", "COMMIT"]
    assert queries.captured_queries[0]["sql"] == "BEGIN IMMEDIATE"  # SQLite's row lock: the write lock, up front
    assert version == table.version + 1
    assert ActionLog.objects.get(table=table, version=version).action == action
    assert Table.objects.get(pk=table.pk).version == version


def test_a_process_that_has_not_seen_the_table_reads_its_seats_once():
    table, players = four_players_at_pig_pile()
    seat, action = a_move(table)
    for cache in (rendering.SNAPSHOTS, rendering.SEATS):
        cache.items.clear()
    with CaptureQueriesContext(connection) as queries:
        services.act(table.pk, seat, action, table.version, user=players[seat])
    assert statements(queries) == ["BEGIN", "SELECT", "SELECT", "INSERT", "UPDATE", "COMMIT"]


def test_a_stale_act_is_one_locked_read_and_changes_nothing():
    table, players = four_players_at_pig_pile()
    seat, action = a_move(table)
    rendering.load_snapshot(table.pk)
    with CaptureQueriesContext(connection) as queries, pytest.raises(TableError) as refused:
        services.act(table.pk, seat, action, table.version - 1, user=players[seat])
    assert refused.value.code == "stale"
    assert statements(queries) == ["BEGIN", "SELECT", "ROLLBACK"]
    assert Table.objects.get(pk=table.pk).version == table.version
    assert not ActionLog.objects.filter(table=table, version__gt=table.version).exists()
