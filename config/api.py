from ninja import NinjaAPI

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
