from django.db import InterfaceError, OperationalError
from django.http import Http404
from django.utils.translation import gettext as _
from ninja import NinjaAPI

from core.middleware import RETRY_AFTER_SECONDS
from tournaments.api import router as tournaments_router

api = NinjaAPI(
    title="Split UNO tournaments",
    version="1",
    description="Public read API: published tournaments' standings, rounds, duels, "
    "tie-breaks and bracket. Every answer carries the standings version as ETag.",
    docs_url=None,  # the schema is served; no third-party docs page under our CSP
    urls_namespace="api",
)
api.add_router("/tournaments", tournaments_router)


@api.exception_handler(OperationalError)
@api.exception_handler(InterfaceError)
def database_unavailable(request, exc):
    # As core.middleware does for the pages (ninja answers the API's exceptions itself).
    response = api.create_response(
        request, {"detail": _("The database is not answering; try again shortly.")}, status=503
    )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


@api.exception_handler(Http404)
def not_found(request, exc):
    # In the reader's language (issue 29), where ninja's own says "Not Found" in English; one
    # sentence for every miss, as before (a lookup's message may name a model).
    return api.create_response(request, {"detail": _("Not found.")}, status=404)
