"""One URL, two answers: the whole page for a plain request, a named partial for htmx
(django-htmx's example: one template per page, partials named with `{% partialdef %}`)."""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext


def page_or_partial(
    request: HttpRequest,
    template: str,
    context: dict[str, Any],
    *,
    partial: str | None = None,
    status: int = 200,
) -> HttpResponse:
    """htmx gets `template#partial`; a plain request the whole page. Caches keep them apart."""
    name = f"{template}#{partial}" if partial and request.htmx else template
    response = render(request, name, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


def redirect_after_post(request: HttpRequest, url: str) -> HttpResponse:
    """After a successful form post: a plain browser follows the redirect; htmx is told to
    load the page itself (`HX-Redirect`), so a whole page is never drawn inside the form that
    asked, and the message waiting in the session is shown on it."""
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return HttpResponseRedirect(url)


def reload_when_gone(
    words: str,
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """For a page's own htmx requests (a poll, a move): when what they ask about is gone for
    this person (revoked, removed, deleted: Http404), htmx reloads the whole page, which then
    says "not found", rather than draw a 404 page inside the part that asked (htmx swaps 4xx
    answers). ``words`` (marked with gettext_noop) is the answer's text. A plain request gets
    the ordinary 404."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            try:
                return view(request, *args, **kwargs)
            except Http404:
                if not request.htmx:  # type: ignore[attr-defined]
                    raise
                response = HttpResponse(gettext(words), status=404, content_type="text/plain")
                response["HX-Refresh"] = "true"
                return response

        return wrapped

    return decorate
