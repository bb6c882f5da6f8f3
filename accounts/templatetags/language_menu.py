"""`{% language_choices as languages %}`: settings.LANGUAGES for the language menu
(templates/_language_menu.html), each named in its own language, untranslated (Django's
`get_available_languages` would translate "English" into the page's language), with its code
as a `lang` attribute writes it (BCP 47: "en-GB")."""

from django import template
from django.conf import settings
from django.utils.translation import to_language, to_locale

register = template.Library()


@register.simple_tag
def language_choices() -> list[tuple[str, str, str]]:
    """(code, name, lang) for each language of the site."""
    return [
        (code, name, to_locale(to_language(code)).replace("_", "-"))
        for code, name in settings.LANGUAGES
    ]
