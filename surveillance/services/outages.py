"""Outages, their repair, and the $2 cap on a table past an outage's deadline
(ND 99-01.3-08-04(7))."""

from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from cardroom.access import require_role
from cardroom.models import Table
from core import acts, moments
from core.rules import HOUSE_CONTROL

from .. import queries
from ..models import Equipment, Outage, OutageRepair
from ..rules import OUTAGE_DEADLINE, OUTAGE_REPORT_ROLES, STAFF_ROLES
from .steps import append_audited


def report_outage(
    *, acting_user, table: Table, kind: str, began_at: datetime, description: str, equipment: Equipment | None = None
) -> Outage:
    """Report a camera or recorder not operating properly since `began_at` (08-04(7)); the
    deadline to repair it runs from then (`queries.deadline_for`)."""
    site = table.site
    require_role(acting_user, site, *OUTAGE_REPORT_ROLES, action="report a surveillance outage", rule=HOUSE_CONTROL)
    if began_at is None:
        # The deadline to repair runs from when the outage began (`OUTAGE_DEADLINE`).
        raise ValidationError({"began_at": f"{OUTAGE_DEADLINE.at(site)}: give when the outage began."})
    began_at = moments.occurred_at(site, began_at, field="began_at", books=False, what="an outage")
    if equipment is not None and equipment.site_id != site.pk:
        raise ValidationError({"equipment": f"{HOUSE_CONTROL}: the equipment is at another site."})
    with transaction.atomic():
        outage = Outage(
            table=table,
            equipment=equipment,
            kind=kind,
            began_at=began_at,
            description=description,
            reported_by=acting_user,
            reported_at=timezone.now(),
        )
        return append_audited(outage, acting_user=acting_user, site=site, action="outage.reported")


def _refuse_repaired_twice(outage: Outage) -> None:
    """House control: an outage is ended by one repair (a new outage is reported for a new fault)."""
    if OutageRepair.objects.filter(outage=outage).exists():
        raise ValidationError({"outage": f"{HOUSE_CONTROL}: this outage already has its repair recorded."})


def record_outage_repair(*, acting_user, outage: Outage, repaired_at: datetime, description: str) -> OutageRepair:
    """Record the repair that ends an outage: a new row pointing back to it, dated (`repaired_at`,
    naive for the site's local time) no later than now and no earlier than the outage began."""
    site = outage.table.site
    require_role(acting_user, site, *STAFF_ROLES, action="record a surveillance repair", rule=HOUSE_CONTROL)
    _refuse_repaired_twice(outage)
    if repaired_at is None:
        # The repair ends the outage's deadline (`OUTAGE_DEADLINE`).
        raise ValidationError({"repaired_at": f"{OUTAGE_DEADLINE.at(site)}: give when the repair was made."})
    # The repair ends the outage whose deadline runs under 08-04(7): it is dated from the paper (a
    # naive time is the site's), not in the future, and not before the outage began.
    rule = OUTAGE_DEADLINE.at(site)
    repaired_at = moments.occurred_at(site, repaired_at, field="repaired_at", rule=rule, books=False, what="a repair")
    moments.refuse_before(
        site,
        repaired_at,
        outage.began_at,
        field="repaired_at",
        rule=rule,
        why="the repair ends the outage, so it is dated after the outage began",
        what="the outage's start",
    )
    with transaction.atomic():
        # The same repair sent from another terminal waits for the outage's row; read again here.
        acts.hold(outage)
        _refuse_repaired_twice(outage)
        repair = OutageRepair(
            outage=outage,
            repaired_at=repaired_at,
            description=description,
            recorded_by=acting_user,
            recorded_at=timezone.now(),
        )
        return append_audited(repair, acting_user=acting_user, site=site, action="outage.repaired")


def check_wager_under_outage_cap(table: Table, max_wager_cents: int, at: datetime | None = None) -> None:
    """For table opening and table edits: refuse a maximum wager above $2 on a table whose
    outage is past its deadline (ND 99-01.3-08-04(7))."""
    cap, reason = queries.outage_wager_cap(table, at)
    if cap is not None and max_wager_cents > cap:
        raise ValidationError({"max_wager_cents": reason})


def check_wager_under_surveillance_caps(table: Table, max_wager_cents: int, at: datetime | None = None) -> None:
    """The $2 caps of ND 99-01.3-08-04 for table opening and table edits: past an outage's
    deadline (08-04(7)), and past the site's deadline to have a system while the equipment
    register shows none for the table (opening paragraph). Registered in `cardroom.wager_caps`."""
    for cap, reason in queries.wager_caps(table, at):  # one query, two when the table has an outage
        if max_wager_cents > cap:
            raise ValidationError({"max_wager_cents": reason})
