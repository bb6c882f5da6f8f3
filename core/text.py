"""Single-line text typed by people (names): what reaches the database and the pages.

Control characters (a NUL, an escape) are refused: no name needs one, and PostgreSQL refuses a
NUL outright. Invisible format characters (zero-width spaces and joiners, bidi overrides) are
removed: they make look-alike names and can reorder what a page shows. White space is folded.
"""

import unicodedata

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .errors import ServiceError


def clean_line(text: str | None, *, what: str | None = None) -> str:
    """`text` on one line, without invisible characters; refused if it holds a control
    character. May return "" (the caller says whether an empty value is allowed)."""
    text = text or ""
    if any(unicodedata.category(ch) == "Cc" and ch not in "\t\n\r" for ch in text):
        raise ServiceError(
            # Translators: %(what)s is what is named, e.g. "A player's name".
            _("%(what)s may not contain control characters.")
            % {"what": what or gettext_lazy("A name")}
        )
    visible = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    return " ".join(visible.split())
