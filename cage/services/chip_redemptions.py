"""Chips redeemed for cash at the cage."""

from datetime import date, datetime

from django.db import transaction

from cardroom.models import Site
from core import acts

from .. import rules
from ..models import ChipRedemption, ChipRedemptionLine
from .steps import (
    acting_at_site,
    checked_gaming_date,
    chip_total_cents,
    parse_chip_lines,
    record_audit,
    refuse_house_chips,
    require_chips,
)


def redeem_chips(*, acting_user, site: Site, gaming_date: date, chips, at: datetime | None = None) -> ChipRedemption:
    """Pay a player cash for chips at the value they were sold for, counted by denomination
    (ND 99-01.3-08-06(2)). Cash leaves the bank; the chips join it. Where the house's revenue
    is its fees there are no house chips to redeem (floor.rules.FEES_ONLY)."""
    employee = acting_at_site(acting_user, site, rules.CAGE_CLERKS, "redeem chips")
    refuse_house_chips(site, "the chips there are not the house's, so the cage redeems none")
    gaming_date = checked_gaming_date(site, gaming_date)
    lines = parse_chip_lines(chips, site.organization_id, citation=rules.REDEMPTION.at(site))
    require_chips(lines, "chips", rules.REDEMPTION.at(site))
    at = acts.moment(at, "redeemed_at", site=site, gaming_date=gaming_date, after_day_end=True, what="the cash bank")
    with transaction.atomic():
        Site.objects.select_for_update().get(pk=site.pk)
        acts.refuse_closed_books(site, gaming_date, "the cash bank")
        redemption = ChipRedemption.objects.create(
            site=site,
            gaming_date=gaming_date,
            redeemed_at=at,
            cashier=employee,
            initials=employee.initials,
            total_cents=chip_total_cents(lines),
        )
        ChipRedemptionLine.objects.bulk_create(
            [
                ChipRedemptionLine(redemption=redemption, chip=c, value_cents=c.value_cents, quantity=q)
                for c, q in lines.items()
            ]
        )
        record_audit(acting_user, "chips.redeemed", redemption, organization_id=site.organization_id, site_id=site.pk)
    return redemption
