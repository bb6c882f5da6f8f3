"""A pseudo-language for tests: every string that comes through Django's translation
machinery is wrapped in markers, so that text outside the markers is a word nobody marked
for translation (issue 29, docs/translating.md, "How the tests check").

`PSEUDO` is a language of its own while `pseudo_language()` is active: LocaleMiddleware
chooses it from the language cookie like any other, so the pages render through the whole
stack. Every message looked up is recorded, so a test can check that each one has a
translation in every real language.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.utils.translation import trans_real

PSEUDO = "x-pseudo"
OPEN, CLOSE = "⟦", "⟧"
_SEPARATOR = trans_real.CONTEXT_SEPARATOR


class PseudoTranslation(trans_real.DjangoTranslation):
    """English words, each in markers; every message id looked up is kept in `seen`."""

    def __init__(self) -> None:
        super().__init__(settings.LANGUAGE_CODE)
        self._DjangoTranslation__language = PSEUDO  # what get_language() reports
        self._DjangoTranslation__to_language = PSEUDO
        self.seen: set[str | tuple[str, int]] = set()

    def gettext(self, message: str) -> str:
        self.seen.add(message)
        if _SEPARATOR in message:  # pgettext: the context is not part of the words
            message = message.split(_SEPARATOR, 1)[1]
        return OPEN + super().gettext(message) + CLOSE

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        self.seen.add((singular, 0))
        if _SEPARATOR in singular:
            singular, plural = singular.split(_SEPARATOR, 1)[1], plural.split(_SEPARATOR, 1)[1]
        return OPEN + super().ngettext(singular, plural, n) + CLOSE


@contextmanager
def pseudo_language() -> Iterator[PseudoTranslation]:
    """Make PSEUDO a language the site accepts from the language cookie, for the duration.
    It is not added to LANGUAGES, so the language menu does not offer it."""
    real_variant = trans_real.get_supported_language_variant
    pseudo = PseudoTranslation()

    def variant(code: str, strict: bool = False) -> str:
        return PSEUDO if code == PSEUDO else real_variant(code, strict)

    trans_real._translations[PSEUDO] = pseudo
    trans_real.get_supported_language_variant = variant
    try:
        yield pseudo
    finally:
        trans_real.get_supported_language_variant = real_variant
        trans_real._translations.pop(PSEUDO, None)


def outside_markers(text: str) -> str:
    """The text that no marker encloses (markers nest: a translated sentence may carry a
    translated word as a parameter)."""
    depth, kept = 0, []
    for char in text:
        if char == OPEN:
            depth += 1
            kept.append(" ")
        elif char == CLOSE:
            depth = max(0, depth - 1)
            kept.append(" ")
        elif depth == 0:
            kept.append(char)
    return "".join(kept)


WORD = re.compile(r"[^\W\d_][^\W\d_'’.-]*[^\W\d_]|[^\W\d_]{2,}")


def stray_words(text: str, allowed: set[str]) -> list[str]:
    """The words in `text` outside the markers that are not `allowed` (people's names, the
    glossary's exceptions): each one a word a person reads that skipped the catalogue."""
    rest = outside_markers(text)
    # Addresses and hexadecimal seeds and keys are not words.
    rest = re.sub(r"https?://\S+|\b(?=[0-9a-f-]*\d)[0-9a-f-]{6,}\b", " ", rest)
    names = sorted((a for a in allowed if a), key=len, reverse=True)
    if names:
        pattern = "|".join(re.escape(n) for n in names)
        rest = re.sub(rf"(?<!\w)(?:{pattern})(?!\w)", " ", rest)
    return [w for w in WORD.findall(rest) if w not in allowed]
