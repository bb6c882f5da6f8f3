"""One way to read a whole number from a request: ASCII digits only, bounded.

`str.isdigit()` accepts superscripts and other scripts' digits ("²", "٣"), which `int()` then
refuses or reads as numbers nobody typed; a page must answer those as bad input, never 500.
"""

import re

_ASCII_DIGITS = re.compile(r"[0-9]{1,9}")


def read_int(value: object, *, lo: int = 0, hi: int = 10**9) -> int | None:
    """`value` as an int when it is 1–9 ASCII digits within `lo`–`hi`, else None."""
    if not isinstance(value, str) or not _ASCII_DIGITS.fullmatch(value):
        return None
    number = int(value)
    return number if lo <= number <= hi else None
