"""Django's fallback message storage (a signed cookie, then the session), with the cookie's
signer made only when a messages cookie is read or written. Django makes it for every
request, in the message middleware, though almost none carries a message (a crowd's page
loads among them): it was about 3% of the standings page's CPU under gunicorn
(docs/performance.md, "Fourth pass")."""

from functools import cached_property

from django.contrib.messages.storage import base, cookie, fallback, session
from django.core import signing


class CookieStorage(cookie.CookieStorage):
    def __init__(self, *args, **kwargs) -> None:
        base.BaseStorage.__init__(self, *args, **kwargs)  # not the parent's: no signer yet

    @cached_property
    def signer(self) -> signing.Signer:
        return signing.get_cookie_signer(salt=self.key_salt)


class FallbackStorage(fallback.FallbackStorage):
    storage_classes = (CookieStorage, session.SessionStorage)
