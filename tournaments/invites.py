"""Which sign-ups a claim link vouches for: a sign-up whose `next` is a live claim link is not
rate-limited (accounts.ratelimit.is_invited_signup; registered in tournaments.apps)."""

from urllib.parse import urlsplit

from django.http import HttpRequest
from django.urls import Resolver404, resolve

from core.errors import ServiceError

from .models import Tournament
from .services.entrants import find_claimable


def claim_link_in_signup(request: HttpRequest) -> bool:
    """Whether the sign-up's `next` (posted, or in the address) is a claim link that still
    works."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    try:
        match = resolve(urlsplit(target[:500]).path)
    except (Resolver404, ValueError):
        return False
    if match.view_name != "tournaments:claim":
        return False
    tournament = Tournament.objects.filter(slug=match.kwargs["slug"]).first()
    if tournament is None:
        return False
    try:
        find_claimable(tournament, match.kwargs["token"])
    except ServiceError:
        return False
    return True
