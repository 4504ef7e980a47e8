"""Steps the count's services share: the acting employee, the time of an action, and the
shape of the figures (bills and coins by denomination, forms found)."""

from datetime import datetime

from django.core.exceptions import PermissionDenied
from django.utils import timezone

from cardroom.access import access_for
from cardroom.models import Employee

Figures = dict[tuple[int, str], int]  # (denomination_cents, "bill"|"coin") -> quantity > 0


Forms = set[tuple[str, int]]  # ("fill"|"credit", slip number)


def _acting_employee(acting_user) -> Employee:
    employee = access_for(acting_user).employee
    if employee is None:
        raise PermissionDenied("You are not an employee of any organization.")
    return employee


def _now(at: datetime | None) -> datetime:
    return at or timezone.now()
