"""Django's database sessions, the session row read with SQL written once (core/rows.py)
instead of compiled by the ORM on every signed-in request, which cost more than the query
(docs/performance.md, "Fourth pass"). The same table, the same rows, the same checks: a session
is found by its key only while it has not expired."""

import logging

from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.core.exceptions import SuspiciousOperation
from django.utils import timezone

from core.rows import select_one


class SessionStore(db.SessionStore):
    def _get_session_from_db(self) -> Session | None:
        if self.get_model_class() is not Session:  # a subclass with its own model: Django's way
            return super()._get_session_from_db()
        if not self.session_key:
            return None
        try:
            found = select_one(
                Session,
                where=(("session_key", "="), ("expire_date", ">")),
                values=(self.session_key, timezone.now()),
            )
        except SuspiciousOperation as err:  # as Django's own store logs it
            logging.getLogger(f"django.security.{err.__class__.__name__}").warning(str(err))
            found = None
        if found is None:
            self._session_key = None
        return found
