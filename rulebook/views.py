"""The rules pages (docs/rulebook.md): public, read-only, the same for everyone but for the
page's frame (the header shows who is signed in) and its language."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.views.decorators.http import require_safe

from core.rulebook import rules_url
from duels.words import ruleset_label, variant_label
from games.split_uno import CARDS, DECISIONS, PRESETS, VARIANTS
from games.split_uno.constants import CARD_LABELS

from . import presets

#: How long a browser may keep a rules page without asking again. The words change only with
#: a release; the page varies with the cookie (language, who is signed in), and is kept by the
#: browser alone (private), never by a shared cache.
KEEP_SECONDS = 300


def _page(request: HttpRequest, template: str, context: dict[str, Any]) -> HttpResponse:
    # A signed-out visitor's page only reads: no CSRF token made, no cookie set (base.html).
    context["read_only"] = not request.user.is_authenticated
    response = render(request, template, context)
    patch_cache_control(response, private=True, max_age=KEEP_SECONDS)
    patch_vary_headers(response, ["Cookie"])
    return response


@require_safe
def split_uno(request: HttpRequest) -> HttpResponse:
    """Split UNO for players: the round, each card, each decision, seats, teams, rule sets."""
    return _page(
        request,
        "rulebook/split_uno.html",
        {
            "cards": [(card, CARD_LABELS[card], rules_url(f"card-{card}")) for card in CARDS],
            "decisions": list(DECISIONS),
            "presets": [(name, ruleset_label(name)) for name in PRESETS],
            "variants": [(name, variant_label(name)) for name in VARIANTS],
            "table": presets.table(),
        },
    )


@require_safe
def trois(request: HttpRequest) -> HttpResponse:
    """Trois (seed 003) as the practice room plays it."""
    return _page(request, "rulebook/trois.html", {})


@require_safe
def cpt113(request: HttpRequest) -> HttpResponse:
    """CPT-113 (seed 004) as the practice room plays it."""
    return _page(request, "rulebook/cpt113.html", {})
