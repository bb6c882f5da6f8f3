"""Each pytest-xdist worker of a test run on a Redis database of its own (config/settings.py):
cache, Celery queue and results apart, as its test database is."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.settings import _redis_of_this_test_worker as numbered


@pytest.mark.parametrize(
    ("worker", "url", "expected"),
    [
        ("", "redis://127.0.0.1:6379/15", "redis://127.0.0.1:6379/15"),  # one process
        ("gw0", "redis://127.0.0.1:6379/15", "redis://127.0.0.1:6379/15"),
        ("gw1", "redis://127.0.0.1:6379/15", "redis://127.0.0.1:6379/14"),
        ("gw1", "rediss://:secret@cache.example:6380/3", "rediss://:secret@cache.example:6380/2"),
        ("gw0", "redis://127.0.0.1:6379", "redis://127.0.0.1:6379/0"),
        ("gw1", "amqp://guest@127.0.0.1//", "amqp://guest@127.0.0.1//"),  # not numbered here
        ("gw1", "", ""),
    ],
)
def test_each_worker_reads_its_own_database(monkeypatch, worker, url, expected):
    monkeypatch.setenv("PYTEST_XDIST_WORKER", worker)
    assert numbered(url) == expected


@pytest.mark.parametrize(
    "url", ["redis://127.0.0.1:6379/2", "unix:///run/redis.sock?db=4", "redis://h:6379/x"]
)
def test_a_url_that_cannot_keep_the_workers_apart_is_refused_in_words(monkeypatch, url):
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw3")
    with pytest.raises(ImproperlyConfigured, match="test workers|several cores"):
        numbered(url)
