"""Sentences the engine's refusals share: what it waits for, how the duel ended."""

from __future__ import annotations

from .constants import CARD_LABELS, ENDINGS
from .state import Pending, Table


def seat_name(t: Table, i: int) -> str:
    return f"{t.setup.names[i]} ({t.setup.seats[i]})"


def waiting_for(t: Table) -> str:
    """What is legal while a decision is pending (section 7)."""
    p = t.pending
    if p is None:
        return "the engine is not waiting for a decision"
    choices = p.choices
    listed = ", ".join(choices[:-1]) + f" or {choices[-1]}"
    return (
        f"the engine is waiting for {seat_name(t, p.seat)} to decide {p.decision} "
        f"({_about(t, p)}): only a respond from {t.setup.seats[p.seat]} with {listed}, or a "
        f"referee ending ({', '.join(ENDINGS)}), is legal"
    )


def _about(t: Table, p: Pending) -> str:
    other = t.setup.names[p.other] if p.other >= 0 else ""
    if p.decision in ("counter", "block_counter"):
        return f"{other}'s {CARD_LABELS[p.card]}"
    if p.decision in ("truth", "dare"):
        return f"{other}'s {p.decision.upper()}"
    if p.decision == "penalty":
        return f"a refused {p.card}"
    if p.decision == "bonus":
        return "two round wins in a row"
    return f"{other} is at 0 number cards"


def finished_text(t: Table) -> str:
    how = f"{seat_name(t, t.winner)} won" if t.winner >= 0 else "drawn"
    return f"the duel is finished ({how}, {t.finish}): no further event is accepted"
