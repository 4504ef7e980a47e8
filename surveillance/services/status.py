"""A site's surveillance status: recorded by the quarter rule, by taking over premises whose
activity requires a system, or by hand (ND 99-01.3-08-04, opening paragraph)."""

from datetime import date, timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from cardroom.access import require_gaming_manager
from cardroom.models import Site
from core.rules import HOUSE_CONTROL
from packs import game_name

from .. import queries
from ..models import PremisesSuccession, SurveillanceStatus
from ..rules import NOT_OPERATIONAL_WAGER_CAP_CENTS, OPERATIONAL_WITHIN, SYSTEM
from .steps import append_audited


def set_surveillance_status(
    acting_user, site: Site, required: bool, since: date, operational_on: date | None, reason: str
) -> SurveillanceStatus:
    """Record whether `site` requires video surveillance from `since` (ND 99-01.3-08-04). Set by
    a gaming manager until compliance jobs compute it from twenty-one gross proceeds."""
    require_gaming_manager(acting_user, site.organization_id, action="set the surveillance status of a site")
    if operational_on is not None and not required:
        raise ValidationError(
            {"operational_on": f"{SYSTEM.at(site)}: a site that does not require surveillance has no operational date."}
        )
    if not required:
        _refuse_undoing_the_trigger(site, since)
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
        return append_audited(status, acting_user=acting_user, site=site, action="status.set")


def _refuse_undoing_the_trigger(site: Site, since: date) -> None:
    """The requirement follows from the site's activity (ND 99-01.3-08-04), not from a choice:
    a status the quarter rule or an acquisition recorded is not switched off by hand."""
    status = queries.current_status(site, since)
    if status is not None and status.required and status.trigger != SurveillanceStatus.Trigger.MANUAL:
        raise ValidationError(
            {
                "required": (
                    f"{SYSTEM.at(site)}: the site's level of {game_name(site, '21')} activity requires a video surveillance system "
                    f"(recorded from {status.since:%Y-%m-%d}: {status.get_trigger_display().lower()}); it follows "
                    "from that activity and cannot be recorded as not required by hand."
                )
            }
        )


def require_surveillance_by_rule(
    *, site: Site, since: date, operational_due_on: date, reason: str
) -> SurveillanceStatus | None:
    """The quarter rule found the level of activity that requires a system (ND 99-01.3-08-04):
    record it as the system (no acting user), with the last day to be operational. Nothing is
    recorded when the site already requires a system on `since` (the rule ran twice)."""
    if queries.surveillance_required(site, since):
        return None
    with transaction.atomic():
        status = SurveillanceStatus(
            site=site,
            required=True,
            since=since,
            trigger=SurveillanceStatus.Trigger.QUARTER_RULE,
            operational_due_on=operational_due_on,
            reason=reason,
            recorded_by=None,
            recorded_at=timezone.now(),
        )
        return append_audited(status, acting_user=None, site=site, action="status.required_by_rule")


def record_premises_succession(*, acting_user, site: Site, predecessor: Site, acquired_on: date) -> PremisesSuccession:
    """`site` took over the premises where `predecessor` conducted twenty-one (usually another
    organization's site). Its history then counts for `site` (ND 99-01.3-08-04: "regardless of
    which organization conducted twenty-one at the site"); if the predecessor's activity
    required a system on the day before `acquired_on`, `site` requires one too, operational
    within 45 days of conducting twenty-one (`queries.operational_deadline`)."""
    require_gaming_manager(acting_user, site.organization_id, action="record the premises a site succeeds")
    if predecessor.pk == site.pk:
        raise ValidationError({"predecessor": f"{HOUSE_CONTROL}: a site cannot succeed itself."})
    if hasattr(site, "premises_succession"):
        raise ValidationError({"site": f"{HOUSE_CONTROL}: the premises this site succeeds are already recorded."})
    if site.pk in queries.premises_chain(predecessor):
        raise ValidationError({"predecessor": f"{HOUSE_CONTROL}: that site already succeeds this one."})
    with transaction.atomic():
        succession = PremisesSuccession(
            site=site,
            predecessor=predecessor,
            acquired_on=acquired_on,
            recorded_by=acting_user,
            recorded_at=timezone.now(),
        )
        append_audited(succession, acting_user=acting_user, site=site, action="premises.succeeded")
        if queries.surveillance_required(predecessor, acquired_on - timedelta(days=1)) and not (
            queries.surveillance_required(site, acquired_on)
        ):
            status = SurveillanceStatus(
                site=site,
                required=True,
                since=acquired_on,
                trigger=SurveillanceStatus.Trigger.ACQUIRED_SITE,
                reason=(
                    f"{SYSTEM.at(site)}: newly acquired premises of {predecessor} ({predecessor.organization}), whose "
                    f"level of activity requires a system: operational within "
                    f"{OPERATIONAL_WITHIN.on(site, acquired_on).text} of conducting {game_name(site, '21')}, or "
                    f"{NOT_OPERATIONAL_WAGER_CAP_CENTS.on(site, acquired_on).text} until it is."
                ),
                recorded_by=acting_user,
                recorded_at=timezone.now(),
            )
            append_audited(status, acting_user=acting_user, site=site, action="status.required_by_acquisition")
    return succession
