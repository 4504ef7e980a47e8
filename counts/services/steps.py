"""Steps the count's services share: the acting employee, the time of an action, the refusal
of a day whose books are closed, and the shape of the figures (bills and coins by
denomination, forms found)."""

from datetime import date, datetime

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from cardroom import closing, moments
from cardroom.access import NOT_AN_EMPLOYEE, access_for
from cardroom.models import Employee, Site

Figures = dict[tuple[int, str], int]  # (denomination_cents, "bill"|"coin") -> quantity > 0


Forms = set[tuple[str, int]]  # ("fill"|"credit", slip number)


def _acting_employee(acting_user) -> Employee:
    employee = access_for(acting_user).employee
    if employee is None:
        raise PermissionDenied(NOT_AN_EMPLOYEE)
    return employee


def _now(at: datetime | None) -> datetime:
    return at or timezone.now()


def _moment(site: Site, at: datetime | None, field: str, **checks) -> datetime:
    """When it happened: now, or a time from the paper read and checked in one place
    (cardroom.moments.occurred_at: site's local time, not future, business hours, closed books)."""
    return moments.occurred_at(site, at, field=field, **checks)


def _refuse_closed_books(site: Site, gaming_date: date, what: str, field: str = "gaming_date") -> None:
    """A count of a day whose books are closed stays as closed (cardroom.closing): a correction
    is an adjustment to the closed books, approved by a gaming manager."""
    refusal = closing.closed_books_refusal(site, gaming_date, what)
    if refusal is not None:
        raise ValidationError({field: refusal})
