"""The rules pages (/rules/, docs/rulebook.md): public, read-only, every anchor other pages link
to is on the page (in every language), and the forms that choose a rule set link to them."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.conf import settings
from django.template import Context, Template
from django.test import Client

from core.rulebook import ANCHORS, rules_url
from games.split_uno import CARDS, DECISIONS, PRESETS, VARIANTS
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PAGES = ("/rules/", "/rules/trois/", "/rules/cpt113/")
LANGUAGES = [code for code, _name in settings.LANGUAGES]

# The anchors the issue promised other pages (practice and table pages link to them): written
# out, so that renaming one fails here even if core/rulebook.py and the page move together.
PROMISED = {
    "decision-counter",
    "decision-block_counter",
    "decision-truth",
    "decision-dare",
    "decision-penalty",
    "decision-bonus",
    "decision-challenge",
    "card-block",
    "card-reverse",
    "card-color_change",
    "card-draw_two",
    "card-draw_four",
    "card-truth",
    "card-dare",
    "preset-arbiter",
    "preset-tournament",
    "preset-paper",
    "preset-official",
    "variant-speed",
    "variant-hardcore",
    "variant-team",
    "seats",
    "teams",
}


def page(path: str, language: str = "en", user=None) -> str:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    if user is not None:
        client.force_login(user)
    response = client.get(path)
    assert response.status_code == 200, path
    return response.content.decode()


def ids(html: str) -> set[str]:
    return set(re.findall(r'\sid="([^"]+)"', html))


def section(html: str, anchor: str) -> str:
    """The text of the <section id=anchor>, tags out (sections of rules nest no section)."""
    found = re.search(rf'<section id="{re.escape(anchor)}"[^>]*>(.*?)</section>', html, re.S)
    assert found, anchor
    return " ".join(unescape(re.sub(r"<[^>]+>", "", found.group(1))).split())


@pytest.mark.parametrize("path", PAGES)
def test_every_rules_page_answers_anyone_signed_in_or_not(path):
    anonymous = Client().get(path)
    assert anonymous.status_code == 200
    # Read-only for a visitor: no CSRF cookie made; kept by the browser alone, per cookie.
    assert "csrftoken" not in anonymous.cookies
    assert "private" in anonymous["Cache-Control"] and "max-age=" in anonymous["Cache-Control"]
    assert "Cookie" in anonymous["Vary"]
    user = UserFactory()
    assert user.username in page(path, user=user)  # the signed-in header, same page
    assert Client().post(path).status_code == 405


def test_every_anchor_promised_and_every_engine_key_is_on_the_page():
    html = page("/rules/")
    on_page = ids(html)
    assert PROMISED <= ANCHORS
    assert on_page >= ANCHORS, sorted(ANCHORS - on_page)
    # A card, decision, rule set or variant the engine gains must be explained here too.
    for kind, keys in (("card", CARDS), ("decision", DECISIONS)):
        for key in keys:
            assert f"{kind}-{key}" in on_page
    for kind, keys in (("preset", PRESETS), ("variant", VARIANTS)):
        for key in keys:
            assert f"{kind}-{key}" in on_page


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_link_within_the_page_leads_to_a_section_in_every_language(language):
    html = page("/rules/", language)
    targets = set(re.findall(r'href="(?:/rules/)?#([^"]+)"', html))
    assert {"decision-penalty", "decision-bonus", "teams"} <= targets  # the paragraphs' links
    assert targets <= ids(html), sorted(targets - ids(html))


def test_refusing_a_dare_says_which_rule_sets_make_it_a_lost_game():
    dare = section(page("/rules/"), "decision-dare")
    assert "you lose the whole game at once" in dare
    forfeit = {name for name, rules in PRESETS.items() if rules["dare_refused"] == "forfeit"}
    assert forfeit == {"paper", "official"}, "the page's sentence names these two"
    assert "Under paper and official: you lose the whole game" in dare
    assert "Under arbiter: the player of the card chooses your penalty" in dare


def test_the_one_card_challenge_that_cannot_succeed_is_explained():
    challenge = section(page("/rules/"), "decision-challenge")
    two_cards = {name for name, rules in PRESETS.items() if rules["challenge"] == "two_cards"}
    assert two_cards == {"arbiter", "tournament", "paper"}
    assert "A challenge that cannot succeed" in challenge
    assert "you draw 1 number card, keep your action card, and the player at 0 wins" in challenge


def test_the_rule_sets_table_is_read_from_the_engine():
    html = page("/rules/")
    table = re.search(r'<table class="presets">(.*?)</table>', html, re.S).group(1)
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", table, re.S):
        cells = [
            unescape(re.sub(r"<[^>]+>", "", c)).strip()
            for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        ]
        rows[cells[0]] = cells[1:]
    assert rows["Rule"] == list(PRESETS)  # the header: one column per preset, in the engine's order
    assert rows["Players"] == ["2", "2", "2", "2 to 6"]
    assert rows["Refusing a DARE"] == [
        "a penalty",
        "not played",
        "loses the whole game",
        "loses the whole game",
    ]
    assert rows["Challenging a player at 0"][3] == "any one +2 or +4"
    assert rows["When you are blocked"][3] == "you sit the round out, no draw"


def test_the_other_games_pages_say_what_matters():
    trois = page("/rules/trois/")
    assert "25 minutes" in trois and "wildcard pile" in trois
    cpt113 = page("/rules/cpt113/")
    assert "A game is short: usually 15 to 20 turns in all." in cpt113
    assert "11 cards" in cpt113


def test_rules_url_links_a_rule_and_refuses_an_anchor_the_page_lacks():
    assert rules_url("decision-dare") == "/rules/#decision-dare"
    assert rules_url() == "/rules/"
    assert rules_url(game="trois") == "/rules/trois/"
    assert rules_url(game="cpt113") == "/rules/cpt113/"
    with pytest.raises(ValueError):
        rules_url("decision-dares")
    with pytest.raises(ValueError):
        rules_url("decision-dare", game="trois")


def test_the_template_tag_links_a_key_and_never_breaks_a_page():
    template = Template(
        '{% load rulebook %}{% rules_url "decision" key %}|{% rules_url "card-block" %}|'
        '{% rules_url "decision" "not_a_decision" %}|{% rules_url game="cpt113" %}'
    )
    rendered = template.render(Context({"key": "challenge"}))
    assert rendered.split("|") == [
        "/rules/#decision-challenge",
        "/rules/#card-block",
        "/rules/",
        "/rules/cpt113/",
    ]


def test_the_forms_and_the_footer_link_to_the_rules():
    user = UserFactory()
    for path in ("/practice/", "/tables/"):
        html = page(path, user=user)
        assert 'href="/rules/#presets">What do the rule sets mean?</a>' in html, path
    games = page("/practice/games/", user=user)
    assert 'href="/rules/trois/"' in games and 'href="/rules/cpt113/"' in games
    # The footer, signed in or not.
    assert 'href="/rules/"' in page("/", user=user)
    assert 'href="/rules/"' in Client().get("/").content.decode()
