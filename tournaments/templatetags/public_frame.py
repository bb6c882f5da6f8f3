"""Per-request parts of the public pages' frame, kept cheap: a crowd loads these pages; and
the words of the public pages that stand for a stored key (a place, a role, a status)."""

import time

from django import template
from django.utils import dateformat, timezone, translation
from django.utils.translation import gettext_lazy, pgettext_lazy

register = template.Library()

# ((time zone, language, minute), the text): `{% now "j F Y, H:i" %}` worked the date out in
# words for every page load, a tenth of the standings page's time (docs/performance.md,
# "Fourth pass"). One tuple, replaced whole and read once per call: threads share it safely.
_printed: tuple[tuple[object, str | None, int], str] = ((None, None, -1), "")


@register.simple_tag
def printed_at() -> str:
    """Now, to the minute, as `{% now "j F Y, H:i" %}` writes it (the month in the page's
    language), for a printed page's foot."""
    global _printed
    zone = timezone.get_current_timezone()
    key = (zone, translation.get_language(), int(time.time()) // 60)
    held = _printed
    if held[0] != key:
        held = _printed = (key, dateformat.format(timezone.localtime(timezone=zone), "j F Y, H:i"))
    return held[1]


# A placing 1–4 in words (the bracket's and the home page's placings).
PLACE_NAMES = {
    1: pgettext_lazy("placing", "Champion"),
    2: pgettext_lazy("placing", "2nd"),
    3: pgettext_lazy("placing", "3rd"),
    4: pgettext_lazy("placing", "4th"),
}


@register.simple_tag
def place_name(place: int) -> str:
    """`{% place_name 2 %}`: "Champion", "2nd", "3rd", "4th"."""
    return str(PLACE_NAMES.get(place, place))


# Stored keys shown as words: a group's status, a player's, a role.
GROUP_STATUS = {
    "active": pgettext_lazy("group status", "Active"),
    "eliminated": pgettext_lazy("group status", "Eliminated"),
    "winner": pgettext_lazy("group status", "Winner"),
    "joint_winner": pgettext_lazy("group status", "Joint winner"),
}
ENTRANT_STATUS = {
    "active": pgettext_lazy("player status", "Active"),
    "withdrawn": pgettext_lazy("player status", "Withdrawn"),
    "eliminated": pgettext_lazy("player status", "Eliminated"),
}
ROLES = {
    "organiser": gettext_lazy("Organiser"),
    "co_organiser": gettext_lazy("Co-organiser"),
    "referee": gettext_lazy("Referee"),
}


def _label(words: dict[str, object], key: str) -> str:
    found = words.get(key)
    return str(found) if found is not None else key.replace("_", " ").capitalize()


@register.filter
def group_status(key: str) -> str:
    """`{{ g.status|group_status }}`: "Eliminated", "Joint winner"."""
    return _label(GROUP_STATUS, key)


@register.filter
def entrant_status(key: str) -> str:
    """`{{ e.status|entrant_status }}`: "Withdrawn"."""
    return _label(ENTRANT_STATUS, key)


@register.filter
def role_label(key: str) -> str:
    """`{{ role|role_label }}`: "Co-organiser"."""
    return _label(ROLES, key)
