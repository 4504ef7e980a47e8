"""Steps the surveillance services share: saving an append-only record with its audit event,
a table of the site, a gaming day that has begun (the acting employee is core.acts's)."""

from datetime import date

from django.core.exceptions import ValidationError

from cardroom.models import Site, Table
from core import acts, moments
from core.citations import cite
from core.rules import HOUSE_CONTROL


def append_audited(obj, *, acting_user, site: Site, action: str):
    """Validate, save and audit one new row: the one path for every record of this app."""
    obj.full_clean()
    obj.save()
    acts.record(acting_user, f"surveillance.{action}", obj, site)
    return obj


def require_same_site(table: Table | None, site: Site, field: str = "table") -> None:
    if table is not None and table.site_id != site.pk:
        raise ValidationError({field: f"{HOUSE_CONTROL}: the table is at another site."})


def require_day_begun(site: Site, gaming_date: date, field: str = "gaming_date") -> None:
    """A record of a gaming day's play (a recording, a review) is for a day that has begun, cited
    by the pack's business day (`core.moments.BUSINESS_DAY`): a later day has had no play."""
    moments.refuse_day_not_begun(site, gaming_date, field=field, rule=cite(moments.BUSINESS_DAY, site.jurisdiction))
