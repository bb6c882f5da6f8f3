import pytest


@pytest.fixture(autouse=True)
def _own_hub():
    """The tests here give the stream server a hub of their own (`sse.fresh_hub`): the
    process's hub is put back after each, as a server starting later would find it."""
    from core import streams

    before = streams.hub
    yield
    streams.hub = before
