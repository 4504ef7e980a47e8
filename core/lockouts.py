"""Login lockouts, keyed on the username: the wrong passwords django-axes counts, and clearing them.

Five wrong passwords (settings.AXES_FAILURE_LIMIT) lock a login for settings.AXES_COOLOFF_TIME
(house control). django-axes keeps one row per username, address and browser; the lock counts
them all (AXES_LOCKOUT_PARAMETERS), and so does this module. Whose login it is (an employee, a
station) and who may unlock it are the domain's (`cardroom.lockouts`). The words a refused sign-in
is answered with (`SIGN_IN_REFUSED`, `SIGN_IN_BLANKS`) are here too, one wording for the sign-in
pages and the API's token endpoint.
"""

from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import QuerySet, Sum
from django.db.models.functions import Lower
from django.utils import timezone

from .rules import HOUSE_CONTROL

LOGIN_FAILURE_LIMIT = settings.AXES_FAILURE_LIMIT
# The answer to a wrong login name or password, a person's or a station's, on the sign-in page and
# from the API's token endpoint alike: the lock it leads to is the house's own control.
SIGN_IN_REFUSED = (
    f"{HOUSE_CONTROL}: your login name and password did not match; after {LOGIN_FAILURE_LIMIT} wrong tries "
    "the account is locked for a while."
)
# House control: a sign-in takes both; nothing is tried, nor counted against the login, without them.
# The answer to either left blank or out, by field, on the sign-in pages and from the token endpoint alike.
SIGN_IN_BLANKS = {
    "username": f"{HOUSE_CONTROL}: give your login name to sign in.",
    "password": f"{HOUSE_CONTROL}: give your password to sign in.",
}


def _recent_attempts() -> QuerySet:
    """The wrong-password rows of the cool-off period that name a username."""
    since = timezone.now() - settings.AXES_COOLOFF_TIME
    return AccessAttempt.objects.filter(attempt_time__gte=since, username__isnull=False)


def attempted_logins() -> QuerySet:
    """The usernames (lower case) with wrong passwords in the cool-off period, as a subquery:
    anyone may try any number of names, so never a list."""
    return _recent_attempts().annotate(name=Lower("username")).values("name")


def failures_by_login() -> dict[str, int]:
    """The wrong passwords of the cool-off period by username (lower case): one query."""
    return dict(attempted_logins().annotate(n=Sum("failures_since_start")).values_list("name", "n"))


def password_failures(username: str) -> int:
    counted = _recent_attempts().filter(username__iexact=username).aggregate(n=Sum("failures_since_start"))
    return counted["n"] or 0


def login_locked(failures: int) -> bool:
    return failures >= LOGIN_FAILURE_LIMIT


def clear_password_failures(username: str) -> None:
    """Forget every wrong password of `username`, so that it signs in again at once."""
    AccessAttempt.objects.filter(username__iexact=username).delete()
