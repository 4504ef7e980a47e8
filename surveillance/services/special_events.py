"""Recording a site's special events (ND 99-01.3-08-04, opening paragraph): the consecutive days
temporary tables are on the site for an event; the exemption from a system is read from them
(`surveillance.special_events`)."""

from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from cardroom.access import require_role
from cardroom.models import Role, Site
from core.rules import HOUSE_CONTROL

from ..models import SpecialEvent
from ..rules import SPECIAL_EVENT
from .steps import append_audited

# House control: who records an event, and the longest one recorded (a year; the exemption
# itself stops at the pack's limit, `SPECIAL_EVENT_MAX_DAYS`).
RECORDERS = frozenset({Role.GAMING_MANAGER})
MAX_EVENT_DAYS = 366


def require_recorder(user, site: Site) -> None:
    """Refuse anyone but a gaming manager of the site (a house control), in the service's words."""
    require_role(user, site, *RECORDERS, action="record a special event", rule=HOUSE_CONTROL)


def record_special_event(
    *, acting_user, site: Site, name: str, first_day: date, last_day: date, corrects: SpecialEvent | None = None
) -> SpecialEvent:
    """A special event of the site, first to last day (a correction names the event it replaces).
    Refused where the site's pack states no special-event exemption, for days out of order or
    overlapping another event of the site in force (one event at a time: the days are counted
    per event)."""
    require_recorder(acting_user, site)
    if not SPECIAL_EVENT.applies(site):
        raise ValidationError(
            {
                "site": f"{HOUSE_CONTROL}: the law of {site}'s pack states no special-event exemption from a "
                "surveillance system, so no special event is recorded there."
            }
        )
    cite = SPECIAL_EVENT.at(site)
    name = (name or "").strip()
    if not name or len(name) > 200:
        raise ValidationError({"name": f"{HOUSE_CONTROL}: name the event (at most 200 characters)."})
    if first_day is None or last_day is None or first_day > last_day:
        raise ValidationError({"last_day": f"{cite}: an event runs on consecutive days, its first day to its last."})
    if (last_day - first_day).days + 1 > MAX_EVENT_DAYS:
        raise ValidationError({"last_day": f"{HOUSE_CONTROL}: an event is recorded for at most {MAX_EVENT_DAYS} days."})
    if corrects is not None and corrects.site_id != site.pk:
        raise ValidationError({"corrects": f"{HOUSE_CONTROL}: the event corrected is another site's."})
    with transaction.atomic():
        list(Site.objects.select_for_update().filter(pk=site.pk).values_list("pk", flat=True))  # one at a time
        if corrects is not None and SpecialEvent.objects.filter(corrects=corrects).exists():
            raise ValidationError(
                {"corrects": f"{HOUSE_CONTROL}: that event is already corrected; correct its correction."}
            )
        overlapping = (
            SpecialEvent.objects.filter(
                site=site, corrected_by__isnull=True, first_day__lte=last_day, last_day__gte=first_day
            )
            .exclude(pk=getattr(corrects, "pk", None))
            .order_by("first_day")
            .first()
        )
        if overlapping is not None:
            raise ValidationError(
                {
                    "first_day": f"{cite}: the event's days overlap {overlapping} at {site}; an event's consecutive days "
                    "are its own (correct that event instead)."
                }
            )
        event = SpecialEvent(
            site=site,
            name=name,
            first_day=first_day,
            last_day=last_day,
            corrects=corrects,
            recorded_by=acting_user,
            recorded_at=timezone.now(),
        )
        return append_audited(event, acting_user=acting_user, site=site, action="special_event.recorded")
