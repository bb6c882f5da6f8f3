"""An online table's lobby live by push (issue 31; docs/online.md): every change of the table
(someone joins, leaves, is moved or removed, the start, a rematch) announces the table's new
version at commit, and the lobby's page follows the table's topic, so a friend joining shows
within a second where push runs (the poll every 2 s otherwise). A refused change announces
nothing."""

from __future__ import annotations

import pytest
from django.test import Client

from core import publish
from tests.factories import UserFactory
from tests.practice.test_online_tables import join_url, lobby_post, open_table
from tests.practice.test_practice_many_views import client_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def heard():
    news: list[tuple[str, object]] = []
    stop = publish.listen(lambda topic, version: news.append((topic, version)))
    yield news
    stop()


def test_a_join_and_a_start_are_announced_at_commit_with_the_tables_version(heard):
    host, guest = UserFactory(), UserFactory()
    host_c, guest_c = client_for(host), client_for(guest)
    table = open_table(host_c)
    topic = f"onlinetable:{table.pk}"
    heard.clear()
    assert guest_c.post(join_url(table)).status_code == 302
    table.refresh_from_db()
    assert (topic, table.version) in heard
    # A stale lobby form is refused: nothing announced.
    heard.clear()
    assert lobby_post(host_c, table, do="start", version=str(table.version - 1)).status_code == 409
    assert [t for t, _ in heard if t == topic] == []
    assert lobby_post(host_c, table, do="start").status_code == 302
    table.refresh_from_db()
    assert (topic, table.version) in heard


def test_the_lobby_and_the_table_follow_the_tables_topic(settings):
    settings.PUSH_ENABLED = True
    settings.REDIS_URL = settings.REDIS_URL or "redis://127.0.0.1:6379/8"
    host_c = client_for(UserFactory())
    table = open_table(host_c)
    topic = f"onlinetable:{table.pk}"
    lobby = host_c.get(f"/practice/online/{table.pk}/").content.decode()
    assert f'data-topic="{topic}"' in lobby and f'data-versions="{topic}={table.version}"' in lobby
    assert 'name="push"' in lobby
    # Someone not at the table is told nothing of it (sent to sign in; a stranger: 404).
    assert Client().get(f"/practice/online/{table.pk}/").status_code == 302
    assert client_for(UserFactory()).get(f"/practice/online/{table.pk}/").status_code == 404
