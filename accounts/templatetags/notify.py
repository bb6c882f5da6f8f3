"""The opt-in to e-mail notifications, offered where a player is (issue 26): `/me/`, the
tournament's page and the claim page, to someone signed in who has not switched it on.

    {% load notify %}{% notify_offer %}               a small form: one tap switches it on
    {% notify_offer field=True %}                     inside another form (the claim): a checkbox

Someone without an address gets a link to the settings page instead, which comes back here.
The words are `accounts.notifications.WORDS`.
"""

from typing import Any

from django import template

from accounts.notifications import WORDS, offered_to

register = template.Library()


@register.inclusion_tag("accounts/_notify_offer.html", takes_context=True)
def notify_offer(context: template.Context, field: bool = False, here: str = "") -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    return {
        "show": offered_to(user),
        "field": field,
        "user": user,
        "words": WORDS,
        "here": here or (request.get_full_path() if request else ""),
        "csrf_token": context.get("csrf_token"),
    }
