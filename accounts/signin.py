"""What django-axes records of a sign-in attempt: the username as typed, bounded.

Axes stores the posted username of every failed sign-in in a 255-character column; a longer
one (anyone can post one) made PostgreSQL refuse the insert and the sign-in page answer 500
(found by tests/test_fuzz_forms.py). No account's username is longer than the field allows,
so the bounded prefix locks out exactly what the whole would have.
"""

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.http import HttpRequest


def attempted_username(request: HttpRequest, credentials: dict[str, Any] | None = None) -> str:
    """The username axes records and locks out by (AXES_USERNAME_CALLABLE)."""
    field = settings.AXES_USERNAME_FORM_FIELD
    source = credentials if credentials else getattr(request, "POST", {})
    username = source.get(field) or ""
    longest = get_user_model()._meta.get_field("username").max_length or 150
    # NUL is refused by PostgreSQL in any text column; no username holds one.
    return str(username)[:longest].replace("\x00", "")
