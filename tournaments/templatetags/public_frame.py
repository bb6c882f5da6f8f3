"""Per-request parts of the public pages' frame, kept cheap: a crowd loads these pages."""

import time

from django import template
from django.utils import dateformat, timezone, translation

register = template.Library()

# ((time zone, language, minute), the text): `{% now "j F Y, H:i" %}` worked the date out in
# words for every page load, a tenth of the standings page's time (docs/performance.md,
# "Fourth pass"). One tuple, replaced whole and read once per call: threads share it safely.
_printed: tuple[tuple[object, str | None, int], str] = ((None, None, -1), "")


@register.simple_tag
def printed_at() -> str:
    """Now, to the minute, as `{% now "j F Y, H:i" %}` writes it, for a printed page's foot."""
    global _printed
    zone = timezone.get_current_timezone()
    key = (zone, translation.get_language(), int(time.time()) // 60)
    held = _printed
    if held[0] != key:
        held = _printed = (key, dateformat.format(timezone.localtime(timezone=zone), "j F Y, H:i"))
    return held[1]
