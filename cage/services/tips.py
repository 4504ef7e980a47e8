"""Tips: the site's tip policy, tips declared by dealers and redeemed (ND 99-01.3-08-06)."""

from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from cardroom.models import Employee, Organization, Site
from core import acts, closing, moments
from core.audit import appended_at_end
from floor.chip_log import refuse_more_than_exist

from .. import rules
from ..models import TipDeclaration, TipDeclarationLine, TipPolicy, TipRedemption
from .steps import (
    acting_at_site,
    acting_in_organization,
    checked_gaming_date,
    chip_total_cents,
    parse_chip_lines,
    record_audit,
    refuse_house_chips,
)


def record_tip_policy(
    *, acting_user, organization: Organization, pooled: bool, description: str, effective_on: date
) -> TipPolicy:
    """Record the organization's tip-pooling policy from a date on (`rules.TIPS`; North Dakota's 08-06(2) allows pooling)."""
    employee = acting_in_organization(acting_user, organization, rules.POLICY_SETTERS, "set the tip-pooling policy")
    if not description.strip():
        raise ValidationError(
            {
                "description": f"{rules.at_organization(rules.TIPS, organization.pk)}: describe how tips are pooled or kept."
            }
        )
    with transaction.atomic():
        policy = TipPolicy.objects.create(
            organization=organization,
            pooled=bool(pooled),
            description=description.strip(),
            effective_on=effective_on,
            set_at=timezone.now(),
            set_by=employee,
        )
        record_audit(acting_user, "tip_policy.recorded", policy, organization_id=organization.pk, site_id=None)
    return policy


def declare_tips(*, acting_user, site: Site, gaming_date: date, chips, at: datetime | None = None) -> TipDeclaration:
    """A dealer declares, in their own name, the tip chips they hold at the end of a shift
    (an empty list: none). Declared tips stay unredeemed until the cashier pays them out;
    the dealer may not leave the site before (ND 99-01.3-08-06(3)). The tips are the gaming
    day's: a day whose books are closed takes none (core.closing)."""
    dealer = acting_at_site(acting_user, site, rules.TIP_ROLES, "declare tips", rules.TIP_HOLDERS.at(site))
    gaming_date = checked_gaming_date(site, gaming_date)
    lines = parse_chip_lines(chips, site.organization_id, citation=rules.TIPS.at(site))
    if lines:  # tips here are declared in the house's chips
        refuse_house_chips(site, "it holds no house chips, so no tip chips are declared to its cage")
    refuse_more_than_exist(site, lines, record="tip declaration", on_date=gaming_date)
    at = acts.moment(at, "declared_at", site=site, gaming_date=gaming_date, after_day_end=True, what="the tips")
    # The declaration's, its lines' and the declaration event go in one INSERT (appended_at_end).
    with transaction.atomic(), appended_at_end():
        Site.objects.select_for_update().get(pk=site.pk)
        acts.refuse_closed_books(site, gaming_date, "the tips")
        declaration = TipDeclaration.objects.create(
            site=site,
            gaming_date=gaming_date,
            dealer=dealer,
            initials=dealer.initials,
            declared_at=at,
            total_cents=chip_total_cents(lines),
        )
        TipDeclarationLine.objects.bulk_create(
            [
                TipDeclarationLine(declaration=declaration, chip=c, value_cents=c.value_cents, quantity=q)
                for c, q in lines.items()
            ]
        )
        record_audit(acting_user, "tips.declared", declaration, organization_id=site.organization_id, site_id=site.pk)
    return declaration


def redeem_tips(
    *, acting_user, declaration: TipDeclaration, dealer: Employee, at: datetime | None = None
) -> TipRedemption:
    """The cashier pays the dealer present at the window, through cash on hand, for the very
    chips the dealer declared (`rules.TIPS`). `dealer` is the person at the window: it
    must be the dealer who declared the tips; a cashier never pays their own tips. A redemption
    is counted in the books of its declaration's gaming day while they are open; once they are
    closed, in those of the gaming day it is paid on, which must be open
    (`rules.TIPS_OF_CLOSED_DAYS`): the dealer is paid and no closed day changes (core.closing)."""
    site = declaration.site
    cashier = acting_at_site(acting_user, site, rules.TIP_REDEEMERS, "redeem a dealer's tips")
    if dealer.pk != declaration.dealer_id:
        raise ValidationError(
            {
                "dealer": f"{rules.TIPS.at(site)}: a dealer redeems only their own tips; these were declared by "
                f"{declaration.dealer}, not {dealer}."
            }
        )
    if cashier.pk == dealer.pk:
        raise ValidationError({"dealer": f"{rules.TIP_SEGREGATION}: another cashier redeems your own tips."})
    if declaration.total_cents == 0:
        raise ValidationError({"declaration": f"{rules.TIPS.at(site)}: this declaration holds no tips to redeem."})
    # The day whose books count the redemption depends on them: asked below, under the site's lock.
    at = acts.moment(at, "redeemed_at", site=site, not_before=declaration.declared_at, books=False, what="the tips")
    if at < declaration.declared_at:
        raise ValidationError({"redeemed_at": f"{rules.TIPS.at(site)}: tips are redeemed after they are declared."})
    with transaction.atomic():
        Site.objects.select_for_update().get(pk=site.pk)
        TipDeclaration.objects.select_for_update().get(pk=declaration.pk)
        if TipRedemption.objects.filter(declaration=declaration).exists():
            raise ValidationError({"declaration": f"{rules.TIPS.at(site)}: these tips were already redeemed."})
        redemption = TipRedemption.objects.create(
            declaration=declaration,
            gaming_date=_counted_on(site, declaration, at),
            redeemed_at=at,
            cashier=cashier,
            initials=cashier.initials,
            amount_cents=declaration.total_cents,
        )
        record_audit(acting_user, "tips.redeemed", redemption, organization_id=site.organization_id, site_id=site.pk)
    return redemption


def _counted_on(site: Site, declaration: TipDeclaration, at: datetime) -> date:
    """The gaming date whose books count a redemption paid at `at`: its declaration's while that
    day's books are open; else the day it is paid on (`rules.TIPS_OF_CLOSED_DAYS`), refused on
    `redeemed_at` where that day's books are closed too. Asked under the site's lock, which the
    books' close takes."""
    if not closing.books_closed(site.pk, declaration.gaming_date):
        return declaration.gaming_date
    paid_on = moments.gaming_date_of(site, at)
    why = closing.closed_reason(site.pk, paid_on)
    if why is not None:
        raise ValidationError(
            {
                "redeemed_at": f"{closing.closed_books_control(site)}: {why}, so no tips are redeemed on {paid_on}. "
                f"Tips declared on {declaration.gaming_date}, whose books are closed, are counted on the gaming "
                f"day they are paid ({rules.TIPS_OF_CLOSED_DAYS}): give the time they were paid, in a gaming day "
                "whose books are open (none: now)."
            }
        )
    return paid_on
