"""The words of `tournaments/presentation.py` for templates that hold model rows or plain
dicts rather than the selectors' lines (which carry them as properties): which to use when is
in docs/architecture.md, "Words"."""

from django import template

from .. import presentation

register = template.Library()


@register.filter
def table_label(table: str | None) -> str:
    """`{{ duel.table|table_label }}`: "Table 3" whether typed "3" or "Table 3"."""
    return presentation.table_label(table)
