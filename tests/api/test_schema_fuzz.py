"""Fuzz every HTTP door of the JSON API from its own OpenAPI document (/api/schema/) with
schemathesis, in process through Django's WSGI application: valid requests and invalid
ones (wrong types, unknown fields, missing ones), each with a staff user's API token.
No answer may be a server error, and every answer must match the document: a documented
status, its content type, its headers, its body's schema; a request the document refuses
must be refused (4xx).

Bounded: ``MAX_EXAMPLES`` generated requests per mode and operation (plus schemathesis's
probes of methods the document does not list), derandomized (the same requests every run),
no shrinking, no example database; the WSGI calls are in process, so nothing waits on a
socket, and ``CEILING_SECONDS`` per operation fails a run that would otherwise hang.
Path parameters are sometimes swapped for real tables, a tournament and players made by
the fixture, so the doors behind a 404 are fuzzed too. ``/api/schema/`` itself is the
document schemathesis loads (tests/api/test_schema.py checks it).
"""
import signal
import threading
from datetime import timedelta

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from django.utils import timezone
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    negative_data_rejection,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
)

from pigparlor.api.tokens import create_token
from pigparlor.tables import services
from pigparlor.tournaments import services as tournaments
from tests.support.tables import make_user, played_table

MAX_EXAMPLES = 25
CEILING_SECONDS = 120  # the slowest operation takes about 2 s on an idle machine
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
          response_schema_conformance, negative_data_rejection, unsupported_method]

schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
schema.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE], max_examples=MAX_EXAMPLES,
                                deterministic=True, no_shrink=True, database="none")


# Real things for the path parameters to name (set by the fixture, per test): without them
# nearly every generated id is a 404 and the doors behind it go untried.
KNOWN: dict[str, list] = {}


@schema.hook
def flatmap_path_parameters(context, path_parameters):
    """A generated id, or one of the test's real ones — only in place of a value the document
    allows, so a request meant to be refused for its path stays refused."""
    choices = [path_parameters]
    for name, value in (path_parameters or {}).items():
        if name in KNOWN and allowed(name, value):
            choices += [{**path_parameters, name: known} for known in KNOWN[name]]
    return st.sampled_from(choices)


def allowed(name: str, value) -> bool:
    if name.endswith("_id"):
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2 ** 63
    return isinstance(value, str) and value != "" and "/" not in value


@pytest.fixture
def staff_token(db, count_game, settings):
    settings.PIGPARLOR_MAX_UNFINISHED_TABLES = settings.PIGPARLOR_TABLES_PER_MINUTE = 1000
    settings.PIGPARLOR_MAX_OPEN_SEATS = 1000
    user, other = make_user("fuzzer"), make_user("other")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    finished = played_table(user, seats=3, bots=1, others=[other])
    running = services.create_table(host=other, game="countgame", seats=2, bots=1)
    waiting = services.create_table(host=other, game="countgame", seats=3, bots=1, private=True)
    tournament = tournaments.create_from_body({
        "name": "Fuzz cup", "starts_at": (timezone.now() + timedelta(days=1)).isoformat(),
        "stages": [{"game": "pigpile", "format": "elimination", "table_size": 4, "advance": 2}]}, created_by=user)
    KNOWN.update(table_id=[finished.pk, running.pk, waiting.pk], tournament_id=[tournament.pk],
                 username=["fuzzer", "bot:sensible"], game=["pigpile", "countgame"])
    yield create_token(user)
    KNOWN.clear()


@pytest.fixture(autouse=True)
def _never_hangs():
    """A ceiling, not a wait: if one operation's fuzzing ever ran past it (a request stuck in
    the server), the test fails with this instead of holding up the suite."""
    def stop(signum, frame):
        raise TimeoutError(f"fuzzing one operation took over {CEILING_SECONDS} s")

    if threading.current_thread() is not threading.main_thread():  # signals reach the main thread only
        yield
        return
    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(CEILING_SECONDS)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


# One real parameter: under pytest 9 schemathesis's items all get the function's bare node id
# (pytest builds it from ``originalname``); a parametrized test's items keep the operation in it.
@pytest.mark.parametrize("transport", ["wsgi"])
@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, derandomize=True, database=None, deadline=None,
          phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
def test_the_api_answers_as_its_document_says(case, transport, staff_token):
    # identity: the site gzips answers for clients that accept it, and the WSGI test client would not unzip them.
    case.call_and_validate(headers={"Authorization": f"Bearer {staff_token}", "Accept-Encoding": "identity"},
                           checks=CHECKS)
