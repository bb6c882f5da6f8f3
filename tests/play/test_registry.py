"""Which adapter plays a kind: the module play.adapters.<kind>'s ADAPTER, imported when first
asked, and nothing else (no other module by a crafted kind, not the protocol)."""

import sys
import types

import pytest

from play import registry
from tests.play.counting import Counting


class Fake(Counting):
    kind = "fake_kind"


def test_a_kind_is_the_adapter_of_its_module_imported_when_first_asked(monkeypatch):
    module = types.ModuleType("play.adapters.fake_kind")
    module.ADAPTER = Fake()
    monkeypatch.setitem(sys.modules, "play.adapters.fake_kind", module)
    try:
        assert registry.adapter_for("fake_kind") is module.ADAPTER
    finally:
        registry.forget("fake_kind")


@pytest.mark.parametrize("kind", ["no_such_game", "base", "split_uno.x", "../trois", ""])
def test_a_kind_without_its_module_is_no_adapter(kind):
    with pytest.raises(LookupError):
        registry.adapter_for(kind)


def test_a_module_whose_adapter_is_of_another_kind_is_refused(monkeypatch):
    module = types.ModuleType("play.adapters.other_kind")
    module.ADAPTER = Fake()
    monkeypatch.setitem(sys.modules, "play.adapters.other_kind", module)
    with pytest.raises(LookupError, match="no ADAPTER of kind"):
        registry.adapter_for("other_kind")
