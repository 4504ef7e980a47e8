"""Bank deposits of a day of the books, their corrections and their verification (ND 99-01.3-03-10)."""

from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from cardroom.models import Site
from core import acts, closing, limits
from core.money import format_money
from core.rules import HOUSE_CONTROL

from .. import queries, rules
from ..calculations import deposit_due_on
from ..models import BankDeposit, DepositCorrection, DepositVerification
from .steps import acting_at_site, checked_amount, record_audit


def record_deposit(
    *,
    acting_user,
    amount_cents: int,
    deposited_on: date,
    gaming_day=None,
    site: Site | None = None,
    gaming_date: date | None = None,
    reference: str = "",
    at: datetime | None = None,
) -> BankDeposit:
    """Record the bank deposit of a day of the books (`site` and `gaming_date`, or the `gaming_day`
    opened on it), once its books are closed: a gaming day's, or a fees or session day's where no
    gaming day was opened (its books close all the same). One a day. It is due by the third
    banking day after the gaming date (ND 99-01.3-03-10; a house control where the pack states
    none); a later deposit is recorded and shown as late."""
    site, gaming_date, gaming_day, field = _day_of_deposit(gaming_day, site, gaming_date)
    employee = acting_at_site(acting_user, site, rules.CAGE_CLERKS, "record a bank deposit")
    # The amount's form and sign are the house's control; 03-10 (`rules.DEPOSIT`) is the deadline.
    amount_cents = checked_amount(amount_cents, "amount_cents", HOUSE_CONTROL, allow_zero=True)
    _check_deposited_on(site, gaming_date, deposited_on)
    _check_books_closed(site, gaming_date, gaming_day, field)
    with transaction.atomic():
        Site.objects.select_for_update().get(pk=site.pk)
        if BankDeposit.objects.filter(site=site, gaming_date=gaming_date).exists():
            raise ValidationError(
                {field: f"{rules.DEPOSIT.at(site)}: the deposit of {gaming_date} is already recorded."}
            )
        deposit = BankDeposit.objects.create(
            site=site,
            gaming_day=gaming_day,
            gaming_date=gaming_date,
            amount_cents=amount_cents,
            deposited_on=deposited_on,
            due_on=deposit_due_on(site, gaming_date),
            reference=reference,
            recorded_at=acts.moment(at, "recorded_at"),
            recorded_by=employee,
            initials=employee.initials,
        )
        record_audit(acting_user, "deposit.recorded", deposit, organization_id=site.organization_id, site_id=site.pk)
    return deposit


def _day_of_deposit(gaming_day, site: Site | None, gaming_date: date | None):
    """(site, gaming date, the gaming day opened on it or None, the field errors name): from a
    gaming day, or from a site and a date (its gaming day found where one was opened)."""
    if gaming_day is not None:
        if (site is not None and site.pk != gaming_day.site_id) or gaming_date not in (None, gaming_day.gaming_date):
            raise ValidationError(
                {
                    "gaming_day": f"{rules.DEPOSIT.at(gaming_day.site)}: the gaming day is of another site or date "
                    "than the site and gaming_date given; give one or the other."
                }
            )
        return gaming_day.site, gaming_day.gaming_date, gaming_day, "gaming_day"
    if not isinstance(site, Site):
        raise ValidationError({"site": f"{HOUSE_CONTROL}: a deposit names its site (or its gaming day)."})
    if not isinstance(gaming_date, date) or isinstance(gaming_date, datetime):
        raise ValidationError({"gaming_date": f"{rules.DEPOSIT.at(site)}: a deposit names the date of its books."})
    return site, gaming_date, queries.gaming_day_on(site, gaming_date), "gaming_date"


def _check_deposited_on(site: Site, gaming_date: date, deposited_on) -> None:
    if not isinstance(deposited_on, date) or deposited_on < gaming_date:
        raise ValidationError(
            {"deposited_on": f"{rules.DEPOSIT.at(site)}: a deposit is made on or after its gaming date."}
        )
    if deposited_on > site.today():  # the site's date, not the server's (an API request, a task)
        raise ValidationError({"deposited_on": f"{rules.DEPOSIT.at(site)}: a deposit cannot be dated in the future."})


def _check_books_closed(site: Site, gaming_date: date, gaming_day, field: str) -> None:
    """A deposit is of a day of the books (a gaming day opened, or fees, sessions, tournament play
    or an adjustment recorded on it) whose books are closed."""
    own_books = gaming_day is not None or queries.books_day_closed(site, gaming_date)
    if not own_books and not queries.is_books_day(site, gaming_date):
        raise ValidationError(
            {
                field: f"{rules.DEPOSIT.at(site)}: nothing of the books of {site} is recorded on {gaming_date} "
                "(no gaming day, fee, session, tournament or adjustment): there is no day's cash to deposit."
            }
        )
    _refuse_nothing_collected(site, gaming_date, gaming_day, field)
    if not queries.books_closed(site, gaming_date):
        raise ValidationError(
            {
                field: f"{rules.DEPOSIT_AFTER_CLOSE}: the books of {gaming_date} at {site} are not closed; "
                "close the day's books (daily page) before recording its deposit."
            }
        )


def _refuse_nothing_collected(site: Site, gaming_date: date, gaming_day, field: str) -> None:
    """A day of the books closed with no gaming day that took no cash (its only records are adjusting
    entries, or its fees, sessions or tournament fees were all voided) takes no deposit: the deposits
    page does not list it (`queries.deposit_days`), the daily page and report say none is due
    (`core.closing.collecting_days`), and the deposit is refused, whether asked by the page or the API."""
    if gaming_day is not None or not queries.books_day_closed(site, gaming_date):
        return
    if (site.pk, gaming_date) in closing.collecting_days([site.pk], gaming_date, gaming_date):
        return
    raise ValidationError(
        {
            field: f"{rules.DEPOSIT.at(site)}: nothing was collected at {site} on {gaming_date} (its only records "
            "are adjusting entries, or its fees, sessions or tournament fees were all voided): no bank deposit is "
            "due for it."
        }
    )


def correct_deposit(
    *,
    acting_user,
    deposit: BankDeposit,
    reason: str,
    amount_cents: int | None = None,
    deposited_on: date | None = None,
    reference: str | None = None,
) -> DepositCorrection:
    """Correct a recorded deposit by a new row pointing back at it (the deposit stays as recorded):
    the amount, the date deposited and the slip reference as they should have read (each left out
    stays as it stands), with a reason. The latest correction stands: the deposits page, the daily
    page and report, the late-deposit check and the verification read it. Scoped as recording a
    deposit is (`rules.CAGE_CLERKS` at its site). A verified deposit is not corrected (house control:
    its verification recorded the statement against it, a difference with its explanation). The
    deposit is no figure of closed books or a filed return (`accounting.books`): a day of a filed
    quarter takes its correction as it took its deposit, and its return still reads as filed."""
    site = deposit.site
    employee = acting_at_site(acting_user, site, rules.CAGE_CLERKS, "correct a bank deposit")
    with transaction.atomic():
        deposit = queries.with_standing(BankDeposit.objects.select_for_update().filter(pk=deposit.pk)).get()
        figures = _corrected_figures(deposit, amount_cents, deposited_on, reference, reason)
        _refuse_verified(deposit)
        correction = DepositCorrection.objects.create(
            deposit=deposit,
            **figures,
            reason=reason.strip(),
            recorded_at=timezone.now(),
            recorded_by=employee,
            initials=employee.initials,
        )
        record_audit(
            acting_user, "deposit.corrected", correction, organization_id=site.organization_id, site_id=site.pk
        )
    return correction


def _corrected_figures(deposit: BankDeposit, amount_cents, deposited_on, reference, reason) -> dict:
    """The figures the correction gives, each checked as a deposit's is, the rest as they stand; a
    correction changes at least one of them and states its reason."""
    site = deposit.site
    if amount_cents is not None:
        amount_cents = checked_amount(amount_cents, "amount_cents", HOUSE_CONTROL, allow_zero=True)
    if deposited_on is not None:
        _check_deposited_on(site, deposit.gaming_date, deposited_on)
    if reference is not None and (not isinstance(reference, str) or len(reference) > REFERENCE_LENGTH):
        raise ValidationError(
            {
                "reference": f"{HOUSE_CONTROL}: a deposit slip reference is text of at most {REFERENCE_LENGTH} characters."
            }
        )
    if not isinstance(reason, str) or not reason.strip():
        raise ValidationError(
            {"reason": f"{HOUSE_CONTROL}: a correction states its reason; say why the deposit is corrected."}
        )
    if len(reason) > limits.MAX_TEXT_LENGTH:
        raise ValidationError({"reason": limits.text_message("The reason")})
    standing = (deposit.standing_amount_cents, deposit.standing_deposited_on, deposit.standing_reference)
    figures = {
        "amount_cents": standing[0] if amount_cents is None else amount_cents,
        "deposited_on": standing[1] if deposited_on is None else deposited_on,
        "reference": standing[2] if reference is None else reference.strip(),
    }
    if tuple(figures.values()) == standing:
        raise ValidationError(
            {
                "amount_cents": f"{HOUSE_CONTROL}: the correction changes nothing: the deposit of {deposit.gaming_date} "
                f"stands at {queries.deposit_words(*standing)}; give the amount, the date deposited or the reference "
                "as they should read."
            }
        )
    return figures


def _refuse_verified(deposit: BankDeposit) -> None:
    verification = DepositVerification.objects.filter(deposit=deposit).first()
    if verification is None:
        return
    raise ValidationError(
        {
            "deposit": f"{HOUSE_CONTROL}: the deposit of {deposit.gaming_date} is verified against the "
            f"bank statement of {verification.statement_date}, so it is not corrected; the verification records "
            "any difference with its explanation."
        }
    )


REFERENCE_LENGTH = BankDeposit._meta.get_field("reference").max_length


def verify_deposit(
    *, acting_user, deposit: BankDeposit, statement_date: date, statement_amount_cents: int, note: str = ""
) -> DepositVerification:
    """Check a deposit against the bank statement (ND 99-01.3-08-16(5)), once, by someone other
    than who recorded it or corrected it. A difference is recorded with its explanation. The deposit is
    checked as it stands: its latest correction's amount and date deposited, else as recorded."""
    site = deposit.site
    employee = acting_at_site(acting_user, site, rules.DEPOSIT_VERIFIERS, "verify a bank deposit")
    if employee.pk == deposit.recorded_by_id:
        raise ValidationError(
            {"deposit": f"{rules.DEPOSIT_SEGREGATION}: someone other than who recorded the deposit verifies it."}
        )
    if DepositCorrection.objects.filter(deposit=deposit, recorded_by=employee).exists():
        raise ValidationError(
            {"deposit": f"{rules.DEPOSIT_SEGREGATION}: someone other than who corrected the deposit verifies it."}
        )
    statement_amount_cents = checked_amount(
        statement_amount_cents, "statement_amount_cents", rules.DEPOSIT_VERIFICATION.at(site), allow_zero=True
    )
    with transaction.atomic():
        # The deposit as it stands, read under its lock: its latest correction's (`correct_deposit`).
        standing = queries.with_standing(BankDeposit.objects.select_for_update().filter(pk=deposit.pk)).get()
        difference = _statement_difference(standing, statement_date, statement_amount_cents, note)
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


def _statement_difference(deposit: BankDeposit, statement_date, statement_amount_cents: int, note: str) -> int:
    """The statement's amount less the deposit as it stands (`with_standing`), explained where not 0."""
    site = deposit.site
    if not isinstance(statement_date, date) or statement_date < deposit.standing_deposited_on:
        raise ValidationError(
            {
                "statement_date": f"{rules.DEPOSIT_VERIFICATION.at(site)}: the statement shows the deposit on or "
                f"after {deposit.standing_deposited_on}."
            }
        )
    difference = statement_amount_cents - deposit.standing_amount_cents
    if difference and not note.strip():
        raise ValidationError(
            {
                "note": f"{rules.DEPOSIT_VERIFICATION.at(site)}: the statement differs from the deposit by "
                f"{format_money(difference, signed=True)}; explain the difference."
            }
        )
    return difference
