"""A pushed fetch never returns an older version than announced (issue 28). A page told of a
version by its stream fetches with X-Push-Version (static/js/live.js); the lean poll path
(tournaments.middleware) answers an unchanged poll from this process's second-old copy of the
version, and must not when that copy — or the shared cache's — is older than announced."""

import pytest
from django.test import Client

from core import shared_cache
from tests.tournaments import test_crowd as crowd
from tests.tournaments.test_crowd import HX, get, standings_url
from tournaments import live_cache, services

pytestmark = pytest.mark.django_db

running = crowd.running  # a published tournament in its group phase


def first_tag(tournament) -> str:
    return get(Client(), standings_url(tournament), **HX)[0]["ETag"]


def poll(tournament, tag: str, pushed: str | None = None):
    headers = {**HX, "If-None-Match": tag}
    if pushed is not None:
        headers["X-Push-Version"] = pushed
    return get(Client(), standings_url(tournament), **headers)[0]


@pytest.fixture
def changed_elsewhere(running, django_capture_on_commit_callbacks):
    """The tournament changed in another web process: this one still holds, within its
    second, its copy of the version before (as a crowd's polls took it)."""
    tournament, organiser, *_ = running
    tag = first_tag(tournament)
    assert poll(tournament, tag).status_code == 304  # the copy is taken
    kept = dict(live_cache._recent)
    stale = shared_cache.get(live_cache.version_key(tournament.slug))
    with django_capture_on_commit_callbacks(execute=True):
        services.configure(tournament, organiser, name="Harbour Cup, renamed")
    live_cache._recent.update(kept)
    tournament.refresh_from_db()
    return tournament, tag, stale


def test_a_pushed_fetch_is_not_answered_304_from_an_older_copy(changed_elsewhere):
    tournament, tag, _ = changed_elsewhere
    version = tournament.standings_version
    assert poll(tournament, tag).status_code == 304  # a plain poll: the second's copy, as before
    for announced in (str(version), f'"t{tournament.pk}-v{version}"'):
        fetched = poll(tournament, tag, pushed=announced)
        assert fetched.status_code == 200, announced
        assert fetched["ETag"] == f'"t{tournament.pk}-v{version}"' != tag


def test_a_pushed_fetch_is_not_answered_from_a_shared_cache_that_lags(changed_elsewhere):
    tournament, tag, stale = changed_elsewhere
    # The shared cache still holds the version before (its write at commit not landed yet).
    shared_cache.set(live_cache.version_key(tournament.slug), stale, 300)
    live_cache.forget_recent()
    assert poll(tournament, tag).status_code == 304  # what a plain poll may get meanwhile
    fetched = poll(tournament, tag, pushed=str(tournament.standings_version))
    assert fetched.status_code == 200  # the full path: the database's version
    assert fetched["ETag"] == f'"t{tournament.pk}-v{tournament.standings_version}"'


def test_a_pushed_fetch_for_the_version_held_is_still_a_cheap_304(running):
    tournament, *_ = running
    tag = first_tag(tournament)
    poll(tournament, tag)
    version = str(tournament.standings_version)
    response, queries = get(
        Client(),
        standings_url(tournament),
        **HX,
        **{"If-None-Match": tag, "X-Push-Version": version},
    )
    assert response.status_code == 304 and queries == 0


@pytest.mark.parametrize(
    "odd", ["", "abc", "-1", "1" * 40, "\u00b2", '"t1-vx"', 'W/"1-9"', "\u0663"]
)
def test_an_odd_announced_version_goes_to_the_full_path(running, odd):
    tournament, *_ = running
    tag = first_tag(tournament)
    response, queries = get(
        Client(), standings_url(tournament), **HX, **{"If-None-Match": tag, "X-Push-Version": odd}
    )
    assert response.status_code == 304  # the full path's answer: the same, never an error
    assert queries > 0
