"""Steps the surveillance services share: saving an append-only record with its audit event,
a table of the site (the acting employee is core.acts's)."""

from django.core.exceptions import ValidationError

from cardroom.models import Site, Table
from core import acts


def append_audited(obj, *, acting_user, site: Site, action: str):
    """Validate, save and audit one new row: the one path for every record of this app."""
    obj.full_clean()
    obj.save()
    acts.record(acting_user, f"surveillance.{action}", obj, site)
    return obj


def require_same_site(table: Table | None, site: Site, field: str = "table") -> None:
    if table is not None and table.site_id != site.pk:
        raise ValidationError({field: "The table is at another site."})
