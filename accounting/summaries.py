"""Daily and quarterly figures of sites (SFN 50079 and SFN 50901 models), built on each
table-day's custody (`accounting.table_days`) and `accounting.figures`.

Every function here issues a fixed number of queries whatever the number of sites, tables,
days and slips (asserted in tests/accounting/test_summaries.py)."""

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal

from django.db.models import Exists, OuterRef

from cage.calculations import deposit_due_on, deposit_is_late
from cardroom.models import Game, Site
from core.periods import Quarter
from core.rows import shaped_rows
from fees.queries import fee_totals_by_day, no_fees, no_sessions, record_dates, session_totals_by_day
from floor.models import GamingDay, GamingDayClose
from packs import RevenueModel, get_pack
from tournaments import calculations as tournament_figures
from tournaments.calculations import NO_TOURNAMENTS, TournamentFigures
from tournaments.queries import FoundLate
from tournaments.queries import figures_by_day as tournament_days
from tournaments.queries import found_late as tournaments_found_late

from . import figures, rules
from .day_figures import table_days as snapshot_table_days
from .figures import Custody
from .models import Adjustment, BooksClose
from .pack_figures import with_adjustments
from .queries import adjustments_around
from .table_days import (
    TableDay,
    drop_quarter_totals_query,
    drop_window_totals_query,
    slip_quarter_totals_query,
    slip_window_totals_query,
    table_days,
    table_numbers_query,
    tray_quarter_totals_query,
    tray_window_totals_query,
)


@dataclass(frozen=True)
class CashFigures:
    """The cage side of a site's day (None where the bank was not counted)."""

    cash_profit_cents: int | None
    long_short_cents: int | None
    chips_outside_change_cents: int | None  # the reconciling line
    unexplained_cents: int | None
    deposit_expected_cents: int | None
    deposit_recorded_cents: int | None
    deposited_on: date | None
    deposit_verified: bool
    deposit_due: date
    # The day's tournament play in the cash (ND 99-01.3-08-15, 08-16(1)(e)-(g)): its AGP, which
    # the long (short) is against beside the tables', and its prizes not paid from the cash bank
    # (merchandise at its value), out of the cash profit and back into the deposit (`cash_figures`).
    tournament_agp_cents: int = 0
    prizes_not_in_cash_cents: int = 0

    @property
    def deposit_difference_cents(self) -> int | None:
        """The deposit recorded less the deposit expected (the day's cash profit; none, 0, on a
        losing day): negative when short. None until both are known."""
        if self.deposit_recorded_cents is None or self.deposit_expected_cents is None:
            return None
        return self.deposit_recorded_cents - max(self.deposit_expected_cents, 0)

    def deposit_late(self, today: date) -> bool:
        """Is the deposit past its due date (`deposit_due`, the one the CSV and the API give) on
        `today`: made after it, or not made and the date passed? (`cage.calculations.deposit_is_late`:
        the compliance alert "Bank deposit late" judges the same.)"""
        return deposit_is_late(self.deposited_on, self.deposit_due, today)


@dataclass(frozen=True)
class AdjustmentLine:
    """A correction to closed books, as the reports list it."""

    adjustment_id: int
    corrected_date: date  # the closed day it corrects
    recorded_on: date  # the gaming day whose totals it counts in
    table_number: int | None
    game: str | None
    field: str  # drop, fills, credits, opener, closer, cash; receipts, prizes (NY); fees (WA-BJ)
    amount_cents: int
    reason: str
    recorded_by_initials: str
    approved_by_initials: str
    recorded_at: datetime

    @property
    def figure(self) -> str:
        """The figure it corrects in words: "drop", "cash", "session receipts", "table fees collected"."""
        return rules.FIGURE_WORDS.get(self.field, self.field)


def adjustment_line(a: Adjustment) -> AdjustmentLine:
    table = a.table
    return AdjustmentLine(
        a.pk,
        a.books_close.gaming_date,
        a.recorded_on,
        table.number if table else None,
        table.game if table else None,
        a.field,
        a.amount_cents,
        a.reason,
        a.recorded_by.initials,
        a.approved_by.initials,
        a.recorded_at,
    )


def adjustment_custody(lines, game: str | None = None) -> Custody:
    """The chip and cash movements the adjustments add (of one game's tables, given `game`)."""
    if not lines:
        return figures.ZERO
    amounts = defaultdict(int)
    for line in lines:
        if game is None or line.game == game:
            amounts[line.field] += line.amount_cents
    return Custody(amounts["drop"], amounts["fills"], amounts["credits"], amounts["opener"], amounts["closer"])


@dataclass(frozen=True)
class DailySummary:
    site_id: int
    site_name: str
    gaming_date: date
    tables: tuple[TableDay, ...]
    total: Custody
    twenty_one: Custody
    paddlewheel: Custody
    cash: CashFigures
    gaming_day_closed: bool
    books_closed: bool = False
    # Entered on this day: they count in this day's totals (so a quarter counts each once).
    adjustments_recorded: tuple[AdjustmentLine, ...] = ()
    # Entered later to correct this (closed) day: listed here, counted on the day entered.
    adjustments_to_this_day: tuple[AdjustmentLine, ...] = ()
    # Tournament play of the day (ND 99-01.3-08-16(1)(e)-(g)): fees collected (gross proceeds),
    # prizes awarded, and their difference, as lines of their own beside the tables' figures.
    tournaments: TournamentFigures = NO_TOURNAMENTS
    # Where the site's pack takes its revenue as table fees (WA-BJ) or games-of-chance sessions
    # (NY): the day's {"fees": {...}} or {"sessions": {...}} (fees.queries; zeros on a day without
    # any); empty at a drop pack's site.
    pack: dict = field(default_factory=dict)
    # Was a gaming day opened on this date? False on a day of the books with records only (an
    # adjustment entered, tournament play, fees or sessions): not a gaming day of the quarter.
    gaming_day_opened: bool = True
    # Were table fees, sessions or tournament fees recorded on this date, standing or voided (a
    # fees or session pack's records, tournament play)? On a day that collected nothing
    # (`takes_deposit`) every one of them was voided (`nothing_collected`).
    collections_recorded: bool = False
    # Tournament fees and prizes found after the books of their tournament's (closed) day: entered on
    # this day, counted in its tournament figures, each naming the closed day it belongs to...
    tournament_late_recorded: tuple[FoundLate, ...] = ()
    # ...and on that closed day, listed as found later and not counted again, like an adjusting entry's.
    tournament_late_to_this_day: tuple[FoundLate, ...] = ()

    @property
    def twenty_one_agp_with_tournaments_cents(self) -> int:
        """All twenty-one activity of the day: the twenty-one tables' AGP plus the tournaments'."""
        return self.twenty_one.agp_cents + self.tournaments.agp_cents

    @property
    def hold_ratio(self) -> Decimal | None:
        return self.total.hold_ratio

    @property
    def in_play(self) -> bool:
        """Is the day's play not ended: a gaming day opened and not closed (the daily page's "the
        gaming day is not closed: figures may still change")? A table still in play has no closer
        yet: its figures that need one are not known (`Custody.closer_known`), so such a day's
        figures are its own page's only, never in a quarter's totals (`quarter_summaries`). A day of the books with records
        only (no gaming day opened) has no play to end."""
        return self.gaming_day_opened and not self.gaming_day_closed


def _game_sums(days) -> tuple[Custody, Custody, Custody]:
    """All the table-days' custody summed, and the twenty-one and paddlewheel tables' (one
    pass over the days: the all-tables sum is the sum of each game's)."""
    by_game = defaultdict(list)
    for d in days:
        by_game[d.game].append(d.custody)
    sums = {game: figures.total(custodies) for game, custodies in by_game.items()}
    return figures.total(sums.values()), sums.get("21", figures.ZERO), sums.get("PW", figures.ZERO)


def cash_figures(
    where,
    day: date,
    total: Custody,
    bank,
    next_bank,
    cash_adjustment_cents: int = 0,
    tournaments: TournamentFigures = NO_TOURNAMENTS,
) -> CashFigures:
    """Cash profit, long/short and its reconciling line, and the deposit, from the cage's day.
    `cash_adjustment_cents`: corrections of cash recorded on this day, added to the cash profit.
    `where`: the site (or its pack's code), whose deposit deadline is due without a bank day.

    Tournament play (ND 99-01.3-08-15: a tournament is conducted "according to this chapter", so
    it is twenty-one activity of the day, 08-16(1)(e)-(g)). *Assumed*: its fees are collected into,
    and its cash prizes paid from, the site's cash bank (the chapter keeps one cash bank for
    twenty-one, 08-16(1)(a)), so the bank count already holds them. The day's cash long (short) is
    therefore the cash profit less the AGP of all its twenty-one activity, the tables' and the
    tournaments' (the sum 08-16(1)(g) reconciles to the return), never the tournaments' cash left
    unexplained beside the tables' AGP. A merchandise prize lowers the AGP at its value but takes
    no cash from the bank: it is out of the cash profit as the other prizes are, and back into the
    deposit as a prize paid by check is (ND 99-01.3-03-10(1))."""

    due = deposit_due_on(where, day) if bank is None else bank.deposit_due
    counted = bank is not None and None not in (bank.starting_cash_cents, bank.ending_cash_cents)
    deposit = bank.deposit if bank is not None else None
    if not counted:
        return CashFigures(
            None,
            None,
            None,
            None,
            None,
            deposit.amount_cents if deposit else None,
            deposit.deposited_on if deposit else None,
            bool(deposit and deposit.verified),
            due,
            tournaments.agp_cents,
            tournaments.merchandise_prizes_cents,
        )
    not_in_cash = tournaments.merchandise_prizes_cents
    profit = (
        figures.cash_profit(
            starting_cash_cents=bank.starting_cash_cents,
            ending_cash_cents=bank.ending_cash_cents,
            drop_cents=total.drop_cents,
            ious_net_cents=bank.ious_net_cents - bank.ious_net_start_cents,
        )
        + cash_adjustment_cents
        - not_in_cash
    )
    long_short = chips_line = None
    # While a table has no closer yet its AGP is not known (`Custody.closer_known`, House control:
    # tray counts), nor the long (short) against it, nor its reconciling line (the chips at the tables).
    if total.closer_known:
        agp = total.agp_cents + tournaments.agp_cents
        long_short = figures.cash_long_short(cash_profit_cents=profit, agp_cents=agp)
    if total.closer_known and None not in (bank.starting_chips_cents, bank.ending_chips_cents):
        bank_change = bank.ending_chips_cents - bank.starting_chips_cents
        chips_line = -(bank_change + total.closer_cents - total.opener_cents)
    increase = 0
    if next_bank is not None and next_bank.starting_cash_cents is not None:
        increase = next_bank.starting_cash_cents - bank.starting_cash_cents
    expected = figures.bank_deposit(
        cash_profit_cents=profit, next_day_starting_cash_increase_cents=increase, prizes_paid_by_check_cents=not_in_cash
    )
    return CashFigures(
        profit,
        long_short,
        chips_line,
        None if chips_line is None or long_short is None else long_short - chips_line,
        expected,
        deposit.amount_cents if deposit else None,
        deposit.deposited_on if deposit else None,
        bool(deposit and deposit.verified),
        due,
        tournaments.agp_cents,
        not_in_cash,
    )


def _gaming_day_states_query(*, site_ids, start, end):
    """Each gaming day: site, date, whether it is closed and whether its books are."""
    closed_books = BooksClose.objects.filter(site_id=OuterRef("site_id"), gaming_date=OuterRef("gaming_date"))
    return (
        GamingDay.objects.filter(site_id__in=site_ids, gaming_date__range=(start, end))
        .order_by()
        .values_list("site_id", "gaming_date", Exists(GamingDayClose.objects.filter(gaming_day=OuterRef("pk"))))
        .annotate(books_closed=Exists(closed_books))
    )


def daily_summaries(
    sites: list[Site], start: date, end: date, *, snapshots: bool = False, days: list[TableDay] | None = None
) -> list[DailySummary]:
    """One summary per site and gaming day in [start, end] that had a gaming day, activity or
    an adjustment recorded. Adjustments count in the totals of the day they are recorded on.
    `snapshots`: closed days' custody from their snapshots (accounting.day_figures), the same figures;
    `days`: the sites' table days of [start, end] already read (accounting.day_figures)."""
    from cage.queries import bank_days

    site_ids = [s.pk for s in sites]
    names = {s.pk: s.name for s in sites}
    codes = {s.pk: s.jurisdiction for s in sites}  # each site's pack (its deposit deadline)
    if days is None:
        days = (snapshot_table_days if snapshots else table_days)(site_ids, start, end)
    banks = bank_days(site_ids, start, end + timedelta(days=1), jurisdictions=codes)
    rows = shaped_rows(_gaming_day_states_query, site_ids=site_ids, start=start, end=end)
    gaming_days = {(site_id, day): (closed, books) for site_id, day, closed, books in rows}  # closed: the day's close
    recorded, corrections = _adjustments(site_ids, start, end)
    tournaments = tournament_days(site_ids, start, end)
    late = tournaments_found_late(site_ids, start, end)
    grouped = defaultdict(list)
    for d in days:
        grouped[(d.site_id, d.gaming_date)].append(d)
    # The days of the books: a gaming day opened, or records of the books without one (an
    # adjustment entered, tournament play, a fees or session pack's records). One predicate: the
    # quarter lists these days, and only these close (accounting.services.close_books, the daily page).
    collections = set(tournaments) | _record_days(codes, start, end)  # standing or voided
    records = set(recorded) | collections
    opened = set(gaming_days)  # the days a gaming day was opened on, before the days of records only
    gaming_days |= _books_of_record_days(records - opened, start, end)
    keys = sorted(set(grouped) | set(gaming_days))
    packs = _pack_days(codes, start, end)
    read = _DaysRead(
        names, codes, grouped, gaming_days, banks, recorded, corrections, tournaments, packs, opened, collections, late
    )
    return [_daily(site_id, day, read) for site_id, day in keys]


@dataclass(frozen=True)
class _DaysRead:
    """What `daily_summaries` read of its sites' days, once for them all: by site id (`names`,
    `codes`: each site's pack) or by (site id, gaming date)."""

    names: dict
    codes: dict
    grouped: dict  # the table-days
    gaming_days: dict  # (closed, books closed) of each day of the books
    banks: dict
    recorded: dict  # the adjusting entries recorded on the day
    corrections: dict  # those correcting the day
    tournaments: dict
    packs: dict
    opened: set  # the days a gaming day was opened on
    collections: set  # the days with fees, sessions or tournament fees recorded, standing or voided
    late: tuple  # the tournament records found late: by the day entered, by the closed day they belong to


# The block a fees or session pack's revenue takes in a summary (and in the frozen documents)
PACK_BLOCK = {RevenueModel.FEES: "fees", RevenueModel.SESSION: "sessions"}


def _pack_days(codes: dict[int, str], start: date, end: date) -> dict[tuple[int, date], dict]:
    """{(site id, gaming date): {"fees": ...} or {"sessions": ...}} of the sites whose pack's
    revenue is its table fees or its games-of-chance sessions, each day's as the daily page shows
    it (fees.queries); three queries at most, none where every site's pack is drop-based."""
    by_model = defaultdict(list)
    for pk, code in codes.items():
        by_model[get_pack(code).revenue_model].append(pk)
    found = {}
    if by_model[RevenueModel.FEES]:
        fees = fee_totals_by_day(by_model[RevenueModel.FEES], start, end)
        found.update({key: {PACK_BLOCK[RevenueModel.FEES]: block} for key, block in fees.items()})
    if by_model[RevenueModel.SESSION]:
        sessions = session_totals_by_day(by_model[RevenueModel.SESSION], start, end)
        found.update({key: {PACK_BLOCK[RevenueModel.SESSION]: block} for key, block in sessions.items()})
    return found


def _no_pack_figures(code: str) -> dict:
    """A day's or a quarter's pack figures with nothing recorded: zeros for a fees or session pack
    (its return says $0.00, never "not known"), nothing for a drop pack."""
    model = get_pack(code).revenue_model
    zeros = {RevenueModel.FEES: no_fees, RevenueModel.SESSION: no_sessions}
    return {PACK_BLOCK[model]: zeros[model]()} if model in PACK_BLOCK else {}


def _pack_sum(days, code: str) -> dict:
    """The days' pack figures (DailySummary.pack) summed figure by figure (each a count or cents),
    from zeros for the pack of `code`."""
    total: dict[str, dict[str, int]] = {kind: dict(block) for kind, block in _no_pack_figures(code).items()}
    for d in days:
        for kind, block in d.pack.items():
            sums = total.setdefault(kind, dict.fromkeys(block, 0))
            for key, value in block.items():  # an entries' sum (rules.PACK_ADJUSTED) only where a day has one
                sums[key] = sums.get(key, 0) + value
    return total


def _record_days(codes: dict[int, str], start: date, end: date) -> set[tuple[int, date]]:
    """The days of the sites whose pack's revenue is its fees or sessions that have such a record,
    gaming day or not: they are days of the books (closed and filed as any other). One query, and
    none where every site's pack is drop-based."""
    site_ids = [pk for pk, code in codes.items() if get_pack(code).revenue_model != RevenueModel.DROP]
    return record_dates(site_ids, start, end) if site_ids else set()


def _books_of_record_days(days: set[tuple[int, date]], start: date, end: date) -> dict:
    """The states of the days of the books with records and no gaming day (an adjustment entered,
    tournament play, a fees or session pack's records), as `_gaming_day_states_query`'s: no gaming
    day to be closed, and whether their books are (one query, none when every such day has a
    gaming day)."""
    if not days:
        return {}
    closed = set(
        BooksClose.objects.filter(site_id__in={site_id for site_id, _ in days}, gaming_date__range=(start, end))
        .order_by()
        .values_list("site_id", "gaming_date")
    )
    return {key: (False, key in closed) for key in days}


def _adjustment_lines_query(*, site_ids, start, end):
    """What `adjustment_line` reads of each adjustment of `adjustments_around`, and its site."""
    return adjustments_around(site_ids, start, end).values_list(
        "books_close__site_id", "pk", "books_close__gaming_date", "recorded_on", "table__number", "table__game",
        "field", "amount_cents", "reason", "recorded_by__initials", "approved_by__initials", "recorded_at",
    )  # fmt: skip


def _adjustments(site_ids, start, end) -> tuple[dict, dict]:
    """{(site_id, gaming_date): [AdjustmentLine]} by the day recorded on and by the day corrected."""
    recorded, corrections = defaultdict(list), defaultdict(list)
    for site_id, *values in shaped_rows(_adjustment_lines_query, site_ids=list(site_ids), start=start, end=end):
        line = AdjustmentLine(*values)
        if start <= line.recorded_on <= end:
            recorded[(site_id, line.recorded_on)].append(line)
        if start <= line.corrected_date <= end:
            corrections[(site_id, line.corrected_date)].append(line)
    return recorded, corrections


def _daily(site_id: int, day: date, read: _DaysRead) -> DailySummary:
    key, code = (site_id, day), read.codes[site_id]
    rows, entered = read.grouped.get(key, []), tuple(read.recorded.get(key, ()))
    gaming_day = read.gaming_days.get(key)
    total, twenty_one, paddlewheel = _game_sums(rows)
    if entered:
        total += adjustment_custody(entered)
        twenty_one += adjustment_custody(entered, "21")
        paddlewheel += adjustment_custody(entered, "PW")
    cash_adjustment = sum(line.amount_cents for line in entered if line.field == Adjustment.Field.CASH)
    played = read.tournaments.get(key, NO_TOURNAMENTS)
    next_bank = read.banks.get((site_id, day + timedelta(days=1)))
    return DailySummary(
        site_id,
        read.names[site_id],
        day,
        tuple(rows),
        total,
        twenty_one,
        paddlewheel,
        cash_figures(code, day, total, read.banks.get(key), next_bank, cash_adjustment, played),
        bool(gaming_day and gaming_day[0]),
        bool(gaming_day and gaming_day[1]),
        entered,
        tuple(read.corrections.get(key, ())),
        played,
        with_adjustments(read.packs.get(key) or _no_pack_figures(code), entered),
        key in read.opened,
        key in read.collections,
        tuple(read.late[0].get(key, ())),
        tuple(read.late[1].get(key, ())),
    )


def day_of_the_books(
    site: Site, day: date, *, snapshots: bool = False, days: list[TableDay] | None = None
) -> DailySummary | None:
    """The site's summary of `day` where it is a day of its books, as its quarter lists it
    (`daily_summaries`: a gaming day opened, an adjustment entered, tournament play, a fees or
    session pack's records); None where nothing of its books is recorded on it: nothing to close."""
    found = daily_summaries([site], day, day, snapshots=snapshots, days=days)
    return found[0] if found else None


def is_books_day(site_id: int, day: date) -> bool:
    """Is `day` a day of the site's books (`day_of_the_books`)? The answer the books register for
    the layers below (core.closing)."""
    return day_of_the_books(Site.objects.get(pk=site_id), day) is not None


def daily_summary(
    site: Site, day: date, *, snapshots: bool = False, days: list[TableDay] | None = None
) -> DailySummary:
    found = day_of_the_books(site, day, snapshots=snapshots, days=days)
    return found if found is not None else no_books_day(site, day)


def no_books_day(site: Site, day: date) -> DailySummary:
    """The summary of a date with nothing of the books on it: every figure zero. Where its books were
    closed to take an adjusting entry (a date of a filed quarter with nothing recorded on it,
    accounting.services.correct_date), closed, with the entries correcting it listed: one query."""
    corrections = tuple(
        adjustment_line(a)
        for a in Adjustment.objects.filter(books_close__site_id=site.pk, books_close__gaming_date=day)
        .select_related("books_close", "table", "recorded_by", "approved_by")
        .order_by("recorded_on", "id")
    )
    return DailySummary(
        site.pk,
        site.name,
        day,
        (),
        figures.ZERO,
        figures.ZERO,
        figures.ZERO,
        cash_figures(site, day, figures.ZERO, None, None),
        False,
        books_closed=bool(corrections),
        adjustments_to_this_day=corrections,
        gaming_day_opened=False,
    )


@dataclass(frozen=True)
class QuarterSummary:
    site_id: int
    site_name: str
    quarter: Quarter
    days: tuple[DailySummary, ...]
    total: Custody
    twenty_one: Custody
    paddlewheel: Custody
    # Sums over the days whose cash bank was counted at both ends; None (not known, never
    # $0.00) when no day of the quarter was. `days_without_bank_count`: the days that took cash
    # (table or tournament play, table fees or sessions: `played_for_cash`) without both counts.
    cash_profit_cents: int | None
    long_short_cents: int | None
    days_without_bank_count: int
    # The quarter's tournament play (ND 99-01.3-08-16(1)(g)): the sum of the days'.
    tournaments: TournamentFigures = NO_TOURNAMENTS
    # The reconciling lines of the cash long (short), as the daily report shows them: over the
    # days whose chips were counted too, long (short) = change in chips outside the house +
    # unexplained; the long (short) of counted days without a chip count is its own line.
    # Together: long_short = chips_outside_change + unexplained + long_short_without_chip_count.
    chips_outside_change_cents: int | None = None
    unexplained_cents: int | None = None
    long_short_without_chip_count_cents: int = 0
    days_without_chip_count: int = 0
    jurisdiction: str = ""  # the site's (Site.jurisdiction): only sites whose pack states the gaming tax are in it
    pack: dict = field(default_factory=dict)  # the days' fees or sessions summed (DailySummary.pack)

    @property
    def hold_ratio(self) -> Decimal | None:
        return self.total.hold_ratio

    @property
    def twenty_one_agp_with_tournaments_cents(self) -> int:
        return self.twenty_one.agp_cents + self.tournaments.agp_cents

    @property
    def gaming_days(self) -> int:
        """The days of the quarter a gaming day was opened on; a date of the books with only
        tournament play (ND 99-01.3-08-15 asks no gaming day of it), an adjustment entered, fees or
        sessions is not one (`record_only_days`)."""
        return sum(1 for d in self.days if d.gaming_day_opened)

    @property
    def nothing_played(self) -> bool:
        """No gaming day opened and no play of any kind in the quarter (a seasonal site out of its
        season): its cash figures are none, $0.00, never "not known" as if a bank count were
        missing (`return_cash_profit`). A fees or session pack's day of fees or sessions is play
        (its pack's revenue) though it opens no gaming day (`played_for_cash`)."""
        return not any(d.gaming_day_opened or played_for_cash(d) for d in self.days)

    @property
    def days_in_play(self) -> tuple[DailySummary, ...]:
        """The days whose play has not ended (`DailySummary.in_play`): listed with their own
        figures, not in the quarter's table totals (`quarter_summaries`)."""
        return tuple(d for d in self.days if d.in_play)

    @property
    def record_only_days(self) -> tuple[DailySummary, ...]:
        """The days of the books with no gaming day opened on them."""
        return tuple(d for d in self.days if not d.gaming_day_opened)

    @property
    def tournament_days(self) -> tuple[DailySummary, ...]:
        """The days with tournament play: their rows carry the tables' figures only, the
        tournaments' are the quarter's tournament lines (`tournament_days_statement`)."""
        return tuple(d for d in self.days if not d.tournaments.is_empty)


def fees_or_sessions(day: DailySummary) -> bool:
    """Were table fees (WA-BJ) or games-of-chance sessions (NY) recorded on the day (`DailySummary.pack`)?
    Counted by their records (a fee's void is on its fee's day, so a day of voided fees has none): an
    adjusting entry to the fees or the sessions' receipts or prizes recorded on a day moves its figures,
    yet is no fee or session of it (a day whose only record is an adjustment takes no cash)."""
    return any(block.get("collections") or block.get("sessions") for block in day.pack.values())


def played_for_cash(day: DailySummary) -> bool:
    """Did the day take cash its bank count answers for: table play, tournament play (its fees
    and cash prizes are the cash bank's, `cash_figures`), or a fees or session pack's table fees or
    sessions (`fees_or_sessions`: the cash its books close on a bank count for,
    `accounting.services.cash_at_the_cage`)? Such a day without a bank count leaves its cash out of
    the quarter's cash profit (`QuarterSummary.days_without_bank_count`; a filed quarter of frozen
    format 4 or earlier counted fewer days, `accounting.frozen`)."""
    return bool(day.tables) or not day.tournaments.is_empty or fees_or_sessions(day)


def takes_deposit(day: DailySummary) -> bool:
    """Does the day take a bank deposit: a gaming day opened, or cash taken without one (`played_for_cash`:
    a fees, session or tournament day, its fees or sessions standing)? A day whose only records are
    adjusting entries, or fees, sessions or tournament fees all voided, collected nothing: no deposit is
    due for it (the cage's days, `core.closing.collecting_days`, say the same), unless one was recorded
    anyway."""
    return day.gaming_day_opened or played_for_cash(day) or day.cash.deposit_recorded_cents is not None


# What a day's voided records were, by its pack's revenue (`DailySummary.pack`; a drop pack's: tournament fees).
VOIDED_RECORDS = {"fees": "table fee", "sessions": "games-of-chance session"}


def nothing_collected(day: DailySummary, entries: str = "adjusting entries") -> str:
    """Why a day of the books that takes no deposit (`takes_deposit`) collected nothing, in words: its
    only records are adjusting entries; or every fee (a fees pack's), session (a session pack's) or
    tournament fee recorded on it was voided (`collections_recorded`: a day of the books with
    nothing standing); or both. `entries`: what its adjusting entries are called."""
    if day.adjustments_recorded and not day.collections_recorded:
        return f"its only records are {entries}"
    voided = next((VOIDED_RECORDS[kind] for kind in day.pack if kind in VOIDED_RECORDS), "tournament fee")
    also = f", and its other records are {entries}" if day.adjustments_recorded else ""
    return f"every {voided} recorded on it was voided{also}"


def _known_sum(values) -> int | None:
    values = [v for v in values if v is not None]
    return sum(values) if values else None


def quarter_summaries(sites: list[Site], quarter: Quarter, *, snapshots: bool = False) -> list[QuarterSummary]:
    """The sum of the daily summaries; percent-of-hold as the ratio of the sums."""
    by_site = defaultdict(list)
    for summary in daily_summaries(sites, quarter.start, quarter.end, snapshots=snapshots):
        by_site[summary.site_id].append(summary)
    result = []
    for site in sites:
        days = by_site.get(site.pk, [])
        ended = [d for d in days if not d.in_play]  # a day still in play is listed, not summed
        cash_days = [d for d in days if d.cash.cash_profit_cents is not None]
        # A day in play with a table not closed has its long (short) not known: in neither line.
        without_chips = [
            d for d in cash_days if d.cash.chips_outside_change_cents is None and d.cash.long_short_cents is not None
        ]
        result.append(
            QuarterSummary(
                site.pk,
                site.name,
                quarter,
                tuple(days),
                figures.total(d.total for d in ended),
                figures.total(d.twenty_one for d in ended),
                figures.total(d.paddlewheel for d in ended),
                _known_sum(d.cash.cash_profit_cents for d in cash_days),
                _known_sum(d.cash.long_short_cents for d in cash_days),
                sum(1 for d in days if d.cash.cash_profit_cents is None and played_for_cash(d)),
                tournament_figures.total(d.tournaments for d in days),
                _known_sum(d.cash.chips_outside_change_cents for d in cash_days),
                _known_sum(d.cash.unexplained_cents for d in cash_days),
                sum(d.cash.long_short_cents for d in without_chips),
                len(without_chips),
                site.jurisdiction,
                _pack_sum(days, site.jurisdiction),
            )
        )
    return result


def quarter_summary(site: Site, quarter: Quarter, *, snapshots: bool = False) -> QuarterSummary:
    return quarter_summaries([site], quarter, snapshots=snapshots)[0]


def game_totals(site_ids, start: date, end: date) -> dict[tuple[int, str], Custody]:
    """{(site_id, game): Custody} for every site and game of [start, end]: what `quarter_summaries`
    gives as `twenty_one` and `paddlewheel` (the table-days' custody, a missing opener or closer
    counting 0, plus the adjustments recorded in the window), without building each day: the
    database sums each table over the window, and the tables are added up by game here. ZERO
    where nothing happened. Five queries whatever the number of sites (the compliance scan's
    quarter rules ask for hundreds)."""
    site_ids = list(site_ids)
    return _game_totals(site_ids, _table_custody_parts(site_ids, start, end), _adjustments(site_ids, start, end)[0])[
        None
    ]


def quarter_game_totals(site_ids, first: Quarter, last: Quarter) -> dict[Quarter, dict[tuple[int, str], Custody]]:
    """`game_totals` of each quarter from `first` to `last`, in the same five queries: the
    database sums each table by quarter over the whole span (a scan of eight quarters reads
    each row once, not once a quarter)."""
    site_ids = list(site_ids)
    parts = _table_custody_parts(site_ids, first.start, last.end, by_quarter=True)
    totals = _game_totals(site_ids, parts, _adjustments(site_ids, first.start, last.end)[0], by_quarter=True)
    quarters, quarter = [], first
    while quarter <= last:
        quarters.append(quarter)
        quarter = quarter.next()
    nothing = {(site_id, game): figures.ZERO for site_id in site_ids for game in Game.values}
    return {q: totals.get(q.start, nothing) for q in quarters}


def _game_totals(site_ids, parts: dict, recorded: dict, by_quarter: bool = False) -> dict:
    """{period: {(site_id, game): Custody}} from the tables' parts keyed (site_id, table_id,
    period) and the adjustments recorded by (site_id, day); the period is the quarter's first
    day, or None for the whole window."""
    games = {pk: game for pk, _, game in shaped_rows(table_numbers_query, ids=sorted({k[1] for k in parts}))}
    by_game = defaultdict(list)
    for (site_id, table_id, period), custodies in parts.items():
        by_game[(period, site_id, games[table_id])].extend(custodies)
    entered = defaultdict(list)
    for (site_id, day), lines in recorded.items():
        entered[(Quarter.containing(day).start if by_quarter else None, site_id)].extend(lines)
    periods = (
        {period for period, _, _ in by_game} | {period for period, _ in entered} | ({None} if not by_quarter else set())
    )
    return {
        period: {
            (site_id, game): figures.total(by_game[(period, site_id, game)])
            + adjustment_custody(entered[(period, site_id)], game)
            for site_id in site_ids
            for game in Game.values
        }
        for period in periods
    }


def _table_custody_parts(site_ids, start, end, *, by_quarter: bool = False) -> dict:
    """{(site_id, table_id, period): [Custody]} of [start, end]: the signed drops, the live slips
    and the trays, one part each; the period is the quarter's first day (`by_quarter`) or None.
    Grouped by table, not by game: joined to the tables, the drops' query (its row count
    misjudged by the planner) scanned the tables once per drop."""
    arguments = {"site_ids": site_ids, "start": start, "end": end}
    if by_quarter:
        queries = (drop_quarter_totals_query, slip_quarter_totals_query, tray_quarter_totals_query)
    else:
        queries = (drop_window_totals_query, slip_window_totals_query, tray_window_totals_query)
    parts = defaultdict(list)

    def key(site_id, table_id, *period):
        return (site_id, table_id, _as_date(period[0]) if period else None)

    for site_id, table_id, *rest in shaped_rows(queries[0], **arguments):
        *period, cents = rest
        parts[key(site_id, table_id, *period)].append(Custody(cents, 0, 0, 0, 0))
    for site_id, table_id, *rest in shaped_rows(queries[1], **arguments):
        *period, fills, credits = rest
        parts[key(site_id, table_id, *period)].append(Custody(0, fills, credits, 0, 0))
    for site_id, table_id, *rest in shaped_rows(queries[2], **arguments):
        *period, opener, closer = rest
        parts[key(site_id, table_id, *period)].append(Custody(0, 0, 0, opener or 0, closer or 0))
    return parts


def _as_date(value) -> date:
    """A truncated date as a date (a datetime on some backends)."""
    return value.date() if isinstance(value, datetime) else value


@dataclass(frozen=True)
class TaxFigures:
    """The ND gaming tax of a quarter (N.D.C.C. 53-06.1-12): on the AGP recorded here at the
    organization's North Dakota sites, with the brackets applied to the organization's total
    when its other games' AGP is recorded (`figures.gaming_tax_on_recorded`)."""

    organization_id: int
    quarter: Quarter
    sites: tuple[tuple[str, int, int, int, int | None], ...]  # ND sites: name, GP, prizes, AGP, cash profit
    agp_cents: int  # the AGP recorded here (ND sites)
    tax_cents: int  # the tax on the AGP recorded here
    brackets: tuple[figures.TaxBracket, ...]
    other_games_agp_cents: int | None = None  # recorded by a gaming manager; None: not recorded
    other_sites: tuple[str, ...] = ()  # sites of another jurisdiction, not in the ND tax
    pack_code: str = ""  # the pack whose law levies the tax (its words and brackets); "" where none does

    @property
    def organization_agp_cents(self) -> int:
        """All the organization's games: the AGP recorded here plus the other games' (if recorded)."""
        return self.agp_cents + (self.other_games_agp_cents or 0)

    @property
    def organization_tax_cents(self) -> int:
        """The brackets applied to the organization's total, as the statute does."""
        return figures.gaming_tax(self.organization_agp_cents, list(self.brackets))


def organization_quarter(organization, quarter: Quarter, *, snapshots: bool = False) -> list[QuarterSummary]:
    """Every site of the organization for the quarter, in one pass (the tax needs them all)."""
    sites = list(Site.objects.filter(organization=organization).order_by("name"))
    return quarter_summaries(sites, quarter, snapshots=snapshots)


def taxing_pack(organization, jurisdictions=None):
    """The pack of the organization's sites whose law taxes the quarter's AGP of all its games
    (`accounting.gaming_tax`), or None: an organization with no such site has no gaming tax
    here. `jurisdictions`: its sites' Site.jurisdiction values, when the caller has them."""
    from packs import packs_of

    from .rules import GAMING_TAX

    if jurisdictions is None:
        jurisdictions = Site.objects.filter(organization=organization).values_list("jurisdiction", flat=True)
    return next((p for p in packs_of(set(jurisdictions)) if GAMING_TAX.applies(p)), None)


def tax_figures(
    organization,
    quarter: Quarter,
    rows,
    jurisdictions: list[str],
    other_games_agp_cents: int | None = None,
    brackets: list | None = None,
) -> TaxFigures:
    """TaxFigures from per-site rows (name, GP, prizes, AGP, cash profit), keeping the sites whose
    pack states the gaming tax (`jurisdictions`: each row's Site.jurisdiction); the others are
    named, not taxed here. `brackets`: those a filing of the quarter froze (else those of the
    taxing pack in force at the quarter's end)."""
    from .rules import GAMING_TAX

    pairs = list(zip(rows, jurisdictions, strict=True))
    nd = tuple(row for row, j in pairs if GAMING_TAX.applies(j))
    others = tuple(row[0] for row, j in pairs if not GAMING_TAX.applies(j))
    agp = sum(row[3] for row in nd)
    pack = taxing_pack(organization, jurisdictions)  # its brackets are the pack's effective-dated data
    if brackets is None:
        brackets = figures.brackets_in_force(pack.tax_brackets, quarter.end) if pack is not None else []
    tax = figures.gaming_tax_on_recorded(agp, other_games_agp_cents, brackets)
    return TaxFigures(
        organization.pk,
        quarter,
        nd,
        agp,
        tax,
        tuple(brackets),
        other_games_agp_cents,
        others,
        pack.code if pack is not None else "",
    )


def other_games_agp_cents(organization, quarter: Quarter) -> int | None:
    from .queries import other_games_agp

    found = other_games_agp(organization.pk, quarter)
    return found.agp_cents if found is not None else None


def return_cash_profit(s: QuarterSummary, cents: int | None) -> int | None:
    """A quarter's cash figure as its return and summary show it: `cents`, or $0.00 where nothing
    was played in the quarter (`QuarterSummary.nothing_played`: there was no bank to count, so
    none is missing); None (not known) where play went without a bank count."""
    return 0 if cents is None and s.nothing_played else cents


def tax_row(s: QuarterSummary) -> tuple[str, int, int, int, int | None]:
    """A site's line of the quarterly return: GP, prizes and AGP of all its twenty-one activity,
    the tables' and the tournaments' (ND 99-01.3-08-16(1)(g): "the summaries of all twenty-one
    activity for a quarter must reconcile to the tax return"), and its cash profit."""
    t = s.tournaments
    return (
        s.site_name,
        s.total.gross_proceeds_cents + t.gross_proceeds_cents,
        s.total.prizes_cents + t.prizes_cents,
        s.total.agp_cents + t.agp_cents,
        return_cash_profit(s, s.cash_profit_cents),
    )


def organization_tax(organization, quarter: Quarter, *, summaries: list[QuarterSummary] | None = None) -> TaxFigures:
    """The quarterly return's figures per North Dakota site and the ND gaming tax on the AGP
    recorded here (N.D.C.C. 53-06.1-12, brackets effective-dated in the pack: packs/nd/accounting.py),
    the brackets applied to the organization's total with its other games' AGP when recorded.
    `summaries`: the organization's quarter, when the caller has built it already."""
    summaries = organization_quarter(organization, quarter) if summaries is None else summaries
    rows = tuple(tax_row(s) for s in summaries)
    jurisdictions = [s.jurisdiction for s in summaries]
    return tax_figures(organization, quarter, rows, jurisdictions, other_games_agp_cents(organization, quarter))
