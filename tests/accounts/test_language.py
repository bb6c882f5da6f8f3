"""The person's language (issue 29): the menu remembers it (cookie and account), a new device
follows the account, sign-up stores it, e-mails go out in the recipient's language, and the
words of Django and axes that a language's own catalogue lacks are translated in ours."""

import gettext as gettext_module
from pathlib import Path

import axes
import django
import pytest
from django.conf import settings
from django.contrib.auth.password_validation import MinimumLengthValidator
from django.core import mail
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation

from accounts.models import Role
from accounts.services import grant_role
from accounts.templatetags import site_header
from core import django_words
from tests.factories import PASSWORD, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME
AUTH = "django.contrib.auth.middleware.AuthenticationMiddleware"
MIDDLEWARE = [
    *settings.MIDDLEWARE[: settings.MIDDLEWARE.index(AUTH) + 1],
    "accounts.language.AccountLanguageMiddleware",
    *settings.MIDDLEWARE[settings.MIDDLEWARE.index(AUTH) + 1 :],
]


@pytest.fixture(autouse=True)
def _english_after():
    """A request leaves its language active in the thread: the next test starts in English."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


def choose(client: Client, code: str, next_address: str = "/dashboard/"):
    return client.post(reverse("set_language"), {"language": code, "next": next_address})


# -- The menu --


def test_the_menu_sets_the_cookie_and_goes_back(client):
    response = choose(client, "es", "/accounts/login/")
    assert response.status_code == 302 and response.url == "/accounts/login/"
    assert response.cookies[COOKIE].value == "es"
    page = client.get("/accounts/login/")
    assert page["Content-Language"] == "es"
    assert "Iniciar sesión" in page.content.decode()


def test_the_menu_remembers_the_language_on_the_account_and_twice_is_once(client):
    user = UserFactory()
    client.force_login(user)
    for _ in range(2):
        response = choose(client, "ms")
        assert response.status_code == 302 and response.cookies[COOKIE].value == "ms"
    user.refresh_from_db()
    assert user.language == "ms"


def test_an_unknown_language_is_refused_and_nothing_is_stored(client):
    user = UserFactory(language="fr")
    client.force_login(user)
    for code in ("xx", "", "en", "es-evil", "../"):
        response = choose(client, code)
        assert response.status_code == 400
        # Nothing of the bad code is kept (the account's own language may be, by its
        # middleware: this browser had no cookie yet).
        assert COOKIE not in response.cookies or response.cookies[COOKIE].value == "fr"
    user.refresh_from_db()
    assert user.language == "fr"


def test_the_menu_never_goes_back_off_the_site(client):
    for address in ("https://evil.example/", "//evil.example/", "javascript:alert(1)"):
        response = choose(client, "fr", address)
        assert response.status_code == 302 and response.url == "/"


def test_a_signed_in_post_needs_its_csrf_token_a_signed_out_one_does_not():
    client = Client(enforce_csrf_checks=True)
    assert choose(client, "es").status_code == 302  # a cookie for this browser, nothing more
    user = UserFactory()
    client.force_login(user)
    assert choose(client, "es").status_code == 403
    user.refresh_from_db()
    assert user.language == ""


def test_the_menu_partial_names_each_language_in_its_own_words(rf):
    from django.template.loader import render_to_string

    request = rf.get("/t/cup/?x=1")
    html = render_to_string("_language_menu.html", {"request": request}, request=request)
    assert f'action="{reverse("set_language")}"' in html and 'name="csrfmiddlewaretoken"' in html
    assert 'value="/t/cup/?x=1"' in html
    with translation.override("ms"):  # named in their own words, whatever the page's language
        html = render_to_string("_language_menu.html", {"request": request}, request=request)
    for code, name in settings.LANGUAGES:
        lang = "en-GB" if code == "en-gb" else code
        assert f'<option value="{code}" lang="{lang}"' in html and f">{name}</option>" in html
    assert '<option value="ms" lang="ms" selected>' in html
    read_only = render_to_string(
        "_language_menu.html", {"request": request, "read_only": True}, request=request
    )
    assert "csrfmiddlewaretoken" not in read_only  # a crowd's public page makes no token


# -- A new device follows the account --


@override_settings(MIDDLEWARE=MIDDLEWARE)
def test_a_new_device_follows_the_account_and_gets_the_cookie(client):
    user = UserFactory(language="es")
    client.force_login(user)
    response = client.get(reverse("notifications"), HTTP_ACCEPT_LANGUAGE="fr")
    assert response["Content-Language"] == "es"
    assert "Notificaciones" in response.content.decode()
    assert response.cookies[COOKIE].value == "es"


@override_settings(MIDDLEWARE=MIDDLEWARE)
def test_the_cookie_of_this_device_wins_over_the_account(client):
    user = UserFactory(language="es")
    client.force_login(user)
    client.cookies[COOKIE] = "fr"
    response = client.get(reverse("notifications"))
    assert response["Content-Language"] == "fr" and COOKIE not in response.cookies


@override_settings(MIDDLEWARE=MIDDLEWARE)
def test_signing_in_on_a_new_device_sets_the_accounts_language(client):
    UserFactory(username="ana", language="ms")
    response = client.post(reverse("login"), {"username": "ana", "password": PASSWORD})
    assert response.status_code == 302
    assert response.cookies[COOKIE].value == "ms"


@override_settings(MIDDLEWARE=MIDDLEWARE)
def test_an_account_without_a_language_follows_the_browser_and_stores_nothing(client):
    """The browser's language stands, now and later (no language cookie pins it); the browser
    is told the account has none, so its next pages read no session for it."""
    from accounts.language import NO_CHOICE_COOKIE

    user = UserFactory()
    client.force_login(user)
    response = client.get(reverse("notifications"), HTTP_ACCEPT_LANGUAGE="fr")
    assert response["Content-Language"] == "fr" and COOKIE not in response.cookies
    assert NO_CHOICE_COOKIE in response.cookies
    later = client.get(reverse("notifications"), HTTP_ACCEPT_LANGUAGE="es")
    assert later["Content-Language"] == "es"
    user.refresh_from_db()
    assert user.language == ""


def test_signing_up_stores_the_language_in_use(client):
    client.cookies[COOKIE] = "fr"
    data = {"username": "lea", "password1": PASSWORD, "password2": PASSWORD}
    assert client.post(reverse("signup"), data).status_code == 302
    from accounts.models import User

    assert User.objects.get(username="lea").language == "fr"


def test_the_signed_out_header_is_kept_per_language(client):
    site_header._rendered.clear()
    english = client.get(reverse("login")).content.decode()
    client.cookies[COOKIE] = "es"
    spanish = client.get(reverse("login")).content.decode()
    assert {language for _, language in site_header._rendered} == {"en-gb", "es"}
    assert english != spanish


# -- E-mails in the recipient's language --


@pytest.mark.parametrize(
    ("language", "subject", "body"),
    [
        ("es", "Ahora eres árbitro de Copa", "te ha nombrado árbitro de Copa"),
        ("", "You are now a referee of Copa", "made you a referee of Copa"),
    ],
)
def test_an_e_mail_is_in_the_recipients_language(
    django_capture_on_commit_callbacks, language, subject, body
):
    tournament = TournamentFactory(name="Copa")
    UserFactory(username="rex", email="rex@example.org", notify_by_email=True, language=language)
    # The organiser's page was in French: no matter.
    with translation.override("fr"), django_capture_on_commit_callbacks(execute=True):
        grant_role(tournament.created_by, tournament, "rex", Role.REFEREE)
    assert len(mail.outbox) == 1
    assert subject in mail.outbox[0].subject and body in mail.outbox[0].body


def test_the_password_reset_e_mail_is_in_the_accounts_language(client):
    UserFactory(username="ana", email="ana@example.com", language="fr")
    client.post(reverse("password_reset"), {"email": "ana@example.com"})
    assert len(mail.outbox) == 1
    assert "Réinitialisez votre mot de passe" in mail.outbox[0].subject
    assert "Choisissez un nouveau mot de passe" in mail.outbox[0].body


# -- Django's and axes's words that a language's own catalogue lacks --


def test_the_malay_password_too_short_message_is_malay():
    english = MinimumLengthValidator(min_length=8).get_error_message()
    with translation.override("ms"):
        malay = MinimumLengthValidator(min_length=8).get_error_message()
    assert malay != english and "8" in malay


def test_the_spanish_axes_lockout_text_is_spanish():
    with translation.override("es"):
        words = translation.gettext(
            "Account locked: too many login attempts. Please try again later."
        )
    assert words.startswith("Cuenta bloqueada")


def test_a_required_field_in_malay_and_spanish(client):
    for code, words in (("ms", "Medan ini diperlukan."), ("es", "Este campo es obligatorio.")):
        client.cookies[COOKIE] = code
        response = client.post(reverse("login"), {"username": "", "password": ""})
        assert words in response.content.decode()


def test_each_marked_word_is_djangos_or_axes_own():
    """core.django_words repeats their msgids exactly, or it translates nothing."""
    theirs: set[str] = set()
    for root in (Path(django.__file__).parent, Path(axes.__file__).parent):
        for path in root.glob("**/locale/fr/LC_MESSAGES/django.mo"):
            with path.open("rb") as mo:
                for key in gettext_module.GNUTranslations(mo)._catalog:
                    theirs.add(key[0] if isinstance(key, tuple) else key)
    ours = list(django_words.WORDS) + [p._kw["singular"] for p in django_words.PLURALS]
    assert [word for word in ours if word not in theirs] == []


def test_after_a_forms_answer_the_menu_goes_back_to_the_page_the_form_was_on(client):
    """A page answering a POST (a form's errors) is not one to come back to: the menu names
    the page the form was on, so the language changes without a 405 (issue 29 review)."""
    import re

    form_page = "http://testserver" + reverse("signup")
    answer = client.post(reverse("signup"), {"username": ""}, HTTP_REFERER=form_page)
    found = re.search(r'name="next" value="([^"]*)"', answer.content.decode())
    assert found and found[1] == form_page
    back = client.post(reverse("set_language"), {"language": "es", "next": found[1]})
    assert back.status_code == 302 and client.get(back.url).status_code == 200


def test_a_big_screen_in_the_tournaments_language_offers_no_menu(client):
    from tests.factories import group_phase_duel

    duel, _ = group_phase_duel(published=True)
    tournament = duel.tournament
    screen = f"/t/{tournament.slug}/screen/"
    assert b"language-menu" in client.get(screen).content
    from tournaments import services

    services.configure(tournament, tournament.created_by, language="fr")  # as the organiser
    page = client.get(screen).content.decode()
    assert 'lang="fr"' in page and "language-menu" not in page
