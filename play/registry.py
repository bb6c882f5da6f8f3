"""Which adapter plays a game of a given kind (``Game.kind``).

The adapter of kind ``k`` is the ``ADAPTER`` attribute of the module ``play.adapters.k``,
imported the first time a game of that kind is played: a process loads only the engines it
plays, and a new adapter is a new module, with nothing to add here.
"""

from __future__ import annotations

import importlib

from play.adapters.base import Adapter

_known: dict[str, Adapter] = {}


def adapter_for(kind: str) -> Adapter:
    """The adapter of ``kind``; LookupError if there is none."""
    adapter = _known.get(kind)
    if adapter is not None:
        return adapter
    # A kind is a module's bare name: never a path to another module, never the protocol.
    if not kind.isidentifier() or kind == "base":
        raise LookupError(f"no adapter of kind {kind!r}")
    try:
        module = importlib.import_module(f"play.adapters.{kind}")
    except ModuleNotFoundError as err:
        if err.name != f"play.adapters.{kind}":
            raise  # the adapter's module exists but imports something missing
        raise LookupError(f"no adapter of kind {kind!r}") from None
    adapter = getattr(module, "ADAPTER", None)
    if adapter is None or adapter.kind != kind:
        raise LookupError(f"play.adapters.{kind} has no ADAPTER of kind {kind!r}")
    _known[kind] = adapter
    return adapter


def register(adapter: Adapter) -> None:
    """Makes ``adapter`` the one of its kind: for an adapter that is no module of
    play.adapters (a test's)."""
    _known[adapter.kind] = adapter


def forget(kind: str) -> None:
    """Undoes ``register`` (a test's teardown)."""
    _known.pop(kind, None)
