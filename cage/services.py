"""Every write at the cashier's cage: permission-checked, validated, audited, in one transaction.

The API, the browser pages and the demo loader call these; none of them validate on their own.
A refusal is a ValidationError naming the field and citing its rule, or a PermissionDenied.
"""

from datetime import date, datetime

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from accounting.calculations import business_date
from cardroom import closing
from cardroom.access import Access, access_for, refusal, require_role
from cardroom.audit import record_event, snapshot
from cardroom.models import ChipDenomination, Employee, Organization, Site
from cardroom.money import format_money
from cardroom.rules import HOUSE_CONTROL

from . import queries, rules
from .calculations import deposit_due_on, iou_outstanding_cents, lines_total_cents
from .models import (
    BankCount,
    BankCountLine,
    BankDeposit,
    ChipInventoryCount,
    ChipInventoryCountLine,
    ChipMovement,
    ChipMovementLine,
    ChipRedemption,
    ChipRedemptionLine,
    DepositVerification,
    Fund,
    IdealBank,
    Iou,
    IouRepayment,
    Location,
    TipDeclaration,
    TipDeclarationLine,
    TipPolicy,
    TipRedemption,
)

# --- Shared steps ------------------------------------------------------------------------


def _moment(at: datetime | None, field: str = "at") -> datetime:
    """The time of an action: now, or an earlier time written on paper; never the future."""
    now = timezone.now()
    if at is None:
        return now
    if timezone.is_naive(at):
        raise ValidationError({field: "Give the time with its time zone."})
    if at > now:
        raise ValidationError({field: "A record cannot be dated in the future."})
    return at


def _employee(access: Access) -> Employee:
    return access.require_employee()


def _at_site(acting_user, site: Site, roles, action: str, rule: str = HOUSE_CONTROL) -> Employee:
    return _employee(require_role(acting_user, site, *roles, action=action, rule=rule))


def _in_organization(acting_user, organization: Organization, roles, action: str) -> Employee:
    access = access_for(acting_user)
    if access.organization_id != organization.pk:
        raise PermissionDenied(f"{HOUSE_CONTROL}: only the organization's own employees may {action}.")
    if not access.has_role(None, *roles):
        raise PermissionDenied(refusal(HOUSE_CONTROL, roles, action))
    return _employee(access)


def _audit(acting_user, action: str, obj, *, organization_id: int, site_id: int | None, after=None) -> None:
    record_event(
        actor=acting_user,
        action=action,
        obj=obj,
        organization_id=organization_id,
        site_id=site_id,
        after=after if after is not None else snapshot(obj),
    )


def _refuse_closed_books(site: Site, gaming_date: date, what: str, field: str = "gaming_date") -> None:
    """Call under the site's row lock (close_books takes it too): a cage record dated on a day
    whose books are closed would change the closed figures (cardroom.closing)."""
    refusal = closing.closed_books_refusal(site.pk, gaming_date, what)
    if refusal is not None:
        raise ValidationError({field: refusal})


def _site_today(site: Site) -> date:
    return business_date(timezone.now(), site.time_zone, site.business_day_start_hour)


def _gaming_date(site: Site, value, field: str = "gaming_date") -> date:
    if not isinstance(value, date) or isinstance(value, datetime):
        raise ValidationError({field: "Give the gaming date as a date (YYYY-MM-DD)."})
    if value > _site_today(site):
        raise ValidationError({field: f"{rules.BUSINESS_DAY}: the gaming day {value} has not begun yet at {site}."})
    return value


def _amount(value, field: str, citation: str, *, allow_zero: bool = False) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationError({field: f"{citation}: give the amount as a whole number of cents."})
    if value < 0 or (value == 0 and not allow_zero):
        raise ValidationError(
            {field: f"{citation}: the amount must be {'zero or more' if allow_zero else 'more than zero'}."}
        )
    return value


def _quantity(raw, label: str, field: str, citation: str) -> int:
    """A whole, non-negative number of chips or notes; a string of digits is accepted."""
    if isinstance(raw, str) and raw.strip().lstrip("-").isdigit():
        raw = int(raw.strip())
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise ValidationError({field: f"{citation}: the quantity of {label} must be a whole number (got {raw!r})."})
    if raw < 0:
        raise ValidationError({field: f"{citation}: the quantity of {label} cannot be negative (got {raw})."})
    if raw > rules.MAX_QUANTITY_PER_LINE:
        raise ValidationError({field: f"{citation}: {raw} of {label} is more than a bank holds."})
    return raw


def _items(raw, field: str, citation: str) -> list[tuple[object, object]]:
    """[(value, quantity)] from {value_cents: quantity} or [{"value_cents": v, "quantity": q}, ...]."""
    if raw is None:
        return []
    if isinstance(raw, dict):
        return list(raw.items())
    if not isinstance(raw, list | tuple):
        raise ValidationError({field: f"{citation}: give a list of {{'value_cents': ..., 'quantity': ...}} lines."})
    items = []
    for item in raw:
        if not isinstance(item, dict) or "quantity" not in item:
            raise ValidationError({field: f"{citation}: each line is {{'value_cents': ..., 'quantity': ...}}."})
        items.append((item.get("value_cents", item.get("denomination")), item["quantity"]))
    return items


def _value_key(raw):
    if isinstance(raw, ChipDenomination):
        return raw.value_cents
    if isinstance(raw, str) and raw.strip().isdigit():
        return int(raw.strip())
    return raw if isinstance(raw, int) and not isinstance(raw, bool) else None


def parse_chip_lines(raw, organization_id: int, *, field: str = "chips", citation: str) -> dict[ChipDenomination, int]:
    """{chip: quantity} for the organization's active chips, by value in cents; zero lines
    dropped. An unknown value, a negative or fractional quantity, or a value twice is refused."""
    chips = {c.value_cents: c for c in ChipDenomination.objects.filter(organization_id=organization_id, active=True)}
    parsed: dict[ChipDenomination, int] = {}
    for value, quantity in _items(raw, field, citation):
        chip = chips.get(_value_key(value))
        if chip is None:
            raise ValidationError({field: f"{rules.CHIP_VALUES}: {value!r} is not a chip value of the organization."})
        if chip in parsed:
            raise ValidationError({field: f"{citation}: {format_money(chip.value_cents)} chips are listed twice."})
        parsed[chip] = _quantity(quantity, f"{format_money(chip.value_cents)} chips", field, citation)
    return {chip: q for chip, q in parsed.items() if q}


def parse_cash_lines(raw, *, field: str = "cash", citation: str) -> dict[int, int]:
    """{value_cents: quantity} of currency and coin (rules.CASH_VALUES_CENTS); zero lines dropped."""
    parsed: dict[int, int] = {}
    for value, quantity in _items(raw, field, citation):
        key = _value_key(value)
        if key not in rules.CASH_VALUES_CENTS:
            raise ValidationError({field: f"{citation}: {value!r} is not a denomination of US currency or coin."})
        if key in parsed:
            raise ValidationError({field: f"{citation}: {format_money(key)} is listed twice."})
        parsed[key] = _quantity(quantity, f"{format_money(key)} in cash", field, citation)
    return {value: q for value, q in parsed.items() if q}


def _chip_total(chips: dict[ChipDenomination, int]) -> int:
    return lines_total_cents((chip.value_cents, quantity) for chip, quantity in chips.items())


def _require_chips(chips: dict, field: str, citation: str) -> None:
    if not chips:
        raise ValidationError({field: f"{citation}: give at least one denomination and its quantity."})


# --- Bank: ideal amount and counts ------------------------------------------------------------


def set_ideal_bank(*, acting_user, site: Site, amount_cents: int, effective_on: date) -> IdealBank:
    """Set the ideal (imprest) amount of a site's bank from `effective_on` (ND 99-01.3-03-09(5))."""
    employee = _at_site(acting_user, site, rules.POLICY_SETTERS, "set the ideal bank amount")
    amount_cents = _amount(amount_cents, "amount_cents", rules.IDEAL_BANK)
    with transaction.atomic():
        ideal = IdealBank.objects.create(
            site=site, amount_cents=amount_cents, effective_on=effective_on, set_at=timezone.now(), set_by=employee
        )
        _audit(acting_user, "ideal_bank.set", ideal, organization_id=site.organization_id, site_id=site.pk)
    return ideal


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
    by a new count that points to the one it replaces, with a reason."""
    employee = _at_site(acting_user, site, rules.CAGE_CLERKS, "count the bank")
    if kind not in BankCount.Kind.values:
        raise ValidationError({"kind": f"{rules.BANK_RECORDS}: a bank count is a starting or an ending count."})
    gaming_date = _gaming_date(site, gaming_date)
    cash_lines = parse_cash_lines(cash, citation=rules.BANK_RECORDS)
    chip_lines = parse_chip_lines(chips, site.organization_id, citation=rules.BANK_RECORDS)
    at = _moment(at, "counted_at")
    with transaction.atomic():
        Site.objects.select_for_update().get(pk=site.pk)
        _refuse_closed_books(site, gaming_date, "the bank count")
        _check_count_slot(site, gaming_date, kind, corrects, reason)
        count = BankCount.objects.create(
            site=site,
            gaming_date=gaming_date,
            kind=kind,
            counted_at=at,
            counted_by=employee,
            initials=employee.initials,
            cash_cents=lines_total_cents(cash_lines.items()),
            chips_cents=_chip_total(chip_lines),
            corrects=corrects,
            reason=reason,
        )
        BankCountLine.objects.bulk_create(
            [BankCountLine(count=count, value_cents=v, quantity=q) for v, q in cash_lines.items()]
            + [BankCountLine(count=count, chip=c, value_cents=c.value_cents, quantity=q) for c, q in chip_lines.items()]
        )
        after = {**snapshot(count), "cash": cash_lines, "chips": {c.value_cents: q for c, q in chip_lines.items()}}
        _audit(
            acting_user,
            "bank_count.recorded",
            count,
            organization_id=site.organization_id,
            site_id=site.pk,
            after=after,
        )
    return count


def _check_count_slot(site: Site, gaming_date: date, kind: str, corrects: BankCount | None, reason: str) -> None:
    label = BankCount.Kind(kind).label.lower()
    if corrects is None:
        if BankCount.objects.filter(site=site, gaming_date=gaming_date, kind=kind).exists():
            raise ValidationError(
                {
                    "kind": f"{rules.BANK_RECORDS}: the {label} count of {gaming_date} is already recorded; "
                    "record a correction that points to it instead."
                }
            )
        return
    if (corrects.site_id, corrects.gaming_date, corrects.kind) != (site.pk, gaming_date, kind):
        raise ValidationError({"corrects": "A correction replaces a count of the same site, gaming date and kind."})
    if BankCount.objects.filter(corrects=corrects).exists():
        raise ValidationError({"corrects": "That count was already corrected; correct the latest count."})
    if not reason.strip():
        raise ValidationError({"reason": "Say why the count is corrected."})


# --- IOUs ------------------------------------------------------------------------------------------


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
    employee = _at_site(acting_user, site, rules.IOU_SIGNERS, "lend money on an IOU")
    for field, fund in (("source", source), ("destination", destination)):
        if fund not in Fund.values:
            raise ValidationError(
                {field: f"{rules.IOU_RULE}: {fund!r} is not a fund (one of {', '.join(Fund.values)})."}
            )
    if source == destination:
        raise ValidationError({"destination": f"{rules.IOU_RULE}: an IOU moves money between two different funds."})
    amount_cents = _amount(amount_cents, "amount_cents", rules.IOU_RULE)
    gaming_date = _gaming_date(site, gaming_date)
    at = _moment(at, "lent_at")
    with transaction.atomic():
        Site.objects.select_for_update().get(pk=site.pk)
        _refuse_closed_books(site, gaming_date, "the IOUs")
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
        _audit(acting_user, "iou.lent", iou, organization_id=site.organization_id, site_id=site.pk)
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
    employee = _at_site(acting_user, site, rules.IOU_SIGNERS, "take an IOU repayment")
    at = _moment(at, "repaid_at")
    gaming_date = _gaming_date(site, gaming_date or business_date(at, site.time_zone, site.business_day_start_hour))
    if gaming_date < iou.gaming_date:
        raise ValidationError({"gaming_date": f"{rules.IOU_RULE}: an IOU is repaid on or after the day it was lent."})
    with transaction.atomic():
        Site.objects.select_for_update().get(pk=site.pk)
        _refuse_closed_books(site, gaming_date, "the IOUs")
        Iou.objects.select_for_update().get(pk=iou.pk)
        repaid = IouRepayment.objects.filter(iou=iou).aggregate(total=Sum("amount_cents"))["total"] or 0
        outstanding = iou_outstanding_cents(iou.amount_cents, repaid)
        if outstanding == 0:
            raise ValidationError({"iou": f"{rules.IOU_RULE}: this IOU is already repaid in full."})
        amount_cents = outstanding if amount_cents is None else _amount(amount_cents, "amount_cents", rules.IOU_RULE)
        if amount_cents > outstanding:
            raise ValidationError(
                {
                    "amount_cents": f"{rules.IOU_RULE}: {format_money(amount_cents)} is more than the "
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
        _audit(acting_user, "iou.repaid", repayment, organization_id=site.organization_id, site_id=site.pk)
    return repayment


# --- Chip redemptions --------------------------------------------------------------------------------


def redeem_chips(*, acting_user, site: Site, gaming_date: date, chips, at: datetime | None = None) -> ChipRedemption:
    """Pay a player cash for chips at the value they were sold for, counted by denomination
    (ND 99-01.3-08-06(2)). Cash leaves the bank; the chips join it."""
    employee = _at_site(acting_user, site, rules.CAGE_CLERKS, "redeem chips")
    gaming_date = _gaming_date(site, gaming_date)
    lines = parse_chip_lines(chips, site.organization_id, citation=rules.REDEMPTION)
    _require_chips(lines, "chips", rules.REDEMPTION)
    at = _moment(at, "redeemed_at")
    with transaction.atomic():
        Site.objects.select_for_update().get(pk=site.pk)
        _refuse_closed_books(site, gaming_date, "the cash bank")
        redemption = ChipRedemption.objects.create(
            site=site,
            gaming_date=gaming_date,
            redeemed_at=at,
            cashier=employee,
            initials=employee.initials,
            total_cents=_chip_total(lines),
        )
        ChipRedemptionLine.objects.bulk_create(
            [
                ChipRedemptionLine(redemption=redemption, chip=c, value_cents=c.value_cents, quantity=q)
                for c, q in lines.items()
            ]
        )
        _audit(acting_user, "chips.redeemed", redemption, organization_id=site.organization_id, site_id=site.pk)
    return redemption


# --- Tips -----------------------------------------------------------------------------------------------


def record_tip_policy(
    *, acting_user, organization: Organization, pooled: bool, description: str, effective_on: date
) -> TipPolicy:
    """Record the organization's tip-pooling policy from a date on (ND 99-01.3-08-06(2) allows pooling)."""
    employee = _in_organization(acting_user, organization, rules.POLICY_SETTERS, "set the tip-pooling policy")
    if not description.strip():
        raise ValidationError({"description": f"{rules.TIPS}: describe how tips are pooled or kept."})
    with transaction.atomic():
        policy = TipPolicy.objects.create(
            organization=organization,
            pooled=bool(pooled),
            description=description.strip(),
            effective_on=effective_on,
            set_at=timezone.now(),
            set_by=employee,
        )
        _audit(acting_user, "tip_policy.recorded", policy, organization_id=organization.pk, site_id=None)
    return policy


def declare_tips(*, acting_user, site: Site, gaming_date: date, chips, at: datetime | None = None) -> TipDeclaration:
    """A dealer declares, in their own name, the tip chips they hold at the end of a shift
    (an empty list: none). Declared tips stay unredeemed until the cashier pays them out;
    the dealer may not leave the site before (ND 99-01.3-08-06(3))."""
    dealer = _at_site(acting_user, site, rules.TIP_ROLES, "declare tips", rules.TIP_HOLDERS)
    gaming_date = _gaming_date(site, gaming_date)
    lines = parse_chip_lines(chips, site.organization_id, citation=rules.TIPS)
    at = _moment(at, "declared_at")
    with transaction.atomic():
        declaration = TipDeclaration.objects.create(
            site=site,
            gaming_date=gaming_date,
            dealer=dealer,
            initials=dealer.initials,
            declared_at=at,
            total_cents=_chip_total(lines),
        )
        TipDeclarationLine.objects.bulk_create(
            [
                TipDeclarationLine(declaration=declaration, chip=c, value_cents=c.value_cents, quantity=q)
                for c, q in lines.items()
            ]
        )
        _audit(acting_user, "tips.declared", declaration, organization_id=site.organization_id, site_id=site.pk)
    return declaration


def redeem_tips(
    *, acting_user, declaration: TipDeclaration, dealer: Employee, at: datetime | None = None
) -> TipRedemption:
    """The cashier pays the dealer present at the window, through cash on hand, for the very
    chips the dealer declared (ND 99-01.3-08-06(2)). `dealer` is the person at the window: it
    must be the dealer who declared the tips; a cashier never pays their own tips."""
    site = declaration.site
    cashier = _at_site(acting_user, site, rules.TIP_REDEEMERS, "redeem a dealer's tips")
    if dealer.pk != declaration.dealer_id:
        raise ValidationError(
            {
                "dealer": f"{rules.TIPS}: a dealer redeems only their own tips; these were declared by "
                f"{declaration.dealer}, not {dealer}."
            }
        )
    if cashier.pk == dealer.pk:
        raise ValidationError({"dealer": f"{rules.TIPS}: another cashier redeems your own tips."})
    if declaration.total_cents == 0:
        raise ValidationError({"declaration": f"{rules.TIPS}: this declaration holds no tips to redeem."})
    at = _moment(at, "redeemed_at")
    if at < declaration.declared_at:
        raise ValidationError({"redeemed_at": f"{rules.TIPS}: tips are redeemed after they are declared."})
    with transaction.atomic():
        TipDeclaration.objects.select_for_update().get(pk=declaration.pk)
        if TipRedemption.objects.filter(declaration=declaration).exists():
            raise ValidationError({"declaration": f"{rules.TIPS}: these tips were already redeemed."})
        redemption = TipRedemption.objects.create(
            declaration=declaration,
            redeemed_at=at,
            cashier=cashier,
            initials=cashier.initials,
            amount_cents=declaration.total_cents,
        )
        _audit(acting_user, "tips.redeemed", redemption, organization_id=site.organization_id, site_id=site.pk)
    return redemption


# --- Bank deposits --------------------------------------------------------------------------------------


def record_deposit(
    *, acting_user, gaming_day, amount_cents: int, deposited_on: date, reference: str = "", at: datetime | None = None
) -> BankDeposit:
    """Record the bank deposit of a gaming day, once its books are closed. It is due by the
    third banking day after the gaming date (ND 99-01.3-03-10); a later deposit is recorded
    and shown as late."""
    site = gaming_day.site
    employee = _at_site(acting_user, site, rules.CAGE_CLERKS, "record a bank deposit")
    amount_cents = _amount(amount_cents, "amount_cents", rules.DEPOSIT, allow_zero=True)
    if not isinstance(deposited_on, date) or deposited_on < gaming_day.gaming_date:
        raise ValidationError({"deposited_on": f"{rules.DEPOSIT}: a deposit is made on or after its gaming date."})
    if deposited_on > timezone.localdate():
        raise ValidationError({"deposited_on": f"{rules.DEPOSIT}: a deposit cannot be dated in the future."})
    if not queries.books_closed(site, gaming_day.gaming_date):
        raise ValidationError(
            {
                "gaming_day": f"{rules.DEPOSIT}: the books of {gaming_day.gaming_date} at {site} are not closed; "
                "close the gaming day before recording its deposit."
            }
        )
    with transaction.atomic():
        Site.objects.select_for_update().get(pk=site.pk)
        if BankDeposit.objects.filter(gaming_day=gaming_day).exists():
            raise ValidationError(
                {"gaming_day": f"{rules.DEPOSIT}: the deposit of {gaming_day.gaming_date} is already recorded."}
            )
        deposit = BankDeposit.objects.create(
            site=site,
            gaming_day=gaming_day,
            gaming_date=gaming_day.gaming_date,
            amount_cents=amount_cents,
            deposited_on=deposited_on,
            due_on=deposit_due_on(gaming_day.gaming_date),
            reference=reference,
            recorded_at=_moment(at, "recorded_at"),
            recorded_by=employee,
            initials=employee.initials,
        )
        _audit(acting_user, "deposit.recorded", deposit, organization_id=site.organization_id, site_id=site.pk)
    return deposit


def verify_deposit(
    *, acting_user, deposit: BankDeposit, statement_date: date, statement_amount_cents: int, note: str = ""
) -> DepositVerification:
    """Check a deposit against the bank statement (ND 99-01.3-08-16(5)), once, by someone other
    than who recorded it. A difference is recorded with its explanation."""
    site = deposit.site
    employee = _at_site(acting_user, site, rules.DEPOSIT_VERIFIERS, "verify a bank deposit")
    if employee.pk == deposit.recorded_by_id:
        raise ValidationError(
            {"deposit": f"{rules.DEPOSIT_VERIFICATION}: someone other than who recorded the deposit verifies it."}
        )
    statement_amount_cents = _amount(
        statement_amount_cents, "statement_amount_cents", rules.DEPOSIT_VERIFICATION, allow_zero=True
    )
    if not isinstance(statement_date, date) or statement_date < deposit.deposited_on:
        raise ValidationError(
            {
                "statement_date": f"{rules.DEPOSIT_VERIFICATION}: the statement shows the deposit on or after {deposit.deposited_on}."
            }
        )
    difference = statement_amount_cents - deposit.amount_cents
    if difference and not note.strip():
        raise ValidationError(
            {
                "note": f"{rules.DEPOSIT_VERIFICATION}: the statement differs from the deposit by "
                f"{format_money(difference, signed=True)}; explain the difference."
            }
        )
    with transaction.atomic():
        BankDeposit.objects.select_for_update().get(pk=deposit.pk)
        if DepositVerification.objects.filter(deposit=deposit).exists():
            raise ValidationError({"deposit": f"{rules.DEPOSIT_VERIFICATION}: this deposit is already verified."})
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
        _audit(acting_user, "deposit.verified", verification, organization_id=site.organization_id, site_id=site.pk)
    return verification


# --- Chip inventory (SFN 17930) ------------------------------------------------------------------------


def receive_chips(
    *, acting_user, organization: Organization, chips, received_on: date, reference: str, note: str = ""
) -> ChipMovement:
    """Add chips received from the manufacturer to the inventory book (SFN 17930)."""
    return _move_chips(acting_user, organization, ChipMovement.Kind.RECEIPT, chips, received_on, reference, note)


def destroy_chips(
    *, acting_user, organization: Organization, chips, destroyed_on: date, reference: str, note: str = ""
) -> ChipMovement:
    """Take destroyed chips off the inventory book (SFN 17930); never more than the book owns."""
    return _move_chips(acting_user, organization, ChipMovement.Kind.DESTRUCTION, chips, destroyed_on, reference, note)


def _move_chips(acting_user, organization, kind, chips, occurred_on, reference, note) -> ChipMovement:
    verb = "receive chips" if kind == ChipMovement.Kind.RECEIPT else "destroy chips"
    employee = _in_organization(acting_user, organization, rules.INVENTORY_KEEPERS, verb)
    lines = parse_chip_lines(chips, organization.pk, citation=rules.CHIP_INVENTORY)
    _require_chips(lines, "chips", rules.CHIP_INVENTORY)
    if not isinstance(occurred_on, date) or occurred_on > timezone.localdate():
        raise ValidationError({"occurred_on": f"{rules.CHIP_INVENTORY}: give the date it happened, not a future one."})
    if not reference.strip():
        raise ValidationError(
            {"reference": f"{rules.CHIP_INVENTORY}: give the invoice, or the witness of the destruction."}
        )
    with transaction.atomic():
        Organization.objects.select_for_update().get(pk=organization.pk)
        if kind == ChipMovement.Kind.DESTRUCTION:
            _check_book_holds(organization, lines, occurred_on)
        movement = ChipMovement.objects.create(
            organization=organization,
            kind=kind,
            occurred_on=occurred_on,
            reference=reference.strip(),
            note=note,
            recorded_at=timezone.now(),
            recorded_by=employee,
            initials=employee.initials,
            total_cents=_chip_total(lines),
        )
        ChipMovementLine.objects.bulk_create(
            [
                ChipMovementLine(movement=movement, chip=c, value_cents=c.value_cents, quantity=q)
                for c, q in lines.items()
            ]
        )
        _audit(
            acting_user,
            f"chips.{kind}",
            movement,
            organization_id=organization.pk,
            site_id=None,
            after={**snapshot(movement), "chips": {c.value_cents: q for c, q in lines.items()}},
        )
    return movement


def _check_book_holds(organization: Organization, lines: dict[ChipDenomination, int], on_date: date) -> None:
    book = queries.chip_book(organization, on_date)
    for chip, quantity in lines.items():
        if quantity > book.get(chip.value_cents, 0):
            raise ValidationError(
                {
                    "chips": f"{rules.CHIP_INVENTORY}: the book owns {book.get(chip.value_cents, 0)} "
                    f"{format_money(chip.value_cents)} chips; {quantity} cannot be destroyed."
                }
            )


def record_chip_inventory_count(
    *, acting_user, organization: Organization, counted_on: date, locations, note: str = ""
) -> ChipInventoryCount:
    """A physical count of the organization's chips where they are: each site's chip bank and
    table trays, and storage (SFN 17930). `locations`: [{"location": "bank"|"trays"|"storage",
    "site": <Site or id; required for bank and trays>, "chips": [...]}, ...]."""
    employee = _in_organization(acting_user, organization, rules.INVENTORY_KEEPERS, "record a chip inventory count")
    if not isinstance(counted_on, date) or counted_on > timezone.localdate():
        raise ValidationError({"counted_on": f"{rules.CHIP_INVENTORY}: give the date of the count, not a future one."})
    parsed = _parse_locations(organization, locations)
    with transaction.atomic():
        count = ChipInventoryCount.objects.create(
            organization=organization,
            counted_on=counted_on,
            counted_at=timezone.now(),
            counted_by=employee,
            initials=employee.initials,
            note=note,
            total_cents=sum(_chip_total(chips) for _, _, chips in parsed),
        )
        ChipInventoryCountLine.objects.bulk_create(
            [
                ChipInventoryCountLine(
                    count=count, location=loc, site=site, chip=c, value_cents=c.value_cents, quantity=q
                )
                for loc, site, chips in parsed
                for c, q in chips.items()
            ]
        )
        _audit(acting_user, "chip_inventory.counted", count, organization_id=organization.pk, site_id=None)
    return count


def _parse_locations(organization: Organization, locations) -> list[tuple[str, Site | None, dict]]:
    if not isinstance(locations, list | tuple) or not locations:
        raise ValidationError({"locations": f"{rules.CHIP_INVENTORY}: give the chips counted at each location."})
    sites = {s.pk: s for s in Site.objects.filter(organization=organization)}
    parsed, seen = [], set()
    for item in locations:
        if not isinstance(item, dict) or item.get("location") not in Location.values:
            raise ValidationError(
                {"locations": f"{rules.CHIP_INVENTORY}: each location is one of {', '.join(Location.values)}."}
            )
        raw_site = item.get("site")
        site = (
            sites.get(raw_site.pk if isinstance(raw_site, Site) else raw_site) if raw_site not in (None, "") else None
        )
        if raw_site not in (None, "") and site is None:
            raise ValidationError(
                {"locations": f"{rules.CHIP_INVENTORY}: site {raw_site!r} is not a site of the organization."}
            )
        if site is None and item["location"] != Location.STORAGE:
            raise ValidationError(
                {
                    "locations": f"{rules.CHIP_INVENTORY}: say which site's {Location(item['location']).label.lower()} were counted."
                }
            )
        key = (item["location"], site.pk if site else None)
        if key in seen:
            raise ValidationError({"locations": f"{rules.CHIP_INVENTORY}: a location is listed twice."})
        seen.add(key)
        parsed.append(
            (
                item["location"],
                site,
                parse_chip_lines(item.get("chips"), organization.pk, field="locations", citation=rules.CHIP_INVENTORY),
            )
        )
    return parsed
