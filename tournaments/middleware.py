"""The lean poll path (issue 15): an anonymous spectator's unchanged poll answered 304 before
sessions, authentication and the rest of the middleware stack, with no database query.

Placed right after SecurityMiddleware (which keeps the HTTPS redirect and its headers on every
answer) and WhiteNoise. It answers only when all of these hold, and otherwise hands the
request on untouched, to the full path:

- a GET or HEAD without a session cookie (someone signed in may see more: full path);
- a poll of a public page whose live part is tagged by the version alone (standings, groups,
  rounds, tie-breaks, bracket, the big screen's standings and stage panels), or a
  version-tagged read-API answer, carrying the tag it already holds in If-None-Match;
- the shared cache holds the tournament's public version (`live_cache.remember_version`,
  written by the full path; only while the tournament is published) and it gives that tag.

Every change of what a page shows bumps the version (`services.audit.bump_version`, roles
through `tournaments.signals`), which forgets the cached copy and writes the new one at
commit: the next poll after a change, an unpublication included, takes the full path. A cache
that cannot be reached is no copy: the full path answers.
"""

import re
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from core import shared_cache
from core.http import not_modified

from .live_cache import version_key

SLUG = r"(?P<slug>[-a-zA-Z0-9_]{1,140})"
VERSION_PAGES = r"(?:standings|groups|rounds|tiebreaks|bracket)"
PAGE = re.compile(rf"/t/{SLUG}/{VERSION_PAGES}/")
SCREEN = re.compile(rf"/t/{SLUG}/screen/")
SCREEN_PANELS = {"standings", "stage"}  # "now" also follows the open duels' moves
API = re.compile(rf"/api/tournaments/{SLUG}(?:/{VERSION_PAGES})?")


class LeanPollMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.lean(request) or self.get_response(request)

    def lean(self, request: HttpRequest) -> HttpResponse | None:
        held = request.headers.get("If-None-Match")
        if not held or request.method not in ("GET", "HEAD"):
            return None
        if settings.SESSION_COOKIE_NAME in request.COOKIES:
            return None
        tag = self.current_tag(request)
        if tag is None or held != tag:
            return None
        try:
            request.get_host()  # ALLOWED_HOSTS, as the full path would check it
        except Exception:  # noqa: BLE001 - DisallowedHost and the like: the full path answers
            return None
        if tag.startswith("W/"):
            return self.api_not_modified(tag)
        return not_modified(tag)

    def current_tag(self, request: HttpRequest) -> str | None:
        """The tag the full path would give this poll now, from the cache alone, or None."""
        path = request.path_info
        if request.headers.get("HX-Request") == "true":
            if (match := PAGE.fullmatch(path)) and not request.GET:
                entry = self.entry(match["slug"])
                return entry and f'"t{entry[0]}-v{entry[1]}"'
            if (match := SCREEN.fullmatch(path)) and list(request.GET) == ["panel"]:
                panel = request.GET["panel"]
                if panel in SCREEN_PANELS:
                    entry = self.entry(match["slug"])
                    return entry and f'"t{entry[0]}-v{entry[1]}-{panel}"'
            return None
        if match := API.fullmatch(path):
            entry = self.entry(match["slug"])
            return entry and f'W/"{entry[0]}-{entry[1]}"'
        return None

    @staticmethod
    def entry(slug: str) -> tuple[int, int] | None:
        value = shared_cache.get(version_key(slug))
        if isinstance(value, tuple) and len(value) == 2:
            return value
        return None  # missing, "private", or no cache: the full path

    @staticmethod
    def api_not_modified(tag: str) -> HttpResponse:
        # What tournaments.api answers for an unchanged version.
        from django.http import HttpResponseNotModified
        from django.utils.cache import patch_vary_headers

        response = HttpResponseNotModified()
        response["ETag"] = tag
        patch_vary_headers(response, ["Cookie"])
        return response
