import pytest

from core import publish
from play import registry
from tests.play.counting import ADAPTER


@pytest.fixture(autouse=True)
def counting():
    """The tests' adapter, known to the registry as play.adapters' own are."""
    registry.register(ADAPTER)
    yield ADAPTER
    registry.forget(ADAPTER.kind)


@pytest.fixture
def published():
    """The topics core.publish delivered, in order."""
    topics: list[str] = []
    stop = publish.listen(lambda topic, version: topics.append(topic))
    yield topics
    stop()
