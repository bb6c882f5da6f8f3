"""The door of every tournament page: `tournament_view` loads the tournament by its slug and
enforces one action of `accounts.permissions` — 404 where the tournament is not visible to the
person (unpublished pages are 404 to the public), a sign-in prompt or 403 where it is visible
but the action is not theirs."""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from accounts.permissions import Action, can, can_view
from core.rows import select_one

from .models import Tournament


def tournament_view(action: Action) -> Callable:
    """Decorate a view taking `slug`: loads the tournament and enforces `action`.

    The view receives `tournament` instead of `slug`, read alone: each join would cost every
    request of every view (docs/performance.md).
    """

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
            # The tournament alone: joining its creator (only the people page shows them, and
            # reads them itself) doubled the ORM's work on every public page and poll. Its SQL
            # is written once (core/rows.py): compiled by the ORM on every request, it cost
            # more than the query.
            tournament = select_one(Tournament, where=(("slug", "="),), values=(slug,))
            if tournament is None:
                raise Http404(_("No such tournament."))
            if not can_view(request.user, tournament):
                # 404, not a sign-in prompt: an unpublished tournament's existence is private.
                raise Http404(_("No such tournament."))
            if not can(request.user, action, tournament):
                if not request.user.is_authenticated:
                    return redirect_to_login(request.get_full_path())
                raise PermissionDenied(_("Your role in this tournament does not allow this."))
            return view(request, *args, tournament=tournament, **kwargs)

        return wrapped

    return decorator


def public_view(page: str) -> Callable:
    """`tournament_view(Action.VIEW_PUBLIC)` for the public pages, with a lean start for an
    anonymous visitor's whole page (issue 15): the tournament as the shared cache holds it for
    its current public version (`live_cache.public_tournament`), without a query — the cache
    holds a version only while the tournament is published, when anyone may see it. The view
    is then called with `cached`, what that read of the cache found already (a dict), and
    answers None when a shared part it embeds is not in the cache; the full path answers
    instead, as it does for everyone else (the view called with `cached=None`)."""
    from .live_cache import public_tournament

    def decorator(view: Callable[..., HttpResponse | None]) -> Callable[..., HttpResponse]:
        full = tournament_view(Action.VIEW_PUBLIC)(view)

        @wraps(view)
        def wrapped(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
            if not getattr(request, "htmx", False) and not request.user.is_authenticated:
                found = public_tournament(slug, page)
                if found is not None:
                    tournament, cached = found
                    response = view(request, *args, tournament=tournament, cached=cached, **kwargs)
                    if response is not None:
                        return response
            return full(request, slug, *args, **kwargs)

        return wrapped

    return decorator
