"""The bank: its ideal amount and its starting and ending counts (ND 99-01.3-08-16(1)(a))."""

from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from cardroom.models import Site
from core import acts, closing
from core.audit import snapshot
from core.rules import HOUSE_CONTROL
from floor.chip_log import refuse_more_than_exist

from .. import rules
from ..calculations import lines_total_cents
from ..models import BankCount, BankCountLine, IdealBank
from .steps import (
    acting_at_site,
    checked_amount,
    checked_gaming_date,
    chip_total_cents,
    parse_cash_lines,
    parse_chip_lines,
    record_audit,
    refuse_house_chips,
)


def set_ideal_bank(*, acting_user, site: Site, amount_cents: int, effective_on: date) -> IdealBank:
    """Set the ideal (imprest) amount of a site's bank from `effective_on` (ND 99-01.3-03-09(5))."""
    employee = acting_at_site(acting_user, site, rules.POLICY_SETTERS, "set the ideal bank amount")
    amount_cents = checked_amount(amount_cents, "amount_cents", rules.IDEAL_BANK.at(site))
    with transaction.atomic():
        acts.key_share(site)  # the books' close waits, as for any record of a day (`acts.hold_books_open`)
        _refuse_ideal_in_closed_books(site, effective_on)
        ideal = IdealBank.objects.create(
            site=site, amount_cents=amount_cents, effective_on=effective_on, set_at=timezone.now(), set_by=employee
        )
        record_audit(acting_user, "ideal_bank.set", ideal, organization_id=site.organization_id, site_id=site.pk)
    return ideal


def _refuse_ideal_in_closed_books(site: Site, effective_on: date) -> None:
    """Closed books stay closed: an ideal bank is read by every bank day from `effective_on` until
    the next, so one in force from a date at or before a day whose books are closed (or whose
    quarter is filed) would change that day's imprest figures behind its close. Two queries of a
    size independent of the bank's history: the latest of the bank's days from the date whose
    books are closed (`core.closing.closed_on`, in the bank counts' own query), and why it is
    closed, or the date's own books where none of those is (`core.closing.closed_reason`)."""
    if not isinstance(effective_on, date):
        return  # the model's own check names the field
    counted = BankCount.objects.filter(site=site, gaming_date__gte=effective_on).filter(closing.closed_on())
    last = counted.aggregate(last=Max("gaming_date"))["last"] or effective_on
    why = closing.closed_reason(site.pk, last)
    if why is None:
        return
    raise ValidationError(
        {
            "effective_on": f"{closing.closed_books_control(site)}: {why}, so an "
            f"ideal bank in force from {effective_on} would change the bank of a closed day. Give a date after "
            f"{last}."
        }
    )


def record_bank_count(
    *,
    acting_user,
    site: Site,
    gaming_date: date,
    kind: str,
    cash,
    chips,
    corrects: BankCount | None = None,
    reason: str = "",
    at: datetime | None = None,
) -> BankCount:
    """Record the starting or ending count of a site's bank: cash by denomination and chips by
    denomination (ND 99-01.3-08-16(1)(a)). One count per day and kind; a mistake is corrected
    by a new count that points to the one it replaces, with a reason. A count gives at least
    one denomination (a blank form is no count); where the house's revenue is its fees the bank
    is cash only (floor.rules.FEES_ONLY)."""
    employee = acting_at_site(acting_user, site, rules.CAGE_CLERKS, "count the bank")
    if kind not in BankCount.Kind.values:
        raise ValidationError(
            {"kind": f"{rules.BANK_RECORDS.at(site)}: a bank count is a starting or an ending count."}
        )
    gaming_date = checked_gaming_date(site, gaming_date)
    cash_lines = parse_cash_lines(cash, citation=rules.BANK_RECORDS.at(site))
    chip_lines = parse_chip_lines(chips, site.organization_id, citation=rules.BANK_RECORDS.at(site))
    _check_counted(site, cash_lines, chip_lines)
    refuse_more_than_exist(site, chip_lines, record="bank count", on_date=gaming_date)
    at = acts.moment(at, "counted_at", site=site, gaming_date=gaming_date, after_day_end=True, what="the bank count")
    with transaction.atomic():
        Site.objects.select_for_update().get(pk=site.pk)
        acts.refuse_closed_books(site, gaming_date, "the bank count")
        _check_count_slot(site, gaming_date, kind, corrects, reason)
        count = BankCount.objects.create(
            site=site,
            gaming_date=gaming_date,
            kind=kind,
            counted_at=at,
            counted_by=employee,
            initials=employee.initials,
            cash_cents=lines_total_cents(cash_lines.items()),
            chips_cents=chip_total_cents(chip_lines),
            corrects=corrects,
            reason=reason,
        )
        BankCountLine.objects.bulk_create(
            [BankCountLine(count=count, value_cents=v, quantity=q) for v, q in cash_lines.items()]
            + [BankCountLine(count=count, chip=c, value_cents=c.value_cents, quantity=q) for c, q in chip_lines.items()]
        )
        after = {**snapshot(count), "cash": cash_lines, "chips": {c.value_cents: q for c, q in chip_lines.items()}}
        record_audit(
            acting_user,
            "bank_count.recorded",
            count,
            organization_id=site.organization_id,
            site_id=site.pk,
            after=after,
        )
    return count


def _check_counted(site: Site, cash_lines: dict, chip_lines: dict) -> None:
    """A count states what the bank holds, denomination by denomination. *Assumed*: a bank the
    site keeps (its ideal bank is set, cage.rules.IDEAL_BANK) is never empty at a start or an end
    of its day, so a count of no cash and no chips is a blank form, not a count, and is refused:
    saved, it would take the day's one count slot and close the books on a $0 bank. Where the
    house's revenue is its fees, the site holds no house chips: its bank is cash only."""
    if chip_lines:
        refuse_house_chips(site, "it holds no house chips, so its bank is counted in cash only")
    if not cash_lines and not chip_lines:
        raise ValidationError(
            {
                "cash": f"{rules.BANK_RECORDS.at(site)}: give at least one denomination and its quantity "
                "(a blank count is not recorded as an empty bank)."
            }
        )


def _check_count_slot(site: Site, gaming_date: date, kind: str, corrects: BankCount | None, reason: str) -> None:
    label = BankCount.Kind(kind).label.lower()
    if corrects is None:
        if BankCount.objects.filter(site=site, gaming_date=gaming_date, kind=kind).exists():
            raise ValidationError(
                {
                    "kind": f"{rules.BANK_RECORDS.at(site)}: the {label} count of {gaming_date} is already recorded; "
                    "record a correction that points to it instead."
                }
            )
        return
    if (corrects.site_id, corrects.gaming_date, corrects.kind) != (site.pk, gaming_date, kind):
        raise ValidationError(
            {"corrects": f"{HOUSE_CONTROL}: a correction replaces a count of the same site, gaming date and kind."}
        )
    if BankCount.objects.filter(corrects=corrects).exists():
        raise ValidationError(
            {"corrects": f"{HOUSE_CONTROL}: that count was already corrected; correct the latest count."}
        )
    if not reason.strip():
        raise ValidationError(
            {"reason": f"{HOUSE_CONTROL}: a correction states its reason; say why the count is corrected."}
        )
