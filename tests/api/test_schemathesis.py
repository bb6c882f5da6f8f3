"""The read API against its own OpenAPI schema, by schemathesis (property-based): every answer
to generated paths and headers is one the schema documents (status, content type, body), and
none is a server error. Bounded and derandomized so that CI pays a few seconds."""

import pytest
import schemathesis
from django.core import signals
from django.db import close_old_connections
from hypothesis import HealthCheck, settings

from config.wsgi import application
from tests.tournaments.test_group_services import make, play_round
from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def demo_open(db):
    # One published tournament at the schema's example slug, with a played duel, so that the
    # examples reach the 200 (and 304) answers and the generated values the 404/422 ones.
    tournament, organiser, referee, entrants = make()
    services.start_group_phase(tournament, organiser)
    play_round(tournament, referee, 1, entrants[0], entrants[15])
    services.set_published(tournament, True, organiser)
    tournament.__class__.objects.filter(pk=tournament.pk).update(slug="demo-open")
    # The WSGI handler closes the database connection after each request, as in production;
    # here that connection holds the test's transaction (Django's test client keeps it too).
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


# Read from the app itself (WSGI, in this process: the test database is the one it sees).
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", application)


@schema.parametrize()
@settings(
    max_examples=25,
    derandomize=True,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_the_read_api_answers_as_its_schema_says(case):
    case.call_and_validate()
