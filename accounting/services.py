"""Every write to the books: closing a gaming day's books, adjusting closed books and filing
a quarter; permission-checked, validated, audited, in one transaction.

The figures API, the daily figures page and the demo loader call these. Each refusal is a
ValidationError naming the field and citing its rule, or a PermissionDenied. The custody the
books are built from is written by the floor's services (`floor.services`).
"""

from dataclasses import replace
from datetime import date, datetime, timedelta

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from cardroom.access import require_role
from cardroom.models import Organization, Site, Table
from core import acts, hooks, limits
from core.audit import record_event, snapshot
from core.audit import record_site_event as _audit
from core.moments import gaming_day_bounds, shown
from core.money import format_money
from core.periods import Quarter
from core.plurals import noun_for
from core.rules import HOUSE_CONTROL
from fees.queries import fees_not_counted, record_dates
from fees.rules import keeps_sessions, keeps_table_fees
from floor import queries as floor_queries
from floor import rules as floor_rules
from floor.calculations import site_today
from floor.models import GamingDay
from packs import RevenueModel, pack_for
from tournaments.rules import TOURNAMENT

from . import frozen, queries, rules
from .models import Adjustment, BooksClose, OtherGamesAgp, QuarterFiling
from .pack_figures import PAID_OUT


def close_books(*, acting_user, site: Site, gaming_date: date) -> BooksClose:
    """Close the books of a gaming day (ND 99-01.3-08-16(1)(g)): once the gaming day is closed
    (every table has its closer), every drop box of the day has a signed count and the cash
    bank has its starting and ending counts, the daily summary is snapshotted and locked.
    A later correction is an Adjustment, never an edit."""
    employee = acts.acting_employee(
        require_role(
            acting_user, site, *rules.BOOKS_CLOSERS, action="close the books of a gaming day", rule=HOUSE_CONTROL
        )
    )
    with transaction.atomic():
        Site.objects.select_for_update().get(pk=site.pk)
        summary = _check_books_can_close(site, gaming_date)
        close = _books_closed(summary, site, employee)
        _audit(acting_user, "books.closed", close, site=site)
    return close


def _books_closed(summary, site: Site, employee) -> BooksClose:
    """The row closing the books of the day `summary` is, its figures frozen as they stand."""
    figures = frozen.daily(replace(summary, books_closed=True))
    return BooksClose.objects.create(
        site=site,
        gaming_date=summary.gaming_date,
        closed_at=timezone.now(),
        closed_by=employee,
        figures=figures,
        figures_sha256=frozen.digest(figures),
    )


# What resolves a drop with no signed count before the books close (the refusal's last sentence).
DROPS_TO_COUNT = (
    "Carried past the gaming day's close or not, a box stands in for no count: a shift manager removes it "
    "for its gaming date (Drop boxes and custody) and the count team counts and signs it (Count sessions) "
    "before the books close."
)


def _check_books_can_close(site: Site, gaming_date: date):
    """The day's summary, once its books may close: a day of the books (`summaries.day_of_the_books`,
    the quarter's own days), its gaming day closed where one was opened, its drops and fees counted,
    its session recorded where the pack's revenue is sessions and its tables were played, its bank
    counted where cash was at the cage that day, and, with no gaming day opened, its business day
    ended."""
    from .summaries import day_of_the_books

    if queries.books_closed(site, gaming_date):
        raise ValidationError(
            {
                "gaming_date": f"{rules.CLOSED_BOOKS}: the books of {gaming_date} at {site} are already closed; "
                "record a correction as an adjustment."
            }
        )
    summary = day_of_the_books(site, gaming_date)
    if summary is None:
        raise ValidationError(
            {
                "gaming_date": f"{rules.GAMING_DAY_STATE}: there is no gaming day {gaming_date} at {site} and "
                "nothing of its books is recorded on it (no adjustment, tournament, fee or session): its books "
                "have nothing to close."
            }
        )
    # A day of the books may have its records (an adjustment entered, tournament play, fees
    # collected, sessions played) with no gaming day opened on the floor: its books close on those
    # records. A gaming day opened closes first.
    day = GamingDay.objects.filter(site=site, gaming_date=gaming_date).select_related("close").first()
    if day is not None and day.is_open:
        open_tables = floor_queries.tables_open(day)
        unclosed = ", ".join(str(t.number) for t in open_tables)
        why = (
            f"{noun_for(len(open_tables), 'table')} {unclosed} {'has' if len(open_tables) == 1 else 'have'} no closer"
            if unclosed
            else "the gaming day is not closed"
        )
        raise ValidationError({"gaming_date": f"{rules.TRAY_COUNT}: {why}; close the gaming day {gaming_date} first."})
    _check_drops_counted(site, gaming_date, day)
    _check_forms_accounted_for(site, gaming_date)
    _check_fees_counted(site, gaming_date)
    _check_session_recorded(site, summary)
    if day is not None or cash_at_the_cage(site, summary):
        _check_bank_counted(site, gaming_date, gaming_day_opened=day is not None)
    if day is None:  # last: what else is missing is said first, and this one passes with the night
        _check_business_day_ended(site, gaming_date)
    return summary


def _check_business_day_ended(site: Site, gaming_date: date) -> None:
    """A day of the books with no gaming day opened on the floor (a fees pack's table fees, a
    session pack's sessions, tournament play, an adjustment) closes once its business day has ended
    at the site (its start hour the next day, `core.moments.gaming_day_bounds`): before then fees or
    sessions may still be recorded on it. Where a gaming day was opened, its close ends the play."""
    end = gaming_day_bounds(site, gaming_date)[1]
    if timezone.now() < end:
        raise ValidationError(
            {
                "gaming_date": f"{rules.BUSINESS_DAY.at(site)}: the gaming day {gaming_date} at {site} runs until "
                f"{shown(site, end)}; its books close once it has ended."
            }
        )


def cash_at_the_cage(site: Site, summary) -> bool:
    """Whether a day with no gaming day opened had cash at the cage: tournament fees or prizes, a
    fees or session pack's fees or sessions standing (`summaries.fees_or_sessions`;
    `no_gaming_day_bank` names those of the site's pack), or an adjusting entry to the cash recorded
    on it. A day whose only records are adjustments of other figures, or fees or sessions all voided,
    had none, so its books close without a bank count (the daily page says so beside its button). A
    cash entry counts in the cash profit of the day it is recorded on, which only a bank count makes
    known: closed without one, the entry would stay out of the quarter's cash profit for ever (the
    figures of a day closed uncounted are "not known", `summaries.cash_figures`)."""
    from .summaries import fees_or_sessions

    if not summary.tournaments.is_empty:
        return True
    if any(line.field == rules.CASH_FIGURE for line in summary.adjustments_recorded):
        return True
    return fees_or_sessions(summary)


def _check_fees_counted(site: Site, gaming_date: date) -> None:
    """The day's fee cash counted by two people before its books close, as a drop's count."""
    if fees_not_counted(site.pk, gaming_date):
        raise ValidationError(
            {
                "gaming_date": f"{HOUSE_CONTROL}: the fees collected on {gaming_date} have no two-person count of "
                "their cash yet; count them first (table fees page)."
            }
        )


def _check_session_recorded(site: Site, summary) -> None:
    """Where the site's pack takes its revenue as games-of-chance sessions (NY: 9 NYCRR 4620.5), a
    day with play at its tables (a drop or a table's custody recorded) has its session recorded
    before its books close: closed without one, its receipts stand at $0.00 against the drop for
    ever (the sessions against the floor's custody, `pack_figures.sessions_against_custody`)."""
    if not keeps_sessions(site) or not summary.tables:
        return
    if (summary.pack.get("sessions") or {}).get("sessions"):
        return
    custody = summary.total
    raise ValidationError(
        {
            "gaming_date": f"{rules.SESSION_GAME.at(site)}: the tables of {summary.gaming_date} at {site} were "
            f"played (drop {format_money(custody.drop_cents)}, {PAID_OUT} {format_money(custody.prizes_cents)}) "
            "but no games-of-chance session is recorded on that day: its revenue is its session's receipts. "
            "Record the day's session first (Sessions page, /fees/sessions/), then close its books."
        }
    )


def _check_forms_accounted_for(site: Site, gaming_date: date) -> None:
    """Every fill and credit slip accounted for (`floor.rules.SLIP_NUMBERING`, ND 99-01.3-08-05(2)
    where the pack states it): a slip issued for a table and not found in its box, or a form found
    that was not issued, is explained on its count before the day's books close."""
    from counts.queries import unexplained_forms

    if unexplained := unexplained_forms(site, gaming_date):
        raise ValidationError(
            {
                "gaming_date": f"{floor_rules.SLIP_NUMBERING.at(site)}: fill and credit slips are all accounted for; "
                f"the count of {gaming_date} shows {'; '.join(unexplained)}, not explained. A shift or gaming "
                "manager explains each on its count (the count session's page) before the books close."
            }
        )


def _check_drops_counted(site: Site, gaming_date: date, day: GamingDay | None) -> None:
    """Every drop box of the day has a standing signed count (`rules.DROP_COUNT`; ND
    99-01.3-08-16(1)(g) where the pack states it: the summaries reconcile to the return): a box
    carried past the gaming day's close, not removed or not counted, lets the gaming day close but
    never its books, which once closed take nothing dated that day (its drop would be lost and a
    wrong drop frozen). The box is removed and counted for its gaming date after the day's close."""
    from counts.queries import drops_not_counted
    from counts.rules import keeps_drop_boxes

    # A box of a table opened with no drop recorded is asked only where the site keeps drop boxes
    # (not at a fees room, counts.rules.keeps_drop_boxes); a drop recorded is counted everywhere.
    if not (open_boxes := drops_not_counted(site, gaming_date, day if keeps_drop_boxes(site) else None)):
        return
    tables = sorted({table for table, _ in open_boxes})
    numbers = ", ".join(str(n) for n in tables)
    raise ValidationError(
        {
            "gaming_date": f"{rules.DROP_COUNT.at(site)}: the drop of {noun_for(len(tables), 'table')} {numbers} "
            f"has no signed count yet: {'; '.join(what for _, what in open_boxes)}. {DROPS_TO_COUNT}"
        }
    )


def _check_bank_counted(site: Site, gaming_date: date, *, gaming_day_opened: bool = True) -> None:
    from cage.queries import bank_day

    bank = bank_day(site, gaming_date)
    missing = [
        label
        for label, cents in (("starting", bank.starting_cash_cents), ("ending", bank.ending_cash_cents))
        if cents is None
    ]
    if missing:
        # With no gaming day, the count is asked for the cash the day's records put at the cage.
        why = "" if gaming_day_opened else no_gaming_day_bank(site)
        raise ValidationError(
            {
                "gaming_date": f"{rules.BANK_RECORDS.at(site)}: the {' and '.join(missing)} cash bank count of {gaming_date} "
                f"is missing{why}."
            }
        )


def no_gaming_day_bank(site: Site) -> str:
    """Why a day with no gaming day asks for a bank count, naming only the cash the site's pack has
    (`cash_at_the_cage`): tournament fees or prizes where it states tournaments, its table fees or
    its sessions where its revenue is one of them, and an adjusting entry to the cash at every site."""
    held = [
        words
        for words, kept in (
            ("tournament fees or prizes", TOURNAMENT.applies(site)),
            ("table fees", keeps_table_fees(site)),
            ("games-of-chance sessions", keeps_sessions(site)),
            ("an adjusting entry to the cash", True),
        )
        if kept
    ]
    return (
        f" (no gaming day was opened, but cash was at the cage: {' or '.join(held)}; "
        "a day whose only records are adjustments of other figures needs no bank count)"
    )


def record_adjustment(
    *,
    acting_user,
    books_close: BooksClose,
    table: Table | None = None,
    field: str,
    amount_cents: int,
    reason: str,
    recorded_on: date,
) -> Adjustment:
    """Correct a closed day with a separate entry (never an edit): `amount_cents` (signed) of
    `field` for `table` (none for cash), entered on the later gaming day `recorded_on`, whose
    totals it counts in; both days' reports list it. The gaming manager records and approves it."""
    site = books_close.site
    employee = _adjustment_approver(acting_user, site)
    _check_adjustment(books_close, table, field, amount_cents, reason, recorded_on)
    with transaction.atomic():
        Site.objects.select_for_update().get(pk=site.pk)
        if queries.books_closed(site, recorded_on):
            raise ValidationError(
                {
                    "recorded_on": f"{rules.CLOSED_BOOKS}: the books of {recorded_on} are closed too; "
                    "record the adjustment on a day still open."
                }
            )
        entered_in = Quarter.containing(recorded_on)
        if queries.quarter_filing(site.pk, entered_in) is not None:
            raise ValidationError(
                {
                    "recorded_on": f"{rules.FILED_QUARTER}: the quarterly summary of {entered_in} is filed, so "
                    f"nothing is entered on {recorded_on}; record the adjustment on a gaming day of a quarter not "
                    "yet filed. It shows beside the filed figures it corrects as an amendment."
                }
            )
        adjustment = Adjustment.objects.create(
            books_close=books_close,
            recorded_on=recorded_on,
            table=table,
            field=field,
            amount_cents=amount_cents,
            reason=reason.strip(),
            recorded_by=employee,
            approved_by=employee,
            recorded_at=timezone.now(),
        )
        _audit(acting_user, "books.adjusted", adjustment, site=site)
        _amend_filed_quarter(adjustment)
    return adjustment


def _adjustment_approver(acting_user, site: Site):
    """The employee recording and approving an adjusting entry at `site`: a gaming manager there."""
    return acts.acting_employee(
        require_role(
            acting_user,
            site,
            *rules.ADJUSTMENT_APPROVERS,
            action="record an adjustment to closed books",
            rule=HOUSE_CONTROL,
        )  # fmt: skip
    )


def correct_date(*, acting_user, site: Site, corrected_date: date, **entry) -> Adjustment:
    """`record_adjustment` of the site's `corrected_date` named by its date rather than its closed
    books. Filing closes every date of a quarter (core.closing) but closes the books only of the days
    with something recorded (`file_quarter`): a date of a filed quarter with nothing of the books on
    it, where a record is found later (a fee envelope, a session sheet), has no closed books for an
    adjustment to point to. Its books are closed in the same act, their figures the nothing that
    stood at the filing, so the entry amends the filed quarter as any other does; a refused entry
    closes nothing. A date of a quarter not filed takes its records on its own day until its books
    close."""
    employee = _adjustment_approver(acting_user, site)
    with transaction.atomic():
        Site.objects.select_for_update().get(pk=site.pk)
        closed = BooksClose.objects.filter(site=site, gaming_date=corrected_date).first()
        if closed is None:
            closed = _close_quiet_filed_date(acting_user, employee, site, corrected_date)
        return record_adjustment(acting_user=acting_user, books_close=closed, **entry)


def _close_quiet_filed_date(acting_user, employee, site: Site, day: date) -> BooksClose:
    from .summaries import day_of_the_books, no_books_day

    quarter = Quarter.containing(day)
    if queries.quarter_filing(site.pk, quarter) is None or day_of_the_books(site, day) is not None:
        raise ValidationError(
            {
                "corrected_date": f"{rules.CLOSED_BOOKS}: the books of {day} at {site} are open, and only closed "
                "books take an adjusting entry: enter the record on its day, or close the day's books first."
            }
        )
    close = _books_closed(no_books_day(site, day), site, employee)
    why = f"nothing was recorded on it when the quarterly summary of {quarter} was filed; closed to take an adjusting entry"
    _audit(acting_user, "books.closed", close, site=site, after={**snapshot(close), "closed_because": why})
    return close


def _amend_filed_quarter(adjustment: Adjustment) -> None:
    """An adjustment correcting a day of a filed quarter amends that filing (accounting.amendments)."""
    from . import amendments
    from .summaries import adjustment_custody, adjustment_line

    site = adjustment.books_close.site
    filing = queries.quarter_filing(site.pk, Quarter.containing(adjustment.books_close.gaming_date))
    if filing is not None:
        effect = adjustment_custody([adjustment_line(adjustment)]).agp_cents
        amendments.amend_with_adjustment(filing, adjustment, effect)


def _field_refused(site: Site) -> str:
    """Why a figure is not corrected at `site` (`rules.adjustment_fields`), naming the figures that
    are: a drop pack's tables' custody and cash; a fees pack's fees collected and cash; a session
    pack's sessions' receipts and prizes and cash."""
    model = pack_for(site).revenue_model
    if model == RevenueModel.FEES:
        return (
            f"{floor_rules.FEES_ONLY.at(site)}: the house's revenue at {site} is the fees collected at its tables; "
            "no drop, fill, credit, tray count or session of the house is recorded there, so an adjusting entry "
            "corrects the fees collected or the cash."
        )
    if model == RevenueModel.SESSION:
        return (
            f"{rules.adjustment_rule(site, 'receipts')}: the day's figures at {site} are its games-of-chance "
            "sessions, not a drop; no table's drop, fill, credit or tray count and no table fee enters them, so an "
            "adjusting entry corrects the sessions' receipts or prizes, or the cash."
        )
    return (
        f"{rules.DAILY_SUMMARY.at(site)}: the day's figures at {site} are its tables' drop, fills, credits and "
        "tray counts; no games-of-chance session's receipts or prizes and no table fee enters them, so an "
        "adjusting entry corrects one of drop, fills, credits, opener, closer or cash."
    )


def _check_adjustment(books_close, table, field, amount_cents, reason, recorded_on) -> None:
    site, citation = books_close.site, rules.CLOSED_BOOKS
    if field not in Adjustment.Field.values:
        names = ", ".join(Adjustment.Field.values)
        raise ValidationError({"field": f"{citation}: an adjustment corrects one of {names}."})
    if field not in rules.adjustment_fields(site):
        raise ValidationError({"field": _field_refused(site)})
    if field in rules.SITE_FIGURES and table is not None:
        raise ValidationError(
            {"table": f"{rules.adjustment_rule(site, field)}: a {field} adjustment is the site's; give no table."}
        )
    if field not in rules.SITE_FIGURES and (table is None or table.site_id != site.pk):
        raise ValidationError({"table": f"{citation}: give the table of {site} whose {field} is corrected."})
    if isinstance(amount_cents, bool) or not isinstance(amount_cents, int) or amount_cents == 0:
        raise ValidationError({"amount_cents": f"{citation}: give the correction in whole cents, not zero."})
    if abs(amount_cents) > limits.MAX_AMOUNT_CENTS:  # the page's form had no bound: a 500 past SQLite's integer
        raise ValidationError({"amount_cents": limits.amount_message("The correction")})
    if not (reason or "").strip():
        raise ValidationError({"reason": f"{citation}: say why the closed figures are corrected."})
    if len(reason) > limits.MAX_TEXT_LENGTH:  # the page's form had no bound (the API's serializer has)
        raise ValidationError({"reason": limits.text_message("The reason")})
    today = site_today(site)
    if not isinstance(recorded_on, date) or isinstance(recorded_on, datetime):
        raise ValidationError({"recorded_on": f"{citation}: give the gaming date the adjustment is entered on."})
    if books_close.gaming_date >= today:  # no gaming day after it has begun yet: say when one does
        later = books_close.gaming_date + timedelta(days=1)
        begins = shown(site, gaming_day_bounds(site, later)[0])
        raise ValidationError(
            {
                "recorded_on": f"{citation}: an adjustment is entered on a gaming day after {books_close.gaming_date}, "
                f"the day whose books it corrects; the first, {later}, begins at {begins}: enter it then."
            }
        )
    if not books_close.gaming_date < recorded_on <= today:
        raise ValidationError(
            {
                "recorded_on": f"{citation}: an adjustment is entered on a gaming day after {books_close.gaming_date}, "
                f"up to today ({today})."
            }
        )


# --- Filing a quarter ------------------------------------------------------------------------------


def file_quarter(*, acting_user, site: Site, quarter: Quarter, reference: str = "") -> QuarterFiling:
    """Mark the site's twenty-one quarterly summary (SFN 50901) filed (ND 99-01.3-08-16(1)(g)).
    Once the quarter has ended, every gaming day in it is closed and every day with figures has
    closed books, its figures (the site's quarter day by day, each day with the digest of its
    closed books, and the organization's tax as it stands) are frozen with their SHA-256.
    Filing closes every date of the quarter (core.closing): a later correction is an
    adjustment entered in a later quarter, shown beside the filed figures as an amendment. Where
    the quarter's tax is on other sites' filed returns, and this filing changes the AGP recorded
    at the organization's sites, it amends each of them (`amendments.amend_with_site_filing`)."""
    from . import amendments, books
    from .summaries import organization_quarter

    employee = acts.acting_employee(
        require_role(acting_user, site, *rules.QUARTER_FILERS, action="file a quarterly summary", rule=HOUSE_CONTROL)
    )
    reference = (reference or "").strip()
    if len(reference) > QuarterFiling._meta.get_field("reference").max_length:
        raise ValidationError({"reference": f"{limits.CITED_HOUSE_CONTROL}: reference is at most 100 characters."})
    today = site_today(site)
    if quarter.end >= today:
        raise ValidationError(
            {"quarter": f"{rules.FILED_QUARTER}: {quarter} runs to {quarter.end}; it is filed once it has ended."}
        )
    with transaction.atomic():
        # One filing of the organization at a time, and none beside a record of its other games'
        # AGP: each reads the others' filings to freeze the tax and amend the returns before it.
        Organization.objects.select_for_update().get(pk=site.organization_id)
        Site.objects.select_for_update().get(pk=site.pk)
        _check_quarter_can_file(site, quarter)
        every_site = organization_quarter(site.organization, quarter)
        summary = next(s for s in every_site if s.site_id == site.pk)
        _check_quarter_books_closed(site, quarter, summary)
        others = books.filings([s.site_id for s in every_site], [quarter])
        tax = None
        if rules.GAMING_TAX.applies(site):  # the tax as it stands, where the pack taxes the quarter
            tax = books.tax_return(site.organization, quarter, every_site, others, filing_now=True)
        figures = frozen.filed_quarter(
            summary,
            books.quarter_closed_digests(summary),
            tax.figures if tax else None,
            [*tax.filed_sites, site.name] if tax else (),
        )
        filing = QuarterFiling.objects.create(
            site=site,
            quarter=str(quarter),
            start=quarter.start,
            end=quarter.end,
            filed_at=timezone.now(),
            filed_by=employee,
            reference=reference,
            figures=figures,
            figures_sha256=frozen.digest(figures),
        )
        _audit(acting_user, "quarter.filed", filing, site=site)
        for filed in hooks.QUARTER_FILED.answers():  # statefiling: the dealers' hold frozen, the package queued
            filed(filing)
        earlier = [f for (_, q), f in others.items() if q == str(quarter)]
        amendments.amend_with_site_filing(sorted(earlier, key=lambda f: (f.filed_at, f.pk)), filing)
    return filing


def _check_quarter_can_file(site: Site, quarter: Quarter) -> None:
    filed = queries.quarter_filing(site.pk, quarter)
    if filed is not None:
        raise ValidationError(
            {
                "quarter": f"{rules.FILED_QUARTER}: the quarterly summary of {quarter} at {site} was filed on "
                f"{shown(site, filed.filed_at)}; a correction is an adjustment entered in a later quarter, shown "
                "beside the filed figures as an amendment."
            }
        )
    still_open = GamingDay.objects.filter(
        site=site, gaming_date__range=(quarter.start, quarter.end), close__isnull=True
    )
    dates = [str(d) for d in still_open.values_list("gaming_date", flat=True)]
    if dates:
        raise ValidationError(
            {"quarter": f"{rules.GAMING_DAY_STATE}: close the gaming day {', '.join(dates)} first, then its books."}
        )


def _filed_only(site: Site) -> str:
    """Where the pack taxes the quarter, its summaries reconcile to the return (08-16(1)(g));
    elsewhere the quarter is the house's own filing."""
    return "reconcile to the return only" if rules.GAMING_TAX.applies(site) else "are filed only"


def _check_quarter_books_closed(site: Site, quarter: Quarter, summary) -> None:
    """Every day of the quarter with figures (tables, adjustments entered, tournament play, a counted
    bank, fees or sessions) has closed books."""
    records = record_dates([site.pk], quarter.start, quarter.end)  # fees or sessions: their days are the books'
    unclosed = [
        str(d.gaming_date)
        for d in summary.days
        if not d.books_closed
        and (
            d.tables
            or d.adjustments_recorded
            or not d.tournaments.is_empty
            or d.cash.cash_profit_cents is not None
            or (site.pk, d.gaming_date) in records
        )
    ]
    if unclosed:
        shown = ", ".join(unclosed[:10]) + (f" and {len(unclosed) - 10} more" if len(unclosed) > 10 else "")
        raise ValidationError(
            {
                "quarter": f"{rules.QUARTERLY_SUMMARY.at(site)}: the summaries of {quarter} {_filed_only(site)} "
                f"once every day's books are closed; close the books of {shown} first."
            }
        )


# --- The AGP of the organization's other games -----------------------------------------------------


def record_other_games_agp(
    *, acting_user, organization, quarter: Quarter, agp_cents: int, note: str, corrects=None
) -> OtherGamesAgp:
    """Record the AGP of the organization's other games (pull tabs, bingo...) for `quarter`, so
    the ND gaming tax brackets apply to the organization's total (N.D.C.C. 53-06.1-12). Never an
    edit: a correction is a new row naming the standing one in `corrects`. Gaming managers only;
    audited."""
    access = require_role(
        acting_user,
        None,
        *rules.OTHER_GAMES_RECORDERS,
        action="record the AGP of the organization's other games",
        rule=HOUSE_CONTROL,
    )
    if access.organization_id != organization.pk:
        raise PermissionDenied(f"{HOUSE_CONTROL}: only the organization's own gaming manager may record this.")
    from .summaries import taxing_pack

    taxing = taxing_pack(organization)
    if taxing is None:  # another state's obligation: no gaming tax on the organization's other games here
        raise ValidationError(
            {
                "quarter": f"{HOUSE_CONTROL}: no site of {organization} is under a law that taxes all its games; "
                "no other games' figure is recorded."
            }
        )
    employee = acts.acting_employee(access)
    citation = rules.GAMING_TAX.at(taxing)
    if isinstance(agp_cents, bool) or not isinstance(agp_cents, int):
        raise ValidationError({"agp_cents": f"{citation}: give the other games' AGP in whole cents."})
    if abs(agp_cents) > limits.MAX_AMOUNT_CENTS:
        raise ValidationError({"agp_cents": f"{citation}: at most {limits.MAX_AMOUNT_CENTS} cents."})
    note = (note or "").strip()
    if not note:
        raise ValidationError(
            {"note": f"{citation}: say where the other games' AGP comes from (the return, a ledger)."}
        )
    if len(note) > limits.MAX_TEXT_LENGTH:
        raise ValidationError({"note": limits.text_message("The note")})
    with transaction.atomic():
        Organization.objects.select_for_update().get(pk=organization.pk)
        standing = queries.other_games_agp(organization.pk, quarter)
        if standing is not None and (corrects is None or corrects.pk != standing.pk):
            raise ValidationError(
                {
                    "corrects": f"{HOUSE_CONTROL}: {quarter} already has the other games' AGP recorded "
                    f"(entry {standing.pk}); a correction names that entry, it never replaces it silently."
                }
            )
        if standing is None and corrects is not None:
            raise ValidationError({"corrects": f"{HOUSE_CONTROL}: there is nothing recorded for {quarter} to correct."})
        row = OtherGamesAgp.objects.create(
            organization=organization,
            quarter=str(quarter),
            agp_cents=agp_cents,
            note=note,
            corrects=corrects,
            recorded_by=employee,
            recorded_at=timezone.now(),
        )
        record_event(
            actor=acting_user,
            action="other_games_agp.recorded" if corrects is None else "other_games_agp.corrected",
            obj=row,
            organization_id=organization.pk,
            after=snapshot(row),
        )
        _amend_filed_returns(organization, quarter, row, standing)
    return row


def _amend_filed_returns(organization, quarter: Quarter, row: OtherGamesAgp, standing: OtherGamesAgp | None) -> None:
    """The other games' AGP recorded after some sites filed the quarter changes the tax on their
    returns (the brackets apply to the organization's AGP from all its games): it amends each
    of those filings (accounting.amendments); the filed figures stay as filed."""
    from . import amendments

    delta = row.agp_cents - (standing.agp_cents if standing is not None else 0)
    filed = QuarterFiling.objects.filter(site__organization=organization, quarter=str(quarter)).select_related("site")
    if delta:
        amendments.amend_with_other_games(list(filed), row, delta)
