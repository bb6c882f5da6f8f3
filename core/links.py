"""Absolute addresses for what leaves the site without a request to ask (e-mails sent by the
worker): the site's address is the setting SITE_URL (config/settings.py, `site_url`)."""

from django.conf import settings


def absolute(path: str) -> str:
    """`path` ("/me/") on this site; the path alone when no address is known."""
    return f"{settings.SITE_URL}{path}"
