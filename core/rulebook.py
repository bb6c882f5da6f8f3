"""Links into the rules pages (the `rulebook` app, /rules/): any app may import this.

It lives in `core` so that every layer (play, duels, tournaments, practice, tables) can link a
card, a decision or a rule set to its explanation without importing the pages' app. The names
come from the engine (games.split_uno), so a card or a decision the engine gains is an anchor
the rules page must have (tests/rulebook checks the page against this list).

Anchors of the Split UNO page, /rules/ (``rules_url(anchor)``):

- ``decision-<key>``, one per decision of games.split_uno.DECISIONS: ``decision-counter``,
  ``decision-block_counter``, ``decision-truth``, ``decision-dare``, ``decision-penalty``,
  ``decision-bonus``, ``decision-challenge``;
- ``card-<kind>``, one per action card of games.split_uno.CARDS: ``card-block``,
  ``card-reverse``, ``card-color_change``, ``card-draw_two``, ``card-draw_four``,
  ``card-truth``, ``card-dare``;
- ``preset-<name>``, one per rule set of games.split_uno.PRESETS: ``preset-arbiter``,
  ``preset-tournament``, ``preset-paper``, ``preset-official``;
- ``variant-<name>``, one per variant of games.split_uno.VARIANTS: ``variant-speed``,
  ``variant-hardcore``, ``variant-team``;
- the sections: ``aim``, ``decks``, ``round``, ``zero``, ``seven``, ``blocked``, ``streak``,
  ``cards``, ``draw-battle``, ``reaching-zero``, ``decisions``, ``end``, ``seats``, ``teams``,
  ``presets``, ``variants``.

The other games have a page each, without anchors: ``rules_url(game="trois")``,
``rules_url(game="cpt113")``.

In a template: ``{% load rulebook %}`` then ``{% rules_url "decision-dare" %}``, or with a key
held in a variable ``{% rules_url "decision" awaiting.decision %}`` (→ ``decision-<key>``).
"""

from __future__ import annotations

from django.urls import reverse

from games.split_uno import CARDS, DECISIONS, PRESETS, VARIANTS

#: The kinds of anchor that are followed by an engine key: ``<kind>-<key>``.
KEYED: dict[str, tuple[str, ...]] = {
    "decision": tuple(DECISIONS),
    "card": tuple(CARDS),
    "preset": tuple(PRESETS),
    "variant": tuple(VARIANTS),
}

#: The page's sections, in the order the page shows them.
SECTIONS: tuple[str, ...] = (
    "aim",
    "decks",
    "round",
    "zero",
    "seven",
    "blocked",
    "streak",
    "cards",
    "draw-battle",
    "reaching-zero",
    "decisions",
    "end",
    "seats",
    "teams",
    "presets",
    "variants",
)

#: Every anchor of the Split UNO rules page.
ANCHORS: frozenset[str] = frozenset(SECTIONS) | frozenset(
    f"{kind}-{key}" for kind, keys in KEYED.items() for key in keys
)

#: The rules pages by game, as URL names of the rulebook app.
PAGES: dict[str, str] = {
    "split_uno": "rulebook:split_uno",
    "trois": "rulebook:trois",
    "cpt113": "rulebook:cpt113",
}


def anchor_for(kind: str, key: str) -> str:
    """ "decision-dare" for ("decision", "dare"); ValueError if the page has no such anchor."""
    anchor = f"{kind}-{key}"
    if anchor not in ANCHORS:
        raise ValueError(f"the rules page has no anchor {anchor!r}")
    return anchor


def rules_url(anchor: str = "", *, game: str = "split_uno") -> str:
    """The address of a rule: ``rules_url("decision-dare")`` is "/rules/#decision-dare".

    Without an anchor, the top of the game's page. An anchor the page does not have, or one on a
    page other than Split UNO's, raises ValueError: a mistyped link fails its tests rather than
    leading nowhere."""
    if game not in PAGES:
        raise ValueError(f"no rules page for the game {game!r}")
    url = reverse(PAGES[game])
    if not anchor:
        return url
    if game != "split_uno" or anchor not in ANCHORS:
        raise ValueError(f"the rules page of {game} has no anchor {anchor!r}")
    return f"{url}#{anchor}"
