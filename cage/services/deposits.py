"""Bank deposits of a gaming day and their verification (ND 99-01.3-03-10)."""

from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from cardroom.models import Site
from core import acts
from core.money import format_money

from .. import queries, rules
from ..calculations import deposit_due_on
from ..models import BankDeposit, DepositVerification
from .steps import acting_at_site, checked_amount, record_audit


def record_deposit(
    *, acting_user, gaming_day, amount_cents: int, deposited_on: date, reference: str = "", at: datetime | None = None
) -> BankDeposit:
    """Record the bank deposit of a gaming day, once its books are closed. It is due by the
    third banking day after the gaming date (ND 99-01.3-03-10); a later deposit is recorded
    and shown as late."""
    site = gaming_day.site
    employee = acting_at_site(acting_user, site, rules.CAGE_CLERKS, "record a bank deposit")
    amount_cents = checked_amount(amount_cents, "amount_cents", rules.DEPOSIT.at(site), allow_zero=True)
    if not isinstance(deposited_on, date) or deposited_on < gaming_day.gaming_date:
        raise ValidationError(
            {"deposited_on": f"{rules.DEPOSIT.at(site)}: a deposit is made on or after its gaming date."}
        )
    if deposited_on > timezone.localdate():
        raise ValidationError({"deposited_on": f"{rules.DEPOSIT.at(site)}: a deposit cannot be dated in the future."})
    if not queries.books_closed(site, gaming_day.gaming_date):
        raise ValidationError(
            {
                "gaming_day": f"{rules.DEPOSIT_AFTER_CLOSE}: the books of {gaming_day.gaming_date} at {site} are not closed; "
                "close the day's books (daily page) before recording its deposit."
            }
        )
    with transaction.atomic():
        Site.objects.select_for_update().get(pk=site.pk)
        if BankDeposit.objects.filter(gaming_day=gaming_day).exists():
            raise ValidationError(
                {
                    "gaming_day": f"{rules.DEPOSIT.at(site)}: the deposit of {gaming_day.gaming_date} is already recorded."
                }
            )
        deposit = BankDeposit.objects.create(
            site=site,
            gaming_day=gaming_day,
            gaming_date=gaming_day.gaming_date,
            amount_cents=amount_cents,
            deposited_on=deposited_on,
            due_on=deposit_due_on(gaming_day.site, gaming_day.gaming_date),
            reference=reference,
            recorded_at=acts.moment(at, "recorded_at"),
            recorded_by=employee,
            initials=employee.initials,
        )
        record_audit(acting_user, "deposit.recorded", deposit, organization_id=site.organization_id, site_id=site.pk)
    return deposit


def verify_deposit(
    *, acting_user, deposit: BankDeposit, statement_date: date, statement_amount_cents: int, note: str = ""
) -> DepositVerification:
    """Check a deposit against the bank statement (ND 99-01.3-08-16(5)), once, by someone other
    than who recorded it. A difference is recorded with its explanation."""
    site = deposit.site
    employee = acting_at_site(acting_user, site, rules.DEPOSIT_VERIFIERS, "verify a bank deposit")
    if employee.pk == deposit.recorded_by_id:
        raise ValidationError(
            {"deposit": f"{rules.DEPOSIT_SEGREGATION}: someone other than who recorded the deposit verifies it."}
        )
    statement_amount_cents = checked_amount(
        statement_amount_cents, "statement_amount_cents", rules.DEPOSIT_VERIFICATION.at(site), allow_zero=True
    )
    if not isinstance(statement_date, date) or statement_date < deposit.deposited_on:
        raise ValidationError(
            {
                "statement_date": f"{rules.DEPOSIT_VERIFICATION.at(site)}: the statement shows the deposit on or after {deposit.deposited_on}."
            }
        )
    difference = statement_amount_cents - deposit.amount_cents
    if difference and not note.strip():
        raise ValidationError(
            {
                "note": f"{rules.DEPOSIT_VERIFICATION.at(site)}: the statement differs from the deposit by "
                f"{format_money(difference, signed=True)}; explain the difference."
            }
        )
    with transaction.atomic():
        BankDeposit.objects.select_for_update().get(pk=deposit.pk)
        if DepositVerification.objects.filter(deposit=deposit).exists():
            raise ValidationError(
                {"deposit": f"{rules.DEPOSIT_VERIFICATION.at(site)}: this deposit is already verified."}
            )
        verification = DepositVerification.objects.create(
            deposit=deposit,
            statement_date=statement_date,
            statement_amount_cents=statement_amount_cents,
            difference_cents=difference,
            note=note,
            verified_at=timezone.now(),
            verified_by=employee,
            initials=employee.initials,
        )
        record_audit(
            acting_user, "deposit.verified", verification, organization_id=site.organization_id, site_id=site.pk
        )
    return verification
