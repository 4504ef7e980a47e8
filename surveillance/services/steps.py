"""Steps the surveillance services share: saving an append-only record with its audit event,
the acting employee, a table of the site."""

from django.core.exceptions import PermissionDenied, ValidationError

from cardroom.access import NOT_AN_EMPLOYEE, access_for
from cardroom.models import Employee, Site, Table
from core.audit import record_site_event


def _append(obj, *, acting_user, site: Site, action: str):
    """Validate, save and audit one new row: the one path for every record of this app."""
    obj.full_clean()
    obj.save()
    record_site_event(acting_user, f"surveillance.{action}", obj, site)
    return obj


def _acting_employee(acting_user) -> Employee:
    employee = access_for(acting_user).employee
    if employee is None:
        raise PermissionDenied(NOT_AN_EMPLOYEE)
    return employee


def _same_site(table: Table | None, site: Site, field: str = "table") -> None:
    if table is not None and table.site_id != site.pk:
        raise ValidationError({field: "The table is at another site."})
