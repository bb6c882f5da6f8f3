"""The opt-in to e-mail notifications offered where a player is (issue 26, "The venue's
evening"): the claim page, /me/ and the tournament page, for a signed-in player who has not
switched it on; one tap (a small POST form) switches it on, and it is gone afterwards."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts.notifications import WORDS as LAZY_WORDS
from tests.factories import EntrantFactory, TournamentFactory, UserFactory
from tournaments.services import issue_claim_link

pytestmark = pytest.mark.django_db

# The words are lazy (translated when shown): compared as the English the tests run in.
WORDS = {key: str(value) for key, value in LAZY_WORDS.items()}

OFFER, BUTTON, LABEL = WORDS["offer"], WORDS["button"], WORDS["label"]


@pytest.fixture
def player():
    user = UserFactory(username="ada", email="ada@example.org")
    tournament = TournamentFactory(published=True)
    entry = EntrantFactory(tournament=tournament, name="Ada", user=user)
    client = Client()
    client.force_login(user)
    return client, user, tournament, entry


def test_the_offer_on_me_and_the_tournament_page_until_one_tap_switches_it_on(player):
    client, user, tournament, _ = player
    pages = [reverse("player:tournaments"), reverse("tournaments:detail", args=[tournament.slug])]
    for page in pages:
        html = client.get(page).content.decode()
        assert OFFER in html and BUTTON in html and "ada@example.org" in html, page
        assert f'action="{reverse("notifications_on")}"' in html and "csrfmiddlewaretoken" in html
    # One tap from the tournament page: on, and back to that page with the words.
    here = pages[1]
    done = client.post(reverse("notifications_on"), {"next": here}, follow=True)
    assert done.redirect_chain == [(here, 302)]
    html = done.content.decode()
    assert WORDS["on"] in html and OFFER not in html
    user.refresh_from_db()
    assert user.notify_by_email
    # The same tap again (a double tap, Back and again): still on, nothing else changes.
    again = client.post(reverse("notifications_on"), {"next": here})
    assert again.status_code == 302 and again["Location"] == here
    user.refresh_from_db()
    assert user.notify_by_email
    for page in pages:
        assert OFFER not in client.get(page).content.decode(), page


def test_without_an_address_the_offer_is_a_link_to_the_settings_that_comes_back(player):
    client, user, _, _ = player
    user.email = ""
    user.save()
    me = reverse("player:tournaments")
    html = client.get(me).content.decode()
    assert WORDS["no_address"] in html and BUTTON not in html
    # A tap sent anyway (an old page): nothing switched on, the settings page asks.
    asked = client.post(reverse("notifications_on"), {"next": me})
    assert asked.status_code == 302 and asked["Location"].startswith(reverse("notifications"))
    user.refresh_from_db()
    assert not user.notify_by_email
    settings_page = client.get(asked["Location"])
    assert WORDS["need_address"] in settings_page.content.decode()
    saved = client.post(asked["Location"], {"notify_by_email": "on", "email": "ada@example.org"})
    assert saved.status_code == 302 and saved["Location"] == me
    user.refresh_from_db()
    assert user.notify_by_email


def test_an_offsite_next_is_not_followed_a_forged_tap_is_refused_signed_out_signs_in(player):
    client, user, _, _ = player
    forged = Client(enforce_csrf_checks=True)
    forged.force_login(user)
    assert forged.post(reverse("notifications_on")).status_code == 403  # no CSRF token
    user.refresh_from_db()
    assert not user.notify_by_email
    assert client.get(reverse("notifications_on")).status_code == 405
    away = client.post(reverse("notifications_on"), {"next": "https://evil.example/"})
    assert away["Location"] == reverse("notifications")
    signed_out = Client().post(reverse("notifications_on"))
    assert signed_out.status_code == 302 and "/accounts/login/" in signed_out["Location"]


def test_claiming_offers_the_checkbox_and_ticking_it_switches_it_on():
    user = UserFactory(username="bea", email="bea@example.org")
    entry = EntrantFactory(tournament=TournamentFactory(), name="Bea")
    url = reverse("tournaments:claim", args=[entry.tournament.slug, issue_claim_link(entry)])
    client = Client()
    client.force_login(user)
    html = client.get(url).content.decode()
    assert LABEL in html and 'aria-describedby="notify-opt-in-hint"' in html
    assert '<label for="notify-opt-in">' in html
    page = client.post(url, {"notify": "on"}, follow=True).content.decode()
    user.refresh_from_db()
    assert user.notify_by_email and WORDS["on"] in page and OFFER not in page


def test_the_settings_checkbox_has_a_short_label_and_its_hint_tied_to_it():
    client = Client()
    client.force_login(UserFactory())
    html = client.get(reverse("notifications")).content.decode()
    assert f'<label for="id_notify_by_email">{LABEL}</label>' in html
    assert 'aria-describedby="id_notify_by_email_helptext"' in html
    assert 'id="id_notify_by_email_helptext"' in html and WORDS["hint"] in html
