"""One URL, two answers: the whole page for a plain request, a named partial for htmx
(django-htmx's example: one template per page, partials named with `{% partialdef %}`)."""

from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.cache import patch_vary_headers


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
