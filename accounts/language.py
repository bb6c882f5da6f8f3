"""The person's language (issue 29): the menu's view, and the account's choice followed on a
new device.

Django's LocaleMiddleware picks a request's language from the language cookie, then the
browser's Accept-Language; the URL never changes. The menu (templates/_language_menu.html)
posts here: the code is checked against settings.LANGUAGES, the cookie set, and the account
remembers it when someone is signed in. `AccountLanguageMiddleware` (after Django's
AuthenticationMiddleware) uses the account's language when the browser has no cookie yet
(a new phone, a cleared browser) and sets the cookie, so the choice follows the person.

CSRF: a signed-out visitor's public page (`read_only`, base.html) makes no CSRF token for
each of a crowd's page loads, so its menu posts none: a signed-out post needs none (all it
can do is set this browser's language cookie). A signed-in post writes to the account, and
is checked as every form is.
"""

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.shortcuts import render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from core.htmx import redirect_after_post
from core.http import safe_next


def known_language(code: str | None) -> str:
    """`code` if it is one of settings.LANGUAGES, else ""."""
    code = (code or "").strip().lower()
    return code if code in dict(settings.LANGUAGES) else ""


def set_language_cookie(response: HttpResponse, code: str) -> None:
    """Django's language cookie, as Django's own set_language view writes it."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


def _back(request: HttpRequest) -> str:
    """Where the menu returns: its `next` on this site, else the page it was on (Referer,
    on this site), else the home page."""
    address = safe_next(request)
    if address:
        return address
    referer = request.headers.get("Referer", "")
    if referer and url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return referer
    return "/"


def _csrf_refusal(request: HttpRequest) -> HttpResponse | None:
    """The CSRF check every form has, made here only for a signed-in post (see above)."""
    return CsrfViewMiddleware(lambda r: HttpResponse()).process_view(request, _checked, (), {})


def _checked(request: HttpRequest) -> None:  # a view that is not exempt: the check is made
    return None


@csrf_exempt
@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The language menu: remember the chosen language (cookie, and the account), then go
    back. An unknown code is refused (400) and nothing is stored; posting twice is the same
    as once."""
    if request.user.is_authenticated:
        refused = _csrf_refusal(request)
        if refused is not None:
            return refused
    code = known_language(request.POST.get("language"))
    if not code:
        return render(request, "400.html", status=400)
    if request.user.is_authenticated:
        if request.user.language != code:
            get_user_model().objects.filter(pk=request.user.pk).update(language=code)
            request.user.language = code
        request.session[SESSION_KEY] = code
    response = redirect_after_post(request, _back(request))
    set_language_cookie(response, code)
    return response


#: The account's language, kept in the session when someone signs in or chooses one, so that a
#: page need not load the account to know it (a signed-in poll reads the session only).
SESSION_KEY = "account_language"
#: Set on a signed-in browser whose account has no language: it follows Accept-Language.
NO_CHOICE_COOKIE = "account_language_unset"


def remember_on_sign_in(sender, request, user, **kwargs) -> None:
    """`user_logged_in`: the session holds the account's language from now on."""
    if request is not None and hasattr(request, "session"):
        request.session[SESSION_KEY] = known_language(getattr(user, "language", ""))


def _session_language(request: HttpRequest, *, loaded_only: bool = False) -> str | None:
    """The account's language as the session knows it; None when the session predates it.
    `loaded_only`: without loading a session this request did not load (after the answer:
    one that failed to load, the database gone, stays unread)."""
    session = getattr(request, "session", None)
    if session is None or (loaded_only and not hasattr(session, "_session_cache")):
        return None
    code = session.get(SESSION_KEY)
    return None if code is None else known_language(code)


class AccountLanguageMiddleware:
    """A signed-in person whose account has a language, arriving without the language cookie
    (a new device), reads their pages in the account's language, and gets the cookie.
    Also on the response that signs them in, so the next page is in it. Placed after
    AuthenticationMiddleware (and LocaleMiddleware). The language comes from the session
    (`SESSION_KEY`), so no page loads the account for it; a session from before it was kept
    there reads the account once and keeps it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if settings.LANGUAGE_COOKIE_NAME in request.COOKIES:
            return self.get_response(request)  # chosen on this device: that wins
        code, signed_in = "", False
        # Only a browser holding a session can be signed in: no session is loaded otherwise,
        # nor for a browser already told its account has no language (NO_CHOICE_COOKIE).
        if (
            settings.SESSION_COOKIE_NAME in request.COOKIES
            and NO_CHOICE_COOKIE not in request.COOKIES
        ):
            try:
                known = _session_language(request)
            except DatabaseError:
                # The database is gone: the view's own read will say so (a 503, through
                # core.middleware); an error raised here would be a 500.
                return self.get_response(request)
            if known is None:
                user = getattr(request, "user", None)
                if user is not None and user.is_authenticated:
                    signed_in, code = True, self._account_language(user)
                    request.session[SESSION_KEY] = code
            else:
                signed_in, code = True, known
            if code:
                translation.activate(code)
                request.LANGUAGE_CODE = code
        response = self.get_response(request)
        if not signed_in:  # signed in by this request (the sign-in form)?
            known = _session_language(request, loaded_only=True)
            signed_in, code = known is not None, known or ""
        if signed_in and settings.LANGUAGE_COOKIE_NAME not in response.cookies:
            if code:
                set_language_cookie(response, code)
            else:
                # The account has no language: the browser's own stands (Accept-Language),
                # and this browser's next pages need not read the session to learn that.
                response.set_cookie(
                    NO_CHOICE_COOKIE,
                    "1",
                    max_age=settings.LANGUAGE_COOKIE_AGE,
                    httponly=True,
                    samesite="Lax",
                    secure=settings.LANGUAGE_COOKIE_SECURE,
                )
        return response

    @staticmethod
    def _account_language(user) -> str:
        if user is None or not user.is_authenticated:
            return ""
        return known_language(getattr(user, "language", ""))
