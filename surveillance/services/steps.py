"""Steps the surveillance services share: saving an append-only record with its audit event,
a table of the site (the acting employee is core.acts's)."""

from django.core.exceptions import ValidationError

from cardroom.models import Site, Table
from core.audit import record_site_event


def _append(obj, *, acting_user, site: Site, action: str):
    """Validate, save and audit one new row: the one path for every record of this app."""
    obj.full_clean()
    obj.save()
    record_site_event(acting_user, f"surveillance.{action}", obj, site)
    return obj


def _same_site(table: Table | None, site: Site, field: str = "table") -> None:
    if table is not None and table.site_id != site.pk:
        raise ValidationError({field: "The table is at another site."})
