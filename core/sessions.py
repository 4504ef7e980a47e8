"""The browser's session, kept in the database (Django's store) under a key the cookie names.

A cookie is the client's to write: one naming a key that holds text no database keeps
(`limits.UNKEEPABLE`; `sessionid="abcdefgh\\000ijk"`, the cookie's octal escape of a NUL) names no
session, as a key too short to be one does in Django's own check. Looked up, it was PostgreSQL's
refusal, a server error on every page and API request that read the session."""

from django.contrib.sessions.backends import db

from . import limits


class SessionStore(db.SessionStore):
    def _validate_session_key(self, key):
        return super()._validate_session_key(key) and not limits.UNKEEPABLE.search(key)
