"""Names people give things (players, groups, tournaments, tables, accounts): one cleaning and
one comparison key for all of them.

`clean_name` builds on `core.text.clean_line` (control characters refused, zero-width and bidi
format characters removed, white space folded), then stores the name in NFC, so one name typed
on two keyboards is stored alike, and refuses a name with nothing visible left (a Hangul filler
or a lone combining accent looks like nothing on a page).

`name_key` is what two names are compared by: NFKC with case folding, so "Ada", "ADA", "ada",
"Ａｄａ" (fullwidth) and "Ada" with a zero-width space all collide. It is stored in an indexed
column (`name_key`) beside the name wherever names are unique, and the database refuses a
second row with the same key in the same scope.
"""

import unicodedata

from django.utils.translation import gettext as _

from .errors import ServiceError
from .text import clean_line

# Characters that are neither format characters (which clean_line removes) nor white space,
# yet show nothing: Hangul fillers, the braille blank, the combining grapheme joiner and the
# variation selectors. A name made only of these (and marks) has nothing visible.
_INVISIBLE = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0"
    + "".join(chr(c) for c in range(0xFE00, 0xFE10))
    + "".join(chr(c) for c in range(0xE0100, 0xE01F0))
)
# A key column holds KEY_WIDTH times the name's length: NFKC writes a few characters out
# longer ("ﬃ" is "ffi", "㎒" is "MHz"); a name whose key is longer still is refused.
KEY_WIDTH = 4
# Marks alone (a combining accent on nothing, an enclosing circle) draw nothing of their own.
_MARKS = frozenset({"Mn", "Me"})


def has_visible(text: str) -> bool:
    """Whether `text` shows at least one character a reader can see."""
    return any(
        not ch.isspace() and ch not in _INVISIBLE and unicodedata.category(ch) not in _MARKS
        for ch in text
    )


def clean_name(
    text: str | None, *, what: str, max_length: int, required: bool = True, missing: str = ""
) -> str:
    """`text` as a name is stored: cleaned, NFC, within `max_length` characters.

    Raises ServiceError, in words, for control characters, an empty name (`missing` says so;
    allowed when not `required`), nothing visible or too long a name. Never cuts a name: a
    person chooses a shorter one. `what` names the name in words ("A player's name"),
    translated by the caller (`gettext_lazy`): the messages open with it.
    """
    name = unicodedata.normalize("NFC", clean_line(text, what=what))
    if not name:
        if not required:
            return ""
        if not (text or "").strip():
            # Translators: %(what)s is what is named, e.g. "A player's name".
            raise ServiceError(str(missing) or _("%(what)s is missing.") % {"what": what})
    if not has_visible(name):
        raise ServiceError(
            # Translators: %(what)s is what is named, e.g. "A player's name".
            _("%(what)s needs at least one visible character.") % {"what": what}
        )
    if len(name) > max_length:
        raise ServiceError(
            # Translators: %(what)s is what is named, e.g. "A player's name".
            _("%(what)s has at most %(max)s characters; this one has %(length)s.")
            % {"what": what, "max": max_length, "length": len(name)}
        )
    if len(name_key(name)) > max_length * KEY_WIDTH:
        raise ServiceError(
            # Translators: %(what)s is what is named, e.g. "A player's name".
            _("%(what)s is too long once its characters are written out in full.") % {"what": what}
        )
    return name


def name_key(name: str) -> str:
    """The key two names are compared by: NFKC, case-folded, invisible characters dropped.

    NFKC is applied again after case folding (Unicode's NFKC_Casefold closure): folding can
    un-normalise a string ("ﬁ" folds to "fi", "ẞ" to "ss").
    """
    text = "".join(
        ch
        for ch in unicodedata.normalize("NFKC", name)
        if unicodedata.category(ch) != "Cf" and ch not in _INVISIBLE
    )
    text = unicodedata.normalize("NFKC", text.casefold())
    return " ".join(text.split())


def with_suffix(name: str, n: int, max_length: int) -> str:
    """`name` with " (n)" after it, the name shortened first if both would not fit: how a
    name that collided with another is renamed rather than dropped."""
    suffix = f" ({n})"
    return name[: max_length - len(suffix)].rstrip() + suffix
