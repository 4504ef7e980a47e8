"""A session cookie naming a key that holds text no database keeps (a NUL: the cookie's octal
escape `\\000`) names no session (core.sessions): the page answers as to anyone signed out, the
API as to a request with no credentials. Its key was looked up, and on PostgreSQL, which keeps no
NUL, every page and API request answered 500."""

import pytest
from django.test import Client

from core.sessions import SessionStore

pytestmark = pytest.mark.django_db

KEY = "abcdefghij\x00klmnopqrstuvwxyz0123"


def test_a_key_holding_a_nul_is_no_session_key():
    assert SessionStore(KEY).session_key is None
    assert SessionStore("abcdefghijklmnopqrstuvwxyz012345").session_key == "abcdefghijklmnopqrstuvwxyz012345"


@pytest.mark.parametrize(("path", "status"), [("/login/", 200), ("/api/v1/tables/", 401)])
def test_a_session_cookie_holding_a_nul_is_no_session_and_no_server_error(path, status):
    browser = Client(raise_request_exception=False)
    browser.cookies["sessionid"] = KEY
    assert browser.get(path).status_code == status
