"""The database unreachable (restarted, failed over): a 503 in words with `Retry-After`,
not a 500. Nothing was saved (the request's transaction never committed), so the person, or
htmx, may simply send it again; /readyz says 503 meanwhile (docs/operations.md, "Faults")."""

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 30


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        # OperationalError also covers a lock timeout or a serialisation failure; all of them
        # are "try again", none is a bug to show as a 500. Logged as errors all the same.
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.error("Database unavailable: %s %s: %s", request.method, request.path, exception)
        # The page names no user: rendering it must not touch the database (no session).
        response = HttpResponse(render_to_string("503.html"), status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
