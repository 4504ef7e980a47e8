"""IOUs lent out of the bank and their repayment (ND 99-01.3-03-06)."""

from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Sum

from cardroom.models import Site
from core import acts
from core.money import format_money
from floor.calculations import business_date

from .. import rules
from ..calculations import iou_outstanding_cents
from ..models import Iou, IouRepayment, fund_choices
from .steps import acting_at_site, checked_amount, checked_gaming_date, record_audit


def lend_iou(
    *,
    acting_user,
    site: Site,
    gaming_date: date,
    source: str,
    destination: str,
    amount_cents: int,
    note: str = "",
    at: datetime | None = None,
) -> Iou:
    """Record a loan between two funds at a site: source, destination, amount, date, initials
    (ND 99-01.3-03-06). Repaying it is a separate record (repay_iou)."""
    employee = acting_at_site(acting_user, site, rules.IOU_SIGNERS, "lend money on an IOU")
    funds = [code for code, _ in fund_choices(site)]
    for field, fund in (("source", source), ("destination", destination)):
        if fund not in funds:
            raise ValidationError(
                {
                    field: f"{rules.IOU_RULE.at(site)}: {fund!r} is not a fund at {site.name} (one of {', '.join(funds)})."
                }
            )
    if source == destination:
        raise ValidationError(
            {"destination": f"{rules.IOU_RULE.at(site)}: an IOU moves money between two different funds."}
        )
    amount_cents = checked_amount(amount_cents, "amount_cents", rules.IOU_RULE.at(site))
    gaming_date = checked_gaming_date(site, gaming_date)
    at = acts.moment(at, "lent_at", site=site, gaming_date=gaming_date, after_day_end=True, what="the IOUs")
    with transaction.atomic():
        Site.objects.select_for_update().get(pk=site.pk)
        acts.refuse_closed_books(site, gaming_date, "the IOUs")
        iou = Iou.objects.create(
            site=site,
            gaming_date=gaming_date,
            source=source,
            destination=destination,
            amount_cents=amount_cents,
            lent_at=at,
            lent_by=employee,
            initials=employee.initials,
            note=note,
        )
        record_audit(acting_user, "iou.lent", iou, organization_id=site.organization_id, site_id=site.pk)
    return iou


def repay_iou(
    *,
    acting_user,
    iou: Iou,
    amount_cents: int | None = None,
    gaming_date: date | None = None,
    at: datetime | None = None,
) -> IouRepayment:
    """Record the repayment of an IOU, in full (default) or in part, with its date and initials
    (ND 99-01.3-03-06). Never more than is outstanding; a repaid IOU is not repaid again."""
    site = iou.site
    employee = acting_at_site(acting_user, site, rules.IOU_SIGNERS, "take an IOU repayment")
    at = acts.moment(at, "repaid_at", site=site, not_before=iou.lent_at, what="the IOUs")
    gaming_date = checked_gaming_date(
        site, gaming_date or business_date(at, site.time_zone, site.business_day_start_hour)
    )
    if gaming_date < iou.gaming_date:
        raise ValidationError(
            {"gaming_date": f"{rules.IOU_RULE.at(site)}: an IOU is repaid on or after the day it was lent."}
        )
    with transaction.atomic():
        Site.objects.select_for_update().get(pk=site.pk)
        acts.refuse_closed_books(site, gaming_date, "the IOUs")
        Iou.objects.select_for_update().get(pk=iou.pk)
        repaid = IouRepayment.objects.filter(iou=iou).aggregate(total=Sum("amount_cents"))["total"] or 0
        outstanding = iou_outstanding_cents(iou.amount_cents, repaid)
        if outstanding == 0:
            raise ValidationError({"iou": f"{rules.IOU_RULE.at(site)}: this IOU is already repaid in full."})
        amount_cents = (
            outstanding
            if amount_cents is None
            else checked_amount(amount_cents, "amount_cents", rules.IOU_RULE.at(site))
        )
        if amount_cents > outstanding:
            raise ValidationError(
                {
                    "amount_cents": f"{rules.IOU_RULE.at(site)}: {format_money(amount_cents)} is more than the "
                    f"{format_money(outstanding)} outstanding on this IOU."
                }
            )
        repayment = IouRepayment.objects.create(
            iou=iou,
            gaming_date=gaming_date,
            amount_cents=amount_cents,
            repaid_at=at,
            repaid_by=employee,
            initials=employee.initials,
        )
        record_audit(acting_user, "iou.repaid", repayment, organization_id=site.organization_id, site_id=site.pk)
    return repayment
