"""Steps the floor's services share (the act itself, its time and actor, is core.acts): the open
gaming day, a time in it or after its last hour, the chips on a count or a slip, a tray count
saved with its lines, the end of a dealer shift claimed once, and the outage cap on a table that
opens or seats a dealer."""

import re
from collections.abc import Mapping
from datetime import UTC, date, datetime

from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import Q

from cardroom.chips import not_a_chip_value, require_twenty_five_chips
from cardroom.models import ChipDenomination, Employee, Role, Site, Table
from cardroom.wager_caps import check_max_wager
from core import acts, figure_days, moments
from core.audit import record_site_event as _audit
from core.audit import snapshot
from core.limits import digits
from core.money import decimal_to_cents, format_money

from .. import queries, rules
from ..calculations import chips_for_amount, chips_total_cents
from ..models import (
    DealerShift,
    GamingDay,
    GamingDayClose,
    Slip,
    SlipKind,
    SlipStep,
    TableInventory,
    TableInventoryLine,
)
from ..seating import refuse_shift_end, refuse_table_shift


def require_in_day(site: Site, day: GamingDay, at: datetime, given: datetime | None, field: str, **checks) -> None:
    """A time written on paper lies in the business hours of the gaming day it is entered in; with
    none given (`at` is then now), now must: a day already over is entered with its paper's time."""
    moments.occurred_at(
        site,
        given,
        field=field,
        rule=rules.RECORD_TIME,
        gaming_date=day.gaming_date,
        now=at if given is None else None,
        **checks,
    )


def moment_to_day_end(site: Site, gaming_date: date, at: datetime | None, field: str, what: str, **checks) -> datetime:
    """The time of an act that may follow its gaming day's last hour (a slip's step, a dealer
    shift's end, a duty sign-out, the day's close, a carry past it): the paper's (naive for the
    site's local time) or now, from the day's start on and not in the future (core.moments.occurred_at
    with `after_day_end`; `checks`: `not_before`...)."""
    return acts.moment(
        at, field, site=site, gaming_date=gaming_date, after_day_end=True, what=what, rule=rules.RECORD_TIME, **checks
    )


def require_table_in_use(table: Table, field: str = "table") -> None:
    if not table.active:
        raise ValidationError({field: f"{rules.TABLE_STATE}: {table} is inactive; chips move only to an active table."})


def fees_only(site: Site) -> bool:
    """Is the house's revenue at `site` its fees (the site's pack's revenue model)?"""
    return not rules.house_chips(site)


def refuse_house_chips_at_fees_site(site: Site, field: str, what: str) -> None:
    """Where the house's revenue is its fees (`fees_only`), chips do not move between a house
    chip bank and a table and a table has no house tray: a fill or credit slip or a tray count
    (`what`) is refused, citing the pack's rule (rules.FEES_ONLY)."""
    if not fees_only(site):
        return
    raise ValidationError(
        {
            field: f"{rules.FEES_ONLY.at(site)}: the house's revenue at {site} is the fees collected at its tables; "
            f"the chips at a table are not the house's, so no {what} is recorded (record the fees instead)."
        }
    )


def require_open_day(site: Site, field: str) -> GamingDay:
    """The site's open gaming day, held open to the end of the caller's transaction (`held_open`)."""
    day = held_open(queries.open_gaming_day(site))
    if day is None:
        raise ValidationError({field: f"{rules.GAMING_DAY_STATE}: no gaming day is open at {site}; open one first."})
    day.site = site  # the day is the site's: what its records' audit rows read (core.audit_rows), not re-read
    return day


def held_open(day: GamingDay | None) -> GamingDay | None:
    """`day`, kept from closing until the caller's transaction ends; None if a close committed
    after it was read as open, so that a record entered in it does not land in closed books
    (rules.GAMING_DAY_STATE). On PostgreSQL a key-share lock of the day's row: the close's row
    lock (services.close_gaming_day) waits for it, it waits for a close in progress, and records
    entered in the day at once do not wait for each other; then the close is read again. SQLite's
    transactions begin IMMEDIATE (config.settings), one writer at a time, so none cross there."""
    if day is None or connection.vendor != "postgresql":
        return day
    acts.key_share(day)
    return None if GamingDayClose.objects.filter(gaming_day_id=day.pk).exists() else day


CHIP_LINE_KEYS = frozenset({"denomination", "quantity"})


# The organization's active chips as a service passes them down: by their value in cents (read
# by `active_chips`, or a slip's context, floor.queries.ChipsByValue).
Chips = Mapping[int, ChipDenomination]


def active_chips(organization_id: int) -> dict[int, ChipDenomination]:
    """The organization's active chips (rules.CHIP_VALUES) by their value in cents, read once per
    service call and passed down (`available`) to the steps that need them."""
    return {c.value_cents: c for c in ChipDenomination.objects.filter(organization_id=organization_id, active=True)}


def parse_chips(chips, site: Site, citation: str, *, available: Chips | None = None) -> dict[ChipDenomination, int]:
    """[{"denomination": <ChipDenomination or its value in cents>, "quantity": n}, ...] ->
    {denomination: quantity}. `denomination` is the chip's value in cents, never its id.
    Quantities are whole positive numbers; the denomination is one of the organization's
    active chips (rules.CHIP_VALUES at the site; `available` when the caller read them); one line
    per denomination; at least one line. `citation`: the record's rule, cited at the site."""
    if not isinstance(chips, list | tuple) or not chips:
        raise ValidationError({"chips": f"{citation}: give at least one denomination and its quantity."})
    by_value = active_chips(site.organization_id) if available is None else available
    parsed: dict[ChipDenomination, int] = {}
    for item in chips:
        denomination, quantity = _chip_item(item, by_value, citation, rules.CHIP_VALUES.at(site))
        if denomination in parsed:
            raise ValidationError({"chips": f"{citation}: {denomination} is listed twice; give one line per value."})
        parsed[denomination] = quantity
    return parsed


def _chip_item(item, by_value, citation, chip_values: str) -> tuple[ChipDenomination, int]:
    if not isinstance(item, dict) or set(item) - CHIP_LINE_KEYS:
        raise ValidationError(
            {"chips": f"{citation}: each line of chips is a denomination and a quantity, and nothing else."}
        )
    raw = item.get("denomination")
    key = raw.value_cents if isinstance(raw, ChipDenomination) else raw
    denomination = None if isinstance(key, bool) or not isinstance(key, int) else by_value.get(key)
    if denomination is None:
        raise ValidationError({"chips": not_a_chip_value(chip_values, raw, by_value)})
    return denomination, _quantity(item.get("quantity"), denomination, citation)


def _quantity(raw, denomination, citation) -> int:
    if isinstance(raw, str) and digits(raw.strip()):
        raw = int(raw.strip())
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise ValidationError({"chips": rules.not_a_chip_count(citation, denomination)})
    if raw <= 0:  # the record's rule: its chips by denomination, each a count of chips there
        raise ValidationError(
            {
                "chips": f"{citation}: chips are recorded by denomination, each with its number of chips, 1 or "
                f"more; the quantity of {denomination} is {raw} (a value with no chips is left out)."
            }
        )
    if raw > rules.MAX_CHIPS_PER_LINE:
        raise ValidationError({"chips": f"{citation}: {raw} chips of {denomination} is more than a tray holds."})
    return raw


AMOUNT_LINE_KEYS = frozenset({"denomination", "amount"})
MAX_AMOUNT_LINES = 50  # house control: a grid has one line per chip value, far fewer than this
# Dollars and cents as typed: "125", "125.50", "$1,250.00" (no exponent, no fraction of a cent).
_DOLLARS = re.compile(r"\$?(\d{1,3}(,\d{3})+|\d{1,12})(\.\d{1,2})?")


def chip_lines(
    chips, amounts, site: Site, citation: str, *, available: Chips | None = None
) -> dict[ChipDenomination, int]:
    """The chips of a count or slip, given either as chip counts (`chips`, see parse_chips)
    or as dollar amounts per denomination (`amounts`, see chips_from_amounts), never both.
    The organization's active chips are read once (or given, `available`)."""
    if amounts is None:
        return parse_chips(chips, site, citation, available=available)
    if chips:
        raise ValidationError({"amounts": f"{citation}: give the chips either as counts or as amounts, not both."})
    if available is None:
        available = active_chips(site.organization_id)
    lines = chips_from_amounts(amounts, site, citation, available=available)
    return parse_chips(lines, site, citation, available=available)


def chips_from_amounts(amounts, site: Site, citation: str, *, available: Chips | None = None) -> list[dict]:
    """[{"denomination": value_cents, "amount": "125.00"}, ...] -> the chips' lines
    [{"denomination": value_cents, "quantity": n}, ...]. An amount is dollars and cents (a
    string, or a whole number of dollars; never a binary fraction) that buys a whole number of
    chips of its denomination: $30 of $25 chips is refused, naming the denomination."""
    if not isinstance(amounts, list | tuple) or not amounts:
        raise ValidationError({"amounts": f"{citation}: give at least one denomination and its amount."})
    if len(amounts) > MAX_AMOUNT_LINES:
        raise ValidationError({"amounts": f"House control: at most {MAX_AMOUNT_LINES} lines of amounts."})
    by_value = active_chips(site.organization_id) if available is None else available
    return [_amount_line(item, by_value, citation, rules.CHIP_VALUES.at(site)) for item in amounts]


def _amount_line(item, by_value, citation, chip_values: str) -> dict:
    if not isinstance(item, dict) or set(item) - AMOUNT_LINE_KEYS:
        raise ValidationError(
            {"amounts": f"{citation}: each line of amounts is a denomination and an amount, and nothing else."}
        )
    raw = item.get("denomination")
    denomination = None if isinstance(raw, bool) or not isinstance(raw, int) else by_value.get(raw)
    if denomination is None:
        raise ValidationError({"amounts": not_a_chip_value(chip_values, raw, by_value)})
    amount_cents = _amount_cents(item.get("amount"), denomination, citation)
    quantity = chips_for_amount(amount_cents, denomination.value_cents)
    if quantity is None:
        raise ValidationError(
            {
                "amounts": f"{citation}: {format_money(amount_cents)} is not a whole number of "
                f"{format_money(denomination.value_cents)} chips; give a multiple of "
                f"{format_money(denomination.value_cents)}."
            }
        )
    if quantity > rules.MAX_CHIPS_PER_LINE:
        raise ValidationError(
            {"amounts": f"{citation}: {format_money(amount_cents)} of {denomination} is more than a tray holds."}
        )
    return {"denomination": denomination.value_cents, "quantity": quantity}


def _amount_cents(raw, denomination, citation) -> int:
    if isinstance(raw, int) and not isinstance(raw, bool):
        raw = str(raw)
    text = raw.strip() if isinstance(raw, str) else ""
    if not _DOLLARS.fullmatch(text):
        raise ValidationError({"amounts": rules.not_an_amount(citation, denomination)})
    cents = decimal_to_cents(text)
    if cents <= 0:
        raise ValidationError({"amounts": f"{citation}: the amount of {denomination} must be more than $0.00."})
    return cents


def line_values(chips: dict[ChipDenomination, int]) -> dict[int, int]:
    return {denomination.value_cents: quantity for denomination, quantity in chips.items()}


def check_outage_cap(table: Table, at: datetime, *, available: Chips | None = None) -> None:
    """ND 99-01.3-08-04(7): past an unrepaired surveillance outage's deadline the table may
    not run with a maximum wager above $2 (the message says why and until when). `available`:
    the organization's active chips, when the service has read them."""
    check_max_wager(table, table.max_wager_cents, at)  # surveillance registers the cap (cardroom.wager_caps)
    # ND 99-01.3-08-03(1): a table opening to $25 wagers needs the organization's $25 chips.
    values = None if available is None else set(available)
    require_twenty_five_chips(table, active_values=values)


def save_count(table, day, kind, counted, employee, at, *, previous, variance=None, reason="", shift=None):
    inventory = TableInventory.objects.create(
        gaming_day=day,
        table=table,
        kind=kind,
        counted_at=at,
        counted_by=employee,
        dealer_shift=shift,
        previous=previous,
        total_cents=chips_total_cents(line_values(counted).items()),
        variance_cents=variance,
        variance_reason=(reason or "").strip(),
    )
    TableInventoryLine.objects.bulk_create(
        TableInventoryLine(inventory=inventory, denomination=d, value_cents=d.value_cents, quantity=q)
        for d, q in counted.items()
    )
    return inventory


def end_shift(
    acting_user, shift: DealerShift, employee: Employee, ended_at: datetime, *, field: str = "ended_at"
) -> None:
    """Claim the end with a conditional update, so two clerks never end one shift twice. Dealing to
    `ended_at` may deal on a shift an app above judged without it (`floor.seating`): refused at
    `field`, the moment that ends the shift; so may a slip the dealer signed meanwhile in a capacity
    that is not dealing (`_signed_while_not_dealing`), and an end before a slip they signed as the
    table's dealer (`_signed_as_the_tables_dealer_after`)."""
    site = shift.table.site
    if refusal := _signed_while_not_dealing(shift.dealer, site, shift.started_at, ended_at):
        raise ValidationError({field: refusal})
    if refusal := _signed_as_the_tables_dealer_after(shift, site, ended_at):
        raise ValidationError({field: refusal})
    refuse_shift_end(shift.dealer, site, shift.started_at, ended_at, field)
    refuse_table_shift(shift.table, shift.dealer, shift.started_at, ended_at, field)
    before = snapshot(shift)
    claimed = DealerShift.objects.filter(pk=shift.pk, ended_at__isnull=True).update(
        ended_at=ended_at, ended_by=employee
    )
    if not claimed:
        raise ValidationError({"ended_at": f"{rules.DEALER_SHIFTS}: the shift of {shift.dealer} has already ended."})
    shift.ended_at, shift.ended_by = ended_at.astimezone(UTC), employee  # what the update wrote: no re-read
    figure_days.day_changed(shift.gaming_day.site_id, shift.gaming_day.gaming_date)  # no save(): tell the books
    _audit(acting_user, "dealer_shift.ended", shift, site=shift.table.site, before=before)


def _signed_while_not_dealing(dealer: Employee, site: Site, started_at: datetime, ended_at: datetime) -> str | None:
    """A slip's signature that its signer was not presently dealing when they gave it (ND
    99-01.3-08-05): a verification (08-05(5)), a credit received acting as cashier (08-05(6)), a
    fill's initials as a dealer acting as cashier (08-05(3)(c)); each judged on the dealer shifts
    recorded when it was signed. A shift entered later from paper that has the signer dealing at
    it contradicts it: why it may not end at `ended_at`, naming the slip, or None."""
    as_cashier = rules.SignedAs.DEALER_AS_CASHIER
    step = (
        SlipStep.objects.filter(slip__site=site, employee=dealer, at__gte=started_at, at__lt=ended_at)
        .filter(Q(kind=SlipStep.Kind.VERIFY) | Q(kind=SlipStep.Kind.RECEIVE, signed_as=as_cashier))
        .select_related("slip")
        .order_by("at", "pk")
        .first()
    )
    initialled = (
        Slip.objects.filter(
            site=site, signed_by=dealer, signed_as=as_cashier, prepared_at__gte=started_at, prepared_at__lt=ended_at
        )
        .order_by("prepared_at", "pk")
        .first()
    )
    found = []
    if step is not None:
        capacity = "" if step.kind == SlipStep.Kind.VERIFY else " acting as cashier"
        verb = SlipStep.Kind(step.kind).label.lower()
        found.append((step.at, step.slip, rules.step_citation(step.kind, site), verb, capacity))
    if initialled is not None:
        found.append(
            (initialled.prepared_at, initialled, rules.SLIP_INITIALS.at(site), "initialled", " acting as cashier")
        )
    if not found:
        return None
    at, slip, rule, verb, capacity = min(found, key=lambda item: item[0])
    when = moments.shown(site, at)
    return (
        f"{rule}: {dealer} {verb} {SlipKind(slip.kind).label.lower()} {slip.number} at {when}{capacity}, which is "
        f"signed only when not presently dealing; their shift from {moments.shown(site, started_at)} to "
        f"{moments.shown(site, ended_at)} would have them dealing then. End it by {when}."
    )


def _signed_as_the_tables_dealer_after(shift: DealerShift, site: Site, ended_at: datetime) -> str | None:
    """A fill received (ND 99-01.3-08-05(6)) or a credit initialled (08-05(3)(c)) by the dealer on
    shift at the table is judged on the shifts recorded when it was signed. Ending the shift before
    such a signature of its dealer at its table (a rotation or relief entered later from paper, at
    an earlier time) would leave the slip signed by someone not on shift there: why it may not end
    at `ended_at`, naming the first such slip no other shift of theirs at the table covers, or None.
    A signature at the very moment of the end stands (a paper's minute)."""
    table, dealer = shift.table, shift.dealer
    received = SlipStep.objects.filter(
        kind=SlipStep.Kind.RECEIVE, slip__kind=SlipKind.FILL, slip__table=table, employee=dealer, at__gt=ended_at
    ).values_list("at", "slip__kind", "slip__number")
    initialled = Slip.objects.filter(
        kind=SlipKind.CREDIT, table=table, signed_by=dealer, prepared_at__gt=ended_at
    ).values_list("prepared_at", "kind", "number")
    signed = sorted([*received, *initialled])
    if not signed:
        return None
    others = [
        (other.started_at, other.ended_at)
        for other in DealerShift.objects.filter(table=table, dealer=dealer).exclude(pk=shift.pk)
    ]
    role = Role(rules.TABLE_ROLE.get(table.game, Role.DEALER)).label.lower()  # a wheel's operator at a paddlewheel
    for at, kind, number in signed:
        if any(start <= at and (end is None or end > at) for start, end in others):
            continue  # signed on another shift of theirs at the table
        rule, verb = (
            (rules.SLIP_RECEIPT.at(site), "received")
            if kind == SlipKind.FILL
            else (rules.SLIP_INITIALS.at(site), "initialled")
        )
        when = moments.shown(site, at)
        return (
            f"{rule}: {dealer} {verb} {SlipKind(kind).label.lower()} {number} at {when} as the {role} on shift at "
            f"table {table.number}; their shift there may not end before it ({moments.shown(site, ended_at)}). End it "
            f"at {when} or later."
        )
    return None
