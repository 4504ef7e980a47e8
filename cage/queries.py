"""Reads other apps and the cage pages rely on: bank days, IOUs outstanding, tips, chip inventory.

Contracts used by accounting:
- `unredeemed_tips_cents(dealer, site, since)` / `tip_status(...)`: end_dealer_shift refuses
  "left the site" while a dealer holds declared, unredeemed tips (ND 99-01.3-08-06(3)).
- `bank_day(site, gaming_date)` and `bank_days(site_ids, start, end)`: the cage figures of the
  daily summary (ND 99-01.3-08-16(1)(a), (g)).
- `deposits_maybe_late(site_ids, start, end, within_days=...)`: the deposit date of each day that
  takes a deposit (a gaming day, or a closed fees, session or tournament day; never a day whose only
  records are adjusting entries, which collected nothing) whose deposit may be late, and
  `deposit_limit(site, day)`: what the compliance scan's deposit rule reads (ND 99-01.3-03-10(1);
  a house control elsewhere).
- `chips_outstanding(organization, on_date)`: inventory book minus chips counted (SFN 17930);
  none known before the first physical count.
- `late_entries(site, start, end)`: the cage's records entered late (bank counts, IOUs and
  repayments, chip redemptions, tips declared and redeemed), what the daily report lists with the
  floor's (floor.queries.late_entries).
"""

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from django.db.models import Count, F, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce

from cardroom.models import Employee, Organization, Site
from core import closing, limits
from core.money import format_money
from core.rows import shaped_rows
from floor.queries import LateEntry

from .calculations import (
    book_quantities,
    deposit_due_on,
    deposit_is_late,
    ious_net_cents,
    lines_total_cents,
)
from .calculations import (
    chips_outstanding as outstanding_by_value,
)
from .models import (
    BankCount,
    BankDeposit,
    ChipInventoryCount,
    ChipMovement,
    ChipMovementLine,
    ChipRedemption,
    DepositCorrection,
    IdealBank,
    Iou,
    IouRepayment,
    TipDeclaration,
    TipRedemption,
    fund_label,
)
from .rules import DEPOSIT_DAYS

# --- Books closed ----------------------------------------------------------------------------


def books_closed(site: Site, gaming_date: date) -> bool:
    """Are the books of a gaming day closed? The books answer (`core.closing`)."""
    return closing.books_closed(site.pk, gaming_date)


def closed_dates(site: Site, gaming_dates) -> set[date]:
    """Those of `gaming_dates` whose books are closed at `site`, asked at once (`core.closing`)."""
    return closing.closed_dates(site.pk, gaming_dates)


def books_day_closed(site: Site, gaming_date: date) -> bool:
    """Were the books of the date closed as a day of the books (`core.closing.closed_days`)?"""
    return (site.pk, gaming_date) in closing.closed_days([site.pk], gaming_date, gaming_date)


def is_books_day(site: Site, gaming_date: date) -> bool:
    """Is anything of the site's books recorded on the date (`core.closing.is_books_day`)?"""
    return closing.is_books_day(site.pk, gaming_date)


def gaming_day_on(site: Site, gaming_date: date):
    """The gaming day opened at the site on the date, or None (a fees or session day's books)."""
    from floor.models import GamingDay

    return GamingDay.objects.filter(site=site, gaming_date=gaming_date).first()


@dataclass(frozen=True)
class DepositDay:
    """A day that takes a bank deposit, as the deposits page lists it: a gaming day (`gaming_day`),
    or a day of the books closed with no gaming day opened that took cash (a fees, session or
    tournament day: `gaming_day` None; `core.closing.collecting_days`). Its deposit carries its figures
    as they stand (`with_standing`) and its corrections, oldest first."""

    gaming_date: date
    gaming_day: object | None  # floor.GamingDay
    closed: bool
    deposit: BankDeposit | None


def _latest_correction(column: str, path: str = "") -> Subquery:
    """The `column` of the latest correction of the outer row's deposit (`path`: the way from the
    outer row to its deposit, "" for a deposit's own row), null where it has none: a correction
    stands until a later one (`DepositCorrection`)."""
    latest = DepositCorrection.objects.filter(deposit_id=OuterRef(f"{path}pk")).order_by("-id")
    return Subquery(latest.values(column)[:1])


def standing_columns(path: str = "") -> dict:
    """The deposit as it stands, as annotations of a query whose rows reach a deposit by `path`
    ("deposit__" from a gaming day): its latest correction's amount, date deposited and reference,
    else the deposit's own as recorded."""
    return {
        f"standing_{column}": Coalesce(_latest_correction(column, path), F(f"{path}{column}"))
        for column in ("amount_cents", "deposited_on", "reference")
    }


def with_standing(deposits):
    """The deposits, each with `standing_amount_cents`, `standing_deposited_on` and
    `standing_reference`: as its latest correction has them, else as recorded, in their own query."""
    return deposits.annotate(**standing_columns())


def with_expected(deposits):
    """The deposits as they stand (`with_standing`), each with `expected_cents`: what its day's closed
    books expect (the day's cash profit as closed, 0 on a losing day; None where its own books were
    not closed), read in the deposits' own query (`core.closing.expected_deposit`)."""
    return with_standing(deposits).annotate(expected_cents=closing.expected_deposit())


def standing_amount_cents(deposit) -> int:
    """The deposit's amount as it stands (`with_standing`), else as recorded."""
    return getattr(deposit, "standing_amount_cents", deposit.amount_cents)


def deposit_difference(deposit) -> int | None:
    """The deposit as it stands less what its closed books expect (`with_expected`): negative when short."""
    expected = getattr(deposit, "expected_cents", None)
    return None if expected is None else standing_amount_cents(deposit) - expected


def deposit_difference_words(deposit) -> str:
    """ "; $12.00 short of the $512.00 the day's closed books expect" where they differ, else ""."""
    difference = deposit_difference(deposit)
    if not difference:
        return ""
    side = "short of" if difference < 0 else "over"
    return f"; {format_money(abs(difference))} {side} the {format_money(deposit.expected_cents)} the day's closed books expect"


def deposit_days(site: Site, *, count: int = 60) -> list[DepositDay]:
    """The site's latest `count` days that take a deposit, the latest first: its gaming days (closed
    books or not) and its closed days of the books without a gaming day that took cash
    (`core.closing.collecting_days`: not a day whose only records are adjusting entries or voided
    fees, sessions or tournament fees), each with its deposit as it stands and its corrections. A fixed
    number of queries."""
    from floor.models import GamingDay

    gaming_days = {d.gaming_date: d for d in GamingDay.objects.filter(site=site).order_by("-gaming_date")[:count]}
    since = min(gaming_days) if len(gaming_days) == count else limits.FIRST_DATE
    books_days = {day for _, day in closing.collecting_days([site.pk], since, limits.LAST_DATE)}
    dates = sorted(set(gaming_days) | books_days, reverse=True)[:count]
    closed = closing.closed_dates(site.pk, set(gaming_days) - books_days) | books_days
    deposits = BankDeposit.objects.filter(site=site, gaming_date__in=dates).select_related(
        "verification", "recorded_by__user"
    )
    recorded = {d.gaming_date: d for d in with_standing(deposits)}
    # Their corrections in one query, asked whether or not a deposit was found (a prefetch asks only
    # when one was: a page's query count would grow with its rows).
    corrections = defaultdict(list)
    for correction in DepositCorrection.objects.filter(deposit__site=site, deposit__gaming_date__in=dates):
        corrections[correction.deposit_id].append(correction)
    for found in recorded.values():
        found.correction_list = corrections[found.pk]
    return [DepositDay(day, gaming_days.get(day), day in closed, recorded.get(day)) for day in dates]


# --- Tips ----------------------------------------------------------------------------------------


def unredeemed_tips(dealer: Employee, site: Site, since: datetime | None = None):
    """The dealer's tip declarations at the site (declared at or after `since`) not yet redeemed."""
    declarations = TipDeclaration.objects.filter(dealer=dealer, site=site, redemption__isnull=True, total_cents__gt=0)
    return declarations.filter(declared_at__gte=since) if since is not None else declarations


def unredeemed_tips_cents(dealer: Employee, site: Site, since: datetime | None = None) -> int:
    """Cents of tip chips the dealer declared at the site since `since` and has not redeemed.
    Above zero, the dealer may not leave the site (ND 99-01.3-08-06(3))."""
    return unredeemed_tips(dealer, site, since).aggregate(total=Sum("total_cents"))["total"] or 0


@dataclass(frozen=True)
class TipStatus:
    declared: bool  # the dealer declared the tips they hold (possibly none) since `since`
    unredeemed_cents: int

    @property
    def may_leave(self) -> bool:
        return self.declared and self.unredeemed_cents == 0


def tip_status(dealer: Employee, site: Site, since: datetime) -> TipStatus:
    """Whether the dealer declared tips since `since` (a shift start) and what is unredeemed
    (`unredeemed_tips_cents`), in one query: asked at every table's closer and every day's close."""
    found = TipDeclaration.objects.filter(dealer=dealer, site=site, declared_at__gte=since).aggregate(
        declarations=Count("pk"),
        unredeemed=Sum("total_cents", filter=Q(redemption__isnull=True, total_cents__gt=0)),
    )
    return TipStatus(found["declarations"] > 0, found["unredeemed"] or 0)


# --- IOUs ------------------------------------------------------------------------------------------


def ious_with_repaid(site: Site):
    """The site's IOUs annotated with `repaid_cents` (0 when none)."""
    return Iou.objects.filter(site=site).annotate(repaid=Sum("repayments__amount_cents"))


# --- Bank days -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Deposit:
    """A day's deposit as it stands: its latest correction's amount and date deposited, else as
    recorded (`DepositCorrection`; the corrections themselves: `deposit_corrections`)."""

    amount_cents: int
    deposited_on: date
    verified: bool
    statement_amount_cents: int | None
    late: bool


@dataclass(frozen=True)
class DepositCorrectionEntry:
    """A correction of a day's deposit, with the figures it corrects (the deposit as recorded, or as
    the correction before it had it) and those it gives, its reason, who and when."""

    gaming_date: date
    deposit_id: int
    correction_id: int
    from_amount_cents: int
    from_deposited_on: date
    from_reference: str
    amount_cents: int
    deposited_on: date
    reference: str
    reason: str
    initials: str
    recorded_at: datetime

    @property
    def what(self) -> str:
        """ "$1,234.00 deposited 2026-11-04 (slip 88) corrected to $1,243.00 deposited 2026-11-04 (slip 88)"."""
        before = deposit_words(self.from_amount_cents, self.from_deposited_on, self.from_reference)
        return f"{before} corrected to {deposit_words(self.amount_cents, self.deposited_on, self.reference)}"


def deposit_words(amount_cents: int, deposited_on: date, reference: str) -> str:
    """ "$1,234.00 deposited 2026-11-04 (slip 88)": a deposit's figures in words."""
    return f"{format_money(amount_cents)} deposited {deposited_on}{f' ({reference})' if reference else ''}"


def deposit_corrections(site_ids, start: date, end: date) -> list[DepositCorrectionEntry]:
    """The corrections of the sites' deposits of gaming dates [start, end], by day and in the order
    they were made, each with the figures it corrects: what the daily page and report list beside the
    deposit as it stands. One query."""
    rows = (
        DepositCorrection.objects.filter(deposit__site_id__in=list(site_ids), deposit__gaming_date__range=(start, end))
        .order_by("deposit__gaming_date", "deposit_id", "id")
        .values_list(
            "deposit__gaming_date", "deposit_id", "pk", "deposit__amount_cents", "deposit__deposited_on",
            "deposit__reference", "amount_cents", "deposited_on", "reference", "reason", "initials", "recorded_at",
        )
    )  # fmt: skip
    entries: list[DepositCorrectionEntry] = []
    for day, deposit_id, pk, amount, on, reference, *corrected in rows:
        before = entries[-1] if entries and entries[-1].deposit_id == deposit_id else None
        if before is not None:
            amount, on, reference = before.amount_cents, before.deposited_on, before.reference
        entries.append(DepositCorrectionEntry(day, deposit_id, pk, amount, on, reference, *corrected))
    return entries


@dataclass(frozen=True)
class BankDay:
    """The cage figures of one site and gaming date. Counts are None when not recorded.

    - starting_/ending_cash_cents: cash on hand counted at the start / end of the day.
    - starting_/ending_chips_cents: chips in the bank at face value, start / end.
    - ious_net_start_cents / ious_net_cents: IOUs outstanding at the start / end of the day,
      as `lent out of this bank and not repaid` MINUS `borrowed into this bank and not repaid`.
      Positive: the bank is owed money, so its cash on hand is that much short; the bank's
      position is cash + chips + ious_net. "Net of IOUs", cash on hand is ending_cash_cents +
      ious_net_cents, and the day's cash change net of IOUs is
      (ending_cash + ious_net) - (starting_cash + ious_net_start).
    - chip_redemptions_cents: cash paid to players for chips during the day (cash out, chips in).
    - tips_redeemed_cents: cash paid to dealers for tip chips, counted that day (cash out, chips in):
      the tips declared that day, and those of earlier days whose books had closed when paid
      (`cage.rules.TIPS_OF_CLOSED_DAYS`).
    - tips_of_earlier_days: of those, ((declared on, cents), ...) declared on earlier days, by date.
    - ideal_cents: the imprest amount in effect (None when not set).
    - deposit: the day's recorded deposit (None when not yet recorded); deposit_due: its due date.
    """

    site_id: int
    gaming_date: date
    starting_cash_cents: int | None
    ending_cash_cents: int | None
    starting_chips_cents: int | None
    ending_chips_cents: int | None
    ious_net_start_cents: int
    ious_net_cents: int
    chip_redemptions_cents: int
    tips_redeemed_cents: int
    ideal_cents: int | None
    deposit: Deposit | None
    deposit_due: date
    tips_of_earlier_days: tuple[tuple[date, int], ...] = ()


def bank_day(site: Site, gaming_date: date) -> BankDay:
    """The cage figures of one gaming day at a site (an empty day when nothing is recorded)."""
    return bank_days(
        [site.pk], gaming_date, gaming_date, include_empty=True, jurisdictions={site.pk: site.jurisdiction}
    )[(site.pk, gaming_date)]


def bank_days(
    site_ids, start: date, end: date, *, include_empty: bool = False, jurisdictions: dict[int, str] | None = None
) -> dict[tuple[int, date], BankDay]:
    """{(site_id, gaming_date): BankDay} for gaming dates in [start, end] that have a gaming
    day or any cage record (every date of the range with `include_empty`). A fixed number of
    queries, whatever the number of sites and days. `jurisdictions`: {site id: pack code} where the
    caller holds the sites (their deposit deadline); else read in one more query."""
    site_ids = list(site_ids)
    counts = _latest_counts(site_ids, start, end)
    loans = _ious_until(site_ids, end)
    period = {"site_ids": site_ids, "start": start, "end": end}
    redeemed = {(site_id, day): cents or 0 for site_id, day, cents in shaped_rows(_chip_redemptions_query, **period)}
    tips: dict[tuple[int, date], dict[date, int]] = defaultdict(dict)  # {(site, day): {declared on: cents}}
    for site_id, day, declared_on, cents in shaped_rows(_tips_redeemed_query, **period):
        tips[(site_id, day)][declared_on] = cents or 0
    deposits = {(site_id, day): _deposit(*rest) for site_id, day, *rest in shaped_rows(_deposits_query, **period)}
    ideals = shaped_rows(_ideals_query, site_ids=site_ids, end=end)  # (site id, effective on, cents)
    keys = _day_keys(site_ids, start, end, include_empty) | set(counts) | set(redeemed) | set(tips) | set(deposits)
    keys |= {(i.site_id, i.gaming_date) for i in loans if start <= i.gaming_date <= end}
    keys |= {(i.site_id, day) for i in loans for day, _ in i.repayments_by_date if start <= day <= end}
    # Each site's pack, for its deposit deadline (one query, only when there are days).
    codes = jurisdictions
    if codes is None:
        codes = dict(Site.objects.filter(pk__in=site_ids).values_list("pk", "jurisdiction")) if keys else {}
    return {
        key: _bank_day(
            key,
            counts.get(key, {}),
            loans,
            redeemed.get(key, 0),
            tips.get(key, {}),
            deposits.get(key),
            ideals,
            codes[key[0]],
        )
        for key in sorted(keys)
    }


def deposits_maybe_late(
    site_ids, start: date, end: date, *, within_days: int | None
) -> dict[tuple[int, date], date | None]:
    """{(site_id, gaming_date): deposited_on} (None when no deposit is recorded) of the sites'
    days in [start, end] that take a deposit, whose deposit may be late: none recorded, or made
    more than `within_days` calendar days after the gaming date (None: only those with none
    recorded, `days_not_deposited`). The days are the gaming days and the days of the books closed
    with no gaming day that took cash (a fees, session or tournament day, `core.closing.collecting_days`);
    a day whose only records are adjusting entries, or whose fees, sessions or tournament fees were all
    voided, collected nothing and takes none.
    A deposit due by the n-th banking day after the day is never late within n calendar days of it
    (banking days are calendar days less weekends and holidays), so the other days are not read:
    the gaming days' in one query, as their deposits are judged in it; the others' (few) in a fixed few."""
    from floor.models import GamingDay

    site_ids = list(site_ids)
    maybe_late = Q(deposit__isnull=True)
    if within_days is not None:  # the date deposited as it stands: a correction's (`standing_columns`)
        maybe_late |= Q(standing_deposited_on__gt=F("gaming_date") + timedelta(days=within_days))
    standing = {"standing_deposited_on": standing_columns("deposit__")["standing_deposited_on"]}
    days = (GamingDay.objects.filter(site_id__in=site_ids, gaming_date__range=(start, end))
            .annotate(**standing).filter(maybe_late)
            .values_list("site_id", "gaming_date", "standing_deposited_on"))  # fmt: skip
    found = {(site_id, day): on for site_id, day, on in days}
    books_days = closing.collecting_days(site_ids, start, end)  # fees, session or tournament days: no gaming day
    if books_days:
        deposits = with_standing(
            BankDeposit.objects.filter(
                site_id__in={s for s, _ in books_days}, gaming_date__in={d for _, d in books_days}
            )
        )
        deposited = {(s, d): on for s, d, on in deposits.values_list("site_id", "gaming_date", "standing_deposited_on")}
        for key in books_days:
            on = deposited.get(key)
            if on is None or (within_days is not None and on > key[1] + timedelta(days=within_days)):
                found[key] = on
    return dict(sorted(found.items()))


def days_not_deposited(site_ids, start: date, end: date) -> list[tuple[int, date]]:
    """(site_id, gaming_date) of the sites' days in [start, end] that take a deposit and have none
    recorded (`deposits_maybe_late`'s days), in order: the deposits still to make."""
    return list(deposits_maybe_late(site_ids, start, end, within_days=None))


def deposit_limit(site: Site, gaming_date: date):
    """The site's pack's deposit deadline in force on the date (`cage.rules.DEPOSIT_DAYS`: a `Limit`,
    its value the banking days and its citation; the house's third banking day where the pack
    states none)."""
    return DEPOSIT_DAYS.on(site, gaming_date)


def _deposits_query(*, site_ids, start, end):
    """The deposits of the sites' gaming dates in [start, end] (a bank day's deposit is the one
    of its site and gaming date) as they stand (`standing_columns`: a correction's amount and date
    deposited), each with its verification's statement amount (None when not verified: a
    verification's amount is never null)."""
    return (BankDeposit.objects.filter(site_id__in=site_ids, gaming_date__range=(start, end)).order_by()
            .annotate(**standing_columns())
            .values_list("site_id", "gaming_date", "standing_amount_cents", "standing_deposited_on", "due_on",
                         "verification__statement_amount_cents"))  # fmt: skip


def _day_keys(site_ids, start, end, include_empty) -> set[tuple[int, date]]:
    if include_empty:
        from datetime import timedelta

        days = [start + timedelta(days=n) for n in range((end - start).days + 1)]
        return {(s, d) for s in site_ids for d in days}
    from floor.queries import gaming_days_query

    return {
        (site_id, day) for _, site_id, day in shaped_rows(gaming_days_query, site_ids=site_ids, start=start, end=end)
    }


def _latest_counts(site_ids, start, end) -> dict[tuple[int, date], dict[str, tuple[int, int]]]:
    """The standing count per day and kind, (cash cents, chips cents): the latest of an
    original and its corrections."""
    found: dict[tuple[int, date], dict[str, tuple[int, int]]] = defaultdict(dict)
    for site_id, gaming_date, kind, cash, chips in shaped_rows(_counts_query, site_ids=site_ids, start=start, end=end):
        found[(site_id, gaming_date)][kind] = (cash, chips)
    return found


@dataclass
class _Loan:
    """An IOU as the bank's figures read it (cage.models.Iou), with its repayments."""

    site_id: int
    gaming_date: date
    source: str
    destination: str
    amount_cents: int
    repayments_by_date: list = field(default_factory=list)  # [(gaming_date, cents)]


def _ious_query(*, site_ids, end):
    return (
        Iou.objects.filter(site_id__in=site_ids, gaming_date__lte=end)
        .order_by("site_id", "gaming_date", "lent_at", "id")
        .values_list("pk", "site_id", "gaming_date", "source", "destination", "amount_cents")
    )


def _repayments_query(*, site_ids, end):
    # the loans by a join, not a list of their ids
    return (
        IouRepayment.objects.filter(iou__site_id__in=site_ids, iou__gaming_date__lte=end, gaming_date__lte=end)
        .order_by("id")
        .values_list("iou_id", "gaming_date", "amount_cents")
    )


def _ious_until(site_ids, end) -> list[_Loan]:
    """IOUs lent by `end`, each with `repayments_by_date` [(gaming_date, cents)]."""
    loans = {pk: _Loan(*values) for pk, *values in shaped_rows(_ious_query, site_ids=site_ids, end=end)}
    if not loans:
        return []
    for iou_id, gaming_date, cents in shaped_rows(_repayments_query, site_ids=site_ids, end=end):
        loans[iou_id].repayments_by_date.append((gaming_date, cents))
    return list(loans.values())


def _ideals_query(*, site_ids, end):
    return (
        IdealBank.objects.filter(site_id__in=site_ids, effective_on__lte=end)
        .order_by("effective_on", "id")
        .values_list("site_id", "effective_on", "amount_cents")
    )


def _net_at(loans: list[_Loan], site_id: int, as_of: date, inclusive: bool) -> int:
    def on_or_before(day: date) -> bool:
        return day <= as_of if inclusive else day < as_of

    rows = []
    for loan in loans:
        if loan.site_id == site_id and on_or_before(loan.gaming_date):
            repaid = sum(cents for day, cents in loan.repayments_by_date if on_or_before(day))
            rows.append((loan.source, loan.destination, loan.amount_cents - repaid))
    return ious_net_cents(rows)


def _counts_query(*, site_ids, start, end):
    return (
        BankCount.objects.filter(site_id__in=site_ids, gaming_date__range=(start, end))
        .order_by("counted_at", "id")
        .values_list("site_id", "gaming_date", "kind", "cash_cents", "chips_cents")
    )


def _chip_redemptions_query(*, site_ids, start, end):
    return (
        ChipRedemption.objects.filter(site_id__in=site_ids, gaming_date__range=(start, end))
        .values_list("site_id", "gaming_date")
        .annotate(total=Sum("total_cents"))
        .order_by()
    )


def _tips_redeemed_query(*, site_ids, start, end):
    """The tips redeemed, by the day counted on and the day declared (`TipRedemption.gaming_date`)."""
    return (
        TipRedemption.objects.filter(declaration__site_id__in=site_ids, gaming_date__range=(start, end))
        .values_list("declaration__site_id", "gaming_date", "declaration__gaming_date")
        .annotate(total=Sum("amount_cents"))
        .order_by()
    )


def _ideal_on(ideals: list[tuple[int, date, int]], site_id: int, day: date) -> int | None:
    current = None
    for ideal_site_id, effective_on, cents in ideals:
        if ideal_site_id == site_id and effective_on <= day:
            current = cents
    return current


def _bank_day(key, counts, loans, redeemed, tips, deposit, ideals, jurisdiction) -> BankDay:
    site_id, day = key
    start, end = counts.get(BankCount.Kind.START), counts.get(BankCount.Kind.END)
    due = deposit_due_on(jurisdiction, day)
    return BankDay(
        site_id=site_id,
        gaming_date=day,
        starting_cash_cents=start[0] if start else None,
        ending_cash_cents=end[0] if end else None,
        starting_chips_cents=start[1] if start else None,
        ending_chips_cents=end[1] if end else None,
        ious_net_start_cents=_net_at(loans, site_id, day, inclusive=False),
        ious_net_cents=_net_at(loans, site_id, day, inclusive=True),
        chip_redemptions_cents=redeemed,
        tips_redeemed_cents=sum(tips.values()),
        tips_of_earlier_days=tuple(sorted((on, cents) for on, cents in tips.items() if on != day)),
        ideal_cents=_ideal_on(ideals, site_id, day),
        deposit=deposit,
        deposit_due=due,
    )


def _deposit(amount_cents: int, deposited_on: date, due_on: date, statement_amount_cents: int | None) -> Deposit:
    """A deposit row of `_deposits_query`."""
    return Deposit(
        amount_cents=amount_cents,
        deposited_on=deposited_on,
        verified=statement_amount_cents is not None,
        statement_amount_cents=statement_amount_cents,
        late=deposit_is_late(deposited_on, due_on, today=deposited_on),  # recorded: the day it was made decides
    )


# --- Chip inventory (SFN 17930) ---------------------------------------------------------------------


def chips_exist(organization_ids, on_date: date) -> dict[int, dict[int, int]]:
    """Per organization, the chips its inventory log (SFN 17930) says exist on `on_date`, per
    value in cents: received minus destroyed by that date, in one query. An organization with
    no movement recorded by then keeps no log yet and is left out. The one reading of that
    figure: the chip float (`chip_floats`), the book (`chip_book`) and the refusal of a record
    holding more chips than exist (`chips_exist_at`, floor.chip_log)."""
    movements = (
        ChipMovementLine.objects.filter(
            movement__organization_id__in=list(organization_ids), movement__occurred_on__lte=on_date
        )
        .values_list("movement__organization_id", "movement__kind", "value_cents")
        .annotate(quantity=Sum("quantity"))
        .order_by()
    )
    by_org: dict[int, list[tuple[str, int, int]]] = defaultdict(list)
    for org_id, kind, value, quantity in movements:
        by_org[org_id].append((kind, value, quantity))
    return {org_id: book_quantities(found) for org_id, found in by_org.items()}


def chips_exist_at(organization_id: int, on_date: date) -> dict[int, int] | None:
    """`chips_exist` of one organization, or None where it keeps no inventory log yet (the
    floor's `chips_exist` hook)."""
    return chips_exist([organization_id], on_date).get(organization_id)


def chips_exist_sql(vendor: str) -> str:
    """`chips_exist_at` as a scalar subquery of the floor's slip context statement (the
    `chips_exist_sql` hook), for %(organization)s on the open day's `d.gaming_date`: a JSON array
    of [value_cents, chips], NULL where the organization keeps no log by then."""
    movement, line = ChipMovement._meta.db_table, ChipMovementLine._meta.db_table
    rows = (
        "json_agg(json_build_array(x.value_cents, x.chips))"
        if vendor == "postgresql"
        else ("json_group_array(json_array(x.value_cents, x.chips))")
    )
    return f"""(SELECT {rows} FROM (
            SELECT l.value_cents, SUM(CASE WHEN m.kind = '{ChipMovement.Kind.RECEIPT.value}'
                THEN l.quantity ELSE -l.quantity END) AS chips
            FROM {line} l JOIN {movement} m ON m.id = l.movement_id
            WHERE m.organization_id = %(organization)s AND m.occurred_on <= d.gaming_date
            GROUP BY l.value_cents) x)"""


def chip_book(organization: Organization, on_date: date) -> dict[int, int]:
    """Chips the organization owns on `on_date`, per value: received minus destroyed."""
    return chips_exist_at(organization.pk, on_date) or {}


def latest_inventory_count(organization: Organization, on_date: date) -> ChipInventoryCount | None:
    counts = ChipInventoryCount.objects.filter(organization=organization, counted_on__lte=on_date)
    return counts.order_by("-counted_on", "-id").prefetch_related("lines__site").first()


@dataclass(frozen=True)
class ChipsOutstanding:
    """Per value in cents: book (owned), counted (where they are), outstanding = book - counted.
    Outstanding is positive for chips with players (or a shortage to explain). It is what a
    physical count finds missing from the book: before the first count nothing is counted and
    nothing outstanding is known (counted and outstanding empty, their totals None), never the
    whole book outstanding against a count of nothing."""

    on_date: date
    counted_on: date | None  # the physical count used (None: never counted)
    book: dict[int, int]
    counted: dict[int, int]
    outstanding: dict[int, int]

    @property
    def outstanding_cents(self) -> int | None:
        return None if self.counted_on is None else lines_total_cents(self.outstanding.items())

    @property
    def book_cents(self) -> int:
        return lines_total_cents(self.book.items())

    @property
    def counted_cents(self) -> int | None:
        return None if self.counted_on is None else lines_total_cents(self.counted.items())


def chips_outstanding(organization: Organization, on_date: date) -> ChipsOutstanding:
    """The inventory book on `on_date` minus the chips found in every location by the latest
    physical count on or before it (SFN 17930)."""
    book = chip_book(organization, on_date)
    count = latest_inventory_count(organization, on_date)
    if count is None:
        return ChipsOutstanding(on_date, None, book, {}, {})
    counted: dict[int, int] = defaultdict(int)
    for line in count.lines.all():
        counted[line.value_cents] += line.quantity
    return ChipsOutstanding(on_date, count.counted_on, book, dict(counted), outstanding_by_value(book, counted))


def chip_inventory_log(organization: Organization) -> list:
    """The SFN 17930 log: receipts, destructions and physical counts in date order, each with
    the book quantities per value after it."""
    from .models import ChipMovement

    movements = (
        ChipMovement.objects.filter(organization=organization)
        .prefetch_related("lines")
        .select_related("recorded_by__user")
    )
    counts = (
        ChipInventoryCount.objects.filter(organization=organization)
        .prefetch_related("lines__site")
        .select_related("counted_by__user")
    )
    events = sorted(
        [*movements, *counts],
        key=lambda e: (
            getattr(e, "occurred_on", None) or e.counted_on,
            e.recorded_at if hasattr(e, "recorded_at") else e.counted_at,
        ),
    )
    book: dict[int, int] = {}
    log = []
    for event in events:
        if hasattr(event, "kind"):
            sign = 1 if event.kind == "receipt" else -1
            for line in event.lines.all():
                book[line.value_cents] = book.get(line.value_cents, 0) + sign * line.quantity
            log.append(
                {
                    "event": event,
                    "kind": event.get_kind_display(),
                    "date": event.occurred_on,
                    "book": dict(book),
                    "counted": None,
                }
            )
        else:
            counted: dict[int, int] = defaultdict(int)
            for line in event.lines.all():
                counted[line.value_cents] += line.quantity
            log.append(
                {
                    "event": event,
                    "kind": "Physical count",
                    "date": event.counted_on,
                    "book": dict(book),
                    "counted": dict(counted),
                    "outstanding": outstanding_by_value(book, counted),
                }
            )
    return log


# --- Chip float (SFN 17930 against the banks and trays) ---------------------------------------------


@dataclass(frozen=True)
class ChipFloat:
    """An organization's chips on `on_date`, per value in cents: what the inventory log says
    exist (received minus destroyed), what each site's bank held at its last count and its
    tables' trays at their last counts, and the chips outstanding (derived: exist - banks -
    trays; with players, or in storage). Negative outstanding: the banks and trays hold more
    chips than exist, which the inventory cannot explain."""

    organization_id: int
    on_date: date
    exist: dict[int, int]
    banks: dict[int, dict[int, int]]  # site id -> value -> quantity (the site's last bank count)
    trays: dict[int, dict[int, int]]  # site id -> value -> quantity (each table's last tray count, added up)
    counted_through: date | None  # the latest gaming date of a count read (None: no count)

    @property
    def values(self) -> list[int]:
        found = set(self.exist)
        for per_site in (*self.banks.values(), *self.trays.values()):
            found |= set(per_site)
        return sorted(found, reverse=True)

    def bank(self, value: int) -> int:
        return sum(chips.get(value, 0) for chips in self.banks.values())

    def tray(self, value: int) -> int:
        return sum(chips.get(value, 0) for chips in self.trays.values())

    def outstanding(self, value: int) -> int:
        return self.exist.get(value, 0) - self.bank(value) - self.tray(value)

    @property
    def short(self) -> list[int]:
        """The values whose banks and trays hold more chips than exist, highest first."""
        return [v for v in self.values if self.outstanding(v) < 0]

    def rows(self) -> list[tuple[int, int, int, int, int]]:
        """(value, exist, bank, trays, outstanding) per value, highest first."""
        return [(v, self.exist.get(v, 0), self.bank(v), self.tray(v), self.outstanding(v)) for v in self.values]

    def totals_cents(self) -> tuple[int, int, int, int]:
        rows = self.rows()
        return tuple(sum(r[0] * r[i] for r in rows) for i in (1, 2, 3, 4))  # type: ignore[return-value]


def chip_floats(organization_ids, on_date: date) -> dict[int, ChipFloat]:
    """`ChipFloat` of each organization that keeps a chip inventory log (a receipt or a
    destruction recorded by `on_date`), in three queries whatever the number of sites and
    tables: the log's movements summed per value, the lines of each site's standing bank count
    last before `on_date` (ending counts after starting ones of a day, a correction after its
    original), and the lines of each active table's last tray count. An organization with no
    movement recorded keeps no log to reconcile and is left out."""
    from django.db.models import Case, IntegerField, OuterRef, Subquery, Value, When

    from floor.models import Table, TableInventory, TableInventoryLine

    from .models import BankCountLine

    organization_ids = sorted(set(organization_ids))
    if not organization_ids:
        return {}
    exist = chips_exist(organization_ids, on_date)
    if not exist:
        return {}
    kept = sorted(exist)
    end_first = Case(When(kind=BankCount.Kind.END, then=Value(1)), default=Value(0), output_field=IntegerField())
    standing = (
        BankCount.objects.filter(site_id=OuterRef("pk"), gaming_date__lte=on_date)
        .annotate(end_first=end_first)
        .order_by("-gaming_date", "-end_first", "-counted_at", "-id")
        .values("pk")[:1]
    )
    bank_lines = (
        BankCountLine.objects.filter(
            chip__isnull=False,
            count__site__organization_id__in=kept,
            count_id__in=Site.objects.filter(organization_id__in=kept).annotate(last=Subquery(standing)).values("last"),
        )
        .values_list("count__site__organization_id", "count__site_id", "count__gaming_date", "value_cents", "quantity")
        .order_by()
    )
    last_count = (
        TableInventory.objects.filter(table_id=OuterRef("pk"), gaming_day__gaming_date__lte=on_date)
        .order_by("-gaming_day__gaming_date", "-counted_at", "-id")
        .values("pk")[:1]
    )
    tables = Table.objects.filter(site__organization_id__in=kept, active=True).annotate(last=Subquery(last_count))
    tray_lines = (
        TableInventoryLine.objects.filter(inventory_id__in=tables.values("last"))
        .values_list(
            "inventory__table__site__organization_id",
            "inventory__table__site_id",
            "inventory__gaming_day__gaming_date",
            "value_cents",
        )
        .annotate(quantity=Sum("quantity"))
        .order_by()
    )
    banks: dict[int, dict] = defaultdict(lambda: defaultdict(lambda: defaultdict(int)))
    trays: dict[int, dict] = defaultdict(lambda: defaultdict(lambda: defaultdict(int)))
    through: dict[int, date] = {}
    for found, lines in ((banks, bank_lines), (trays, tray_lines)):
        for org_id, site_id, gaming_date, value, quantity in lines:
            found[org_id][site_id][value] += quantity
            through[org_id] = max(through.get(org_id, gaming_date), gaming_date)
    return {
        org_id: ChipFloat(
            org_id,
            on_date,
            dict(exist[org_id]),
            {site: dict(chips) for site, chips in banks[org_id].items()},
            {site: dict(chips) for site, chips in trays[org_id].items()},
            through.get(org_id),
        )
        for org_id in kept
    }


def chip_float(organization: Organization, on_date: date) -> ChipFloat | None:
    """`chip_floats` of one organization (None: it keeps no chip inventory log yet)."""
    return chip_floats([organization.pk], on_date).get(organization.pk)


def late_entries(site: Site, start: date, end: date) -> list[LateEntry]:
    """The cage's records of gaming dates [start, end] entered past the site's late entry threshold
    (house control, core.moments), as the floor's (floor.queries.late_entries), in the order they
    happened: the daily report lists them with its own. Each is named as its page names it: bank
    counts (a correction named as one), IOUs and their repayments, chip redemptions, dealer tips
    declared and redeemed. One query a kind (six), however many rows. Deposits, their verification
    and the chip inventory log keep no late mark (not `EnteredRecord`s): none is listed."""
    entries = [*_late_bank_counts(site, start, end), *_late_ious(site, start, end)]
    entries += _late_redemptions(site, start, end) + _late_tips(site, start, end)
    return sorted(entries, key=lambda e: (e.gaming_date, e.occurred_at, e.what))


def _late_bank_counts(site: Site, start: date, end: date) -> list[LateEntry]:
    counts = BankCount.objects.filter(site=site, gaming_date__range=(start, end), entered_late=True).values_list(
        "gaming_date", "kind", "corrects_id", "counted_at", "entered_at"
    )
    return [
        LateEntry(
            gaming_date,
            f"{BankCount.Kind(kind).label} count{' (correction)' if corrects_id else ''}",
            counted_at,
            entered_at,
        )
        for gaming_date, kind, corrects_id, counted_at, entered_at in counts.order_by("counted_at", "id")
    ]


def _late_ious(site: Site, start: date, end: date) -> list[LateEntry]:
    """IOUs lent and IOU repayments, each named by its funds as the IOUs page shows them."""
    lent = Iou.objects.filter(site=site, gaming_date__range=(start, end), entered_late=True)
    repaid = IouRepayment.objects.filter(iou__site=site, gaming_date__range=(start, end), entered_late=True)
    return [
        LateEntry(gaming_date, f"IOU lent, {_funds(site, source, destination)}", lent_at, entered_at)
        for gaming_date, source, destination, lent_at, entered_at in lent.values_list(
            "gaming_date", "source", "destination", "lent_at", "entered_at"
        )
    ] + [
        LateEntry(gaming_date, f"IOU repayment, {_funds(site, source, destination)}", repaid_at, entered_at)
        for gaming_date, source, destination, repaid_at, entered_at in repaid.values_list(
            "gaming_date", "iou__source", "iou__destination", "repaid_at", "entered_at"
        )
    ]


def _funds(site: Site, source: str, destination: str) -> str:
    return f"{fund_label(site, source)} to {fund_label(site, destination)}"


def _late_redemptions(site: Site, start: date, end: date) -> list[LateEntry]:
    redeemed = ChipRedemption.objects.filter(site=site, gaming_date__range=(start, end), entered_late=True)
    return [
        LateEntry(gaming_date, f"Chip redemption, {format_money(cents)} cash paid", redeemed_at, entered_at)
        for gaming_date, cents, redeemed_at, entered_at in redeemed.values_list(
            "gaming_date", "total_cents", "redeemed_at", "entered_at"
        )
    ]


def _late_tips(site: Site, start: date, end: date) -> list[LateEntry]:
    """Dealer tips declared and redeemed, named by the dealer as the tips page shows them; a
    redemption belongs to the gaming date it is counted on, which names its declaration's where
    that is earlier (`TipRedemption.gaming_date`)."""
    declared = TipDeclaration.objects.filter(site=site, gaming_date__range=(start, end), entered_late=True)
    redeemed = TipRedemption.objects.filter(declaration__site=site, gaming_date__range=(start, end), entered_late=True)
    return [
        LateEntry(d.gaming_date, f"Dealer tips declared, {d.dealer}", d.declared_at, d.entered_at)
        for d in declared.select_related("dealer__user")
    ] + [
        LateEntry(
            r.gaming_date, f"Dealer tips redeemed, {r.declaration.dealer}{_declared_on(r)}", r.redeemed_at, r.entered_at
        )
        for r in redeemed.select_related("declaration__dealer__user")
    ]


def _declared_on(redemption: TipRedemption) -> str:
    declared_on = redemption.declaration.gaming_date
    return f" (declared on {declared_on})" if declared_on != redemption.gaming_date else ""
