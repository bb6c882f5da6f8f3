"""The lean poll path (issue 15): an anonymous spectator's unchanged poll answered 304 before
sessions, authentication and the rest of the middleware stack, with no database query; and a
poll for a version whose shared part is already in the cache answered with it, as lean.

Placed right after SecurityMiddleware (which keeps the HTTPS redirect and its headers on every
answer) and WhiteNoise. It answers only when all of these hold, and otherwise hands the
request on untouched, to the full path:

- a GET or HEAD without a session cookie (someone signed in may see more: full path);
- a poll of a public page whose live part is tagged by the version alone (standings, groups,
  rounds, tie-breaks, bracket, the big screen's standings and stage panels), or a
  version-tagged read-API answer, carrying the tag it already holds in If-None-Match;
- the shared cache holds the tournament's public version (`live_cache.remember_version`,
  written by the full path; only while the tournament is published): a tag equal to it is
  answered 304; another tag (or none) is answered with the current version's shared part
  when the cache has it (`live_cache`, rendered once per version), as the view would. A tag
  equal to the version this process read within the last second is answered 304 without
  asking the cache again (`live_cache.recent_entry`).

Every change of what a page shows bumps the version (`services.audit.bump_version`, roles
through `tournaments.signals`), which forgets the cached copy and writes the new one at
commit (and the changing process forgets its copy of it): the next poll after a change, an
unpublication included, takes the full path — in another web process, a poll holding the old
tag may still get a 304 for up to a second, never a part. A cache that cannot be reached is
no copy: the full path answers.

The language (issue 29): this runs before LocaleMiddleware, and reads the request's language
by the same rule (`translation.get_language_from_request`: the language cookie, then
Accept-Language, then the source language). A tag names its language (`live_cache.in_language`)
and the shared part is the one rendered in it, so a poll holding another language's tag is
never answered 304, nor with another language's part; every answer varies on Accept-Language
and Cookie, and says its Content-Language, as LocaleMiddleware's would. A big-screen panel is
rendered in the language of the screen's page, which need not be its browser's (a tournament
may set the screen's language): a panel poll holding a tag of another language than the
request's goes to the full path, whose view knows the screen's language.

A pushed fetch (issue 28: a page told of a new version by its stream, static/js/live.js)
carries that version in X-Push-Version: no copy older than it answers — neither this
process's second-old one nor the shared cache's (written at the same commit as the push, so
it may lag a moment). Then the full path reads the database. A value that cannot be read
sends the request to the full path too.
"""

import re
from collections.abc import Callable

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils import translation
from django.utils.cache import patch_vary_headers

from core import shared_cache
from core.http import cache_headers, not_modified

from .live_cache import (
    Entry,
    api_key,
    api_tag,
    fragment_key,
    in_language,
    languages,
    read_entry,
    recent_entry,
    tag_language,
)

SLUG = r"(?P<slug>[-a-zA-Z0-9_]{1,140})"
VERSION_PAGES = r"(?P<page>standings|groups|rounds|tiebreaks|bracket)"
PAGE = re.compile(rf"/t/{SLUG}/{VERSION_PAGES}/")
SCREEN = re.compile(rf"/t/{SLUG}/screen/")
SCREEN_PANELS = {"standings", "stage"}  # "now" also follows the open duels' moves
API = re.compile(rf"/api/tournaments/{SLUG}(?:/{VERSION_PAGES})?")
# What a pushed fetch carries: a tournament's version, or a public part's tag ("t<pk>-v<n>…").
PUSHED = re.compile(r'"?(?:t\d{1,18}-v)?(?P<version>\d{1,18})(?:-[-\w]*)?"?', re.ASCII)


def at_least(
    version: int, entry_of: Callable[[str], Entry | None]
) -> Callable[[str], Entry | None]:
    """`entry_of`, refusing an entry older than `version` (what a pushed fetch was told)."""

    def entry(slug: str) -> Entry | None:
        found = entry_of(slug)
        return found if found is not None and found[1] >= version else None

    return entry


class LeanPollMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.lean(request) or self.get_response(request)

    def lean(self, request: HttpRequest) -> HttpResponse | None:
        if request.method not in ("GET", "HEAD"):
            return None
        if settings.SESSION_COOKIE_NAME in request.COOKIES:
            return None
        held = request.headers.get("If-None-Match")
        pushed = request.headers.get("X-Push-Version")
        recent, shared = recent_entry, read_entry
        if pushed is not None:
            match = PUSHED.fullmatch(pushed)
            if match is None:
                return None
            recent, shared = (at_least(int(match["version"]), e) for e in (recent, shared))
        # An unchanged poll is answered from this process's copy of the version, a second old
        # at most (`live_cache.recent_entry`: only a 304 may come from it); anything else
        # asks the shared cache.
        code = request_language(request)
        found = self.current(request, recent, code, held) if held else None
        if found is None or found[0] != held:
            found = self.current(request, shared, code, held)
        if found is None:
            return None
        tag, key, api = found
        try:
            request.get_host()  # ALLOWED_HOSTS, as the full path would check it
        except Exception:  # noqa: BLE001 - DisallowedHost and the like: the full path answers
            return None
        if held == tag:
            response = self.api_not_modified(tag) if api else not_modified(tag)
            return in_words(response, code)
        if request.method != "GET":
            return None  # a HEAD for a new version: the full path (it strips the body)
        body = shared_cache.get(key)
        if not isinstance(body, str):
            return None  # not rendered yet: the full path renders it, once
        if api:
            response = HttpResponse(body, content_type="application/json; charset=utf-8")
            response["ETag"] = tag
            response["Cache-Control"] = "no-cache"
            patch_vary_headers(response, ["Cookie"])
            return in_words(response, code)
        response = HttpResponse(body)
        response["ETag"] = tag
        cache_headers(response, fragment=True)
        return in_words(response, code)

    def current(
        self,
        request: HttpRequest,
        entry_of: Callable[[str], Entry | None],
        code: str,
        held: str | None,
    ) -> tuple[str, str, bool] | None:
        """The tag the full path would give this request now (in the language `code`), the
        cache key of its shared answer, and whether it is the API's, from the version
        `entry_of` gives; or None."""
        path = request.path_info
        if request.headers.get("HX-Request") == "true":
            if (match := PAGE.fullmatch(path)) and not request.GET:
                if entry := entry_of(match["slug"]):
                    pk, version, identity = entry
                    tag = in_language(f'"t{pk}-v{version}"', code)
                    return tag, fragment_key(identity, match["page"], tag), False
            elif (match := SCREEN.fullmatch(path)) and list(request.GET) == ["panel"]:
                panel = request.GET["panel"]
                if held is None or tag_language(held) != code:
                    return None  # the screen's own language may not be the browser's
                if panel in SCREEN_PANELS and (entry := entry_of(match["slug"])):
                    pk, version, identity = entry
                    tag = in_language(f'"t{pk}-v{version}-{panel}"', code)
                    return tag, fragment_key(identity, f"screen-{panel}", tag), False
            return None
        match = API.fullmatch(path)
        if match and not request.GET and (entry := entry_of(match["slug"])):
            pk, version, identity = entry
            endpoint = match["page"] or "summary"
            return api_tag(pk, version, code), api_key(identity, endpoint, version, code), True
        return None

    @staticmethod
    def api_not_modified(tag: str) -> HttpResponse:
        # What tournaments.api answers for an unchanged version.
        response = HttpResponseNotModified()
        response["ETag"] = tag
        patch_vary_headers(response, ["Cookie"])
        return response


# The language of a cookie and Accept-Language pair, as worked out last time: Django's rule
# costs 5-50 µs (a language it lacks is looked for in every catalogue each time), a tenth of
# a lean 304. Bounded like every copy kept here; an odd header is not kept.
_languages: dict[tuple[str, str], str] = {}


@receiver(setting_changed)
def _languages_changed(*, setting: str, **kwargs: object) -> None:
    if setting in ("LANGUAGES", "LANGUAGE_CODE", "LANGUAGE_COOKIE_NAME", "LOCALE_PATHS"):
        _languages.clear()  # a test's other languages (Django clears its own caches too)


def request_language(request: HttpRequest) -> str:
    """The language LocaleMiddleware will activate for this request (issue 29): the language
    cookie, then Accept-Language, then the source language."""
    key = (
        request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, ""),
        request.META.get("HTTP_ACCEPT_LANGUAGE", ""),
    )
    code = _languages.get(key)
    if code is None:
        code = translation.get_language_from_request(request)
        # Only the site's languages are kept (a test's pseudo-language is not one).
        if code in languages() and len(key[0]) + len(key[1]) <= 200:
            if len(_languages) >= 1000:
                _languages.clear()
            _languages[key] = code
    return code


def in_words(response: HttpResponse, code: str) -> HttpResponse:
    """What LocaleMiddleware adds to every answer of the full path: the language varies by
    Accept-Language (and by the language cookie: every answer here varies on Cookie)."""
    vary = response.get("Vary", "")  # HX-Request and Cookie already (cache_headers and the API's)
    if "Cookie" not in vary:
        patch_vary_headers(response, ["Cookie"])
        vary = response["Vary"]
    response["Vary"] = f"{vary}, Accept-Language" if vary else "Accept-Language"
    response["Content-Language"] = code
    return response
