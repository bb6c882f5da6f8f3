"""The web process's application (issue 28): gunicorn's uvicorn workers serve it.

Server-Sent Events at `settings.PUSH_PATH` are answered on the event loop by the stream
server (core.streams), so that an open stream costs no thread; every other request goes to
Django as WSGI, in a pool of threads, as under gunicorn's threaded workers before, handed to
its thread once (config/django_bridge.py): Django's own ASGI handler would run the site's
synchronous views one at a time per process (docs/architecture.md, "Push to open pages").
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.conf import settings  # noqa: E402 - the settings module first
from django.core.wsgi import get_wsgi_application  # noqa: E402

from config.django_bridge import DjangoBridge  # noqa: E402
from core import streams  # noqa: E402

STREAM_PATH = settings.PUSH_PATH


def build(wsgi_app):
    """The web process's ASGI application around a Django WSGI application (a test's server
    wraps Django's own with its static files handler, as `live_server` does)."""
    django_app = DjangoBridge(wsgi_app, threads=settings.WEB_THREADS)

    async def application(scope, receive, send):
        kind = scope["type"]
        if kind == "http" and scope["path"] == STREAM_PATH:
            await streams.stream(scope, receive, send)
        elif kind == "http":
            await django_app(scope, receive, send)
        elif kind == "lifespan":
            await streams.lifespan(receive, send)

    application.django = django_app  # type: ignore[attr-defined] - a test closes its threads
    return application


application = build(get_wsgi_application())
