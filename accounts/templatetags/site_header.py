"""The site's header as a signed-out visitor sees it, rendered once per process (issue 15).

It holds nothing of the visitor or the request (no name, no token, no nonce): the site's
links, "Sign in" and "Sign up", and which link is the current page's — the same for every
signed-out visitor of a page in one language, so the links are not reversed again for each
of them (kept per language: its words are translated). Someone
signed in gets the header rendered for them (their name, the sign-out form's CSRF token).
"""

from django import template
from django.conf import settings
from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import get_language

register = template.Library()

# By page (the home page or another) and language (issue 29): a Spanish visitor never gets
# the header rendered for an English one.
_rendered: dict[tuple[bool, str], SafeString] = {}


@register.simple_tag(takes_context=True)
def signed_out_header(context: template.Context) -> SafeString:
    request = context.get("request")
    match = getattr(request, "resolver_match", None)
    home = bool(match and match.url_name == "home")
    if settings.DEBUG:  # in development a template edit shows at once
        return _render(home)
    key = (home, get_language() or settings.LANGUAGE_CODE)
    found = _rendered.get(key)
    if found is None:
        found = _rendered[key] = _render(home)
    return found


def _render(home: bool) -> SafeString:
    return SafeString(render_to_string("base.html#signed_out_header", {"home": home}))
