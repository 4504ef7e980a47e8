"""A site's surveillance status."""

from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from cardroom.access import require_gaming_manager
from cardroom.models import Site

from ..models import SurveillanceStatus
from .steps import _append


def set_surveillance_status(
    acting_user, site: Site, required: bool, since: date, operational_on: date | None, reason: str
) -> SurveillanceStatus:
    """Record whether `site` requires video surveillance from `since` (ND 99-01.3-08-04). Set by
    a gaming manager until compliance jobs compute it from twenty-one gross proceeds."""
    require_gaming_manager(acting_user, site.organization_id, action="set the surveillance status of a site")
    if operational_on is not None and not required:
        raise ValidationError({"operational_on": "A site that does not require surveillance has no operational date."})
    with transaction.atomic():
        status = SurveillanceStatus(
            site=site,
            required=required,
            since=since,
            operational_on=operational_on,
            reason=reason,
            recorded_by=acting_user,
            recorded_at=timezone.now(),
        )
        return _append(status, acting_user=acting_user, site=site, action="status.set")
