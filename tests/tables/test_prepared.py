"""``pigparlor.tables.prepared``: the one door's statements compiled once read and
write exactly what the ORM does (issue 14). The same checks run on PostgreSQL in
tests/scaleout/test_prepared_postgres.py."""
import pytest

from tests.tables.helpers import make_user
from tests.tables.prepared_checks import check_all

pytestmark = pytest.mark.django_db(transaction=True)


def test_prepared_statements_read_and_write_what_the_orm_does():
    check_all(make_user("ana"))
