"""``pigparlor.tables.prepared``: the one door's statements compiled once read and
write exactly what the ORM does (issue 14). The same checks run on PostgreSQL in
tests/scaleout/test_prepared_postgres.py."""
import pytest

from tests.support.tables import make_user
from tests.tables.prepared_checks import check_all, check_connections_are_not_kept

pytestmark = pytest.mark.django_db(transaction=True)


def test_prepared_statements_read_and_write_what_the_orm_does():
    check_all(make_user("ana"))


def test_a_threads_connection_is_not_kept_alive_by_its_statements():
    check_connections_are_not_kept()
