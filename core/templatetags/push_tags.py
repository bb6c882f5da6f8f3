"""`{% push_head %}`: a page's push meta tag and script (issue 28; core.push, live.js).

base.html writes it for a view that put `push` in its context; a frame that knows its topics
itself (the organiser's pages: the tournament) names them instead: `{% push_head topics %}`.
"""

from typing import Any

from django import template
from django.templatetags.static import static
from django.utils.html import format_html

from core import push

register = template.Library()


@register.simple_tag(takes_context=True)
def push_head(context: dict[str, Any], topics: str = "") -> str:
    stream = push.stream(topics.split()) if topics else context.get("push")
    if not stream:
        return ""
    return format_html(
        '<meta name="push" content="{}" data-renew="{}" data-topics="{}" data-slow="{}" '
        'data-ready="{}">\n'
        '  <script src="{}" nonce="{}" defer></script>',
        stream["url"],
        stream["renew"],
        stream["topics"],
        stream["slow"],
        stream["ready"],
        static("js/live.js"),
        context.get("csp_nonce", ""),
    )
