"""Twenty-one daily report of a site, one section per gaming day (SFN 50079 model, tables 4
and beyond on the SFN 9924 continuation), from `accounting.summaries.daily_summaries`: the
same figures the daily-summary API returns (ND 99-01.3-08-16(1)(g))."""

from dataclasses import dataclass, replace
from datetime import date
from functools import cached_property
from zoneinfo import ZoneInfo

from reportlab.platypus import KeepTogether, PageBreak, Spacer

from accounting.published import (
    ZERO,
    BooksCheck,
    Custody,
    DailySummary,
    TableDay,
    adjustment_custody,
    closers_not_known_statement,
    daily_summaries,
    day_checks,
    day_game_lines,
    nothing_collected,
    pack_days,
    pack_figures,
    sessions_against_custody,
    takes_deposit,
    uncounted_boxes,
)
from accounting.rules import DAILY_FIGURES, DEPOSIT, LOW_HOLD, TOURNAMENT_PLAY
from cage.queries import DepositCorrectionEntry, deposit_corrections
from cage.queries import late_entries as cage_late_entries
from cage.rules import DEPOSIT_DAYS
from core.moments import LATE_ENTRY, gaming_day_bounds
from core.money import deposit_cents, deposit_text, format_money, format_ratio
from core.pdf import data_table, format_generated_at, para
from core.plurals import noun_for, plural
from core.rows import shaped_rows
from counts.queries import late_entries as count_late_entries
from fees.queries import late_entries as fee_late_entries
from floor.queries import (
    Carried,
    LateEntry,
    OpenerVariance,
    UnverifiedReceipt,
    carried_items,
    gaming_days_query,
    late_entries,
    opener_variances,
    unverified_receipts,
)
from floor.rules import TRAY_COUNT, game_column, house_chips
from packs import RevenueModel, RevenueWords, game_name, get_pack, revenue_words
from tournaments.queries import late_entries as tournament_late_entries
from tournaments.rules import TOURNAMENT

from .. import rules as report_rules
from ..columns import DATE, INT, MONEY, RATIO, Column, headings, in_words, without
from ..registry import ReportContext, ReportKind, register
from ..rules import FORM_DAILY_CONTINUATION
from .adjustments import adjustment_row, adjustment_table
from .pack_section import pack_counts, pack_lines, pack_section, session_check_lines, session_check_section
from .tournament_record import summary_section

FORM_TABLES = 3  # SFN 50079 has room for tables 1-3; SFN 9924 continues with the rest


def figure_lines(words: RevenueWords) -> tuple[tuple[str, str], ...]:
    """A table's figure rows (label, custody attribute), labelled in the words of the site's pack
    (`packs.RevenueWords`: North Dakota's gross proceeds, prizes and AGP; the trade's drop and win)."""
    return (
        (words.drop_label, "gross_proceeds_cents"),
        ("Fills", "fills_cents"),
        ("Credits", "credits_cents"),
        ("Opener", "opener_cents"),
        ("Closer", "closer_cents"),
        (f"{words.paid_label} (fills - credits + opener - closer)", "prizes_cents"),
        (words.net_label, "agp_cents"),
    )


LINES = figure_lines(RevenueWords())  # the rows' attributes in order; their labels are the site's (figure_lines)


def hold_line(words: RevenueWords) -> str:
    """The hold row, named in the pack's words: "Hold (win / drop)", as the quarterly's Hold column
    and the figures API say it; "Percent-of-hold (AGP / GP)" in North Dakota (08-01(3))."""
    return f"{words.hold_label} ({words.hold})"


@dataclass(frozen=True)
class DailyReport:
    site: str
    days: tuple[DailySummary, ...]
    books: tuple[BooksCheck, ...] = ()  # each day's figures against its closed books, in the order of `days`
    # Records of the period entered past the site's late entry threshold (core.moments).
    late: tuple[LateEntry, ...] = ()
    time_zone: str = "UTC"
    late_entry_minutes: int = 60
    pack: dict | None = None  # the pack's own figures for the period (accounting.pack_figures)
    # Open items carried past each day's close with their reasons (floor.open_items).
    carried: tuple[Carried, ...] = ()
    where: str = ""  # the site's Site.jurisdiction: its pack cites the rules and names the forms
    # Slips received with no verification, each with the receiver's reason (floor.rules.SLIP_VERIFICATION).
    unverified: tuple[UnverifiedReceipt, ...] = ()
    # The period's dates on which a gaming day was opened (None: not read, each day taken as opened).
    # A day of the books may have none: an adjustment, a tournament, fees or sessions recorded on it.
    gaming_dates: frozenset | None = None
    # Each day's own fees or sessions by its ISO gaming date (accounting.pack_days: the daily page's
    # figures of the day); none for a day without them, nor at a drop pack.
    pack_days: dict | None = None
    # Openers that differ from the count before them, with their reasons (floor.queries.opener_variances).
    variances: tuple[OpenerVariance, ...] = ()
    # A session site's days' drop boxes without a signed count, by ISO gaming date (accounting.uncounted_boxes;
    # None: a drop pack, or a report stored before they were read).
    uncounted: dict | None = None
    # The day the report was asked for: a deposit not made by its due date is late then (None: a
    # report stored before it was kept, whose deposits not made are not judged).
    as_of: date | None = None
    # The deposits' corrections, each pointing back at what it corrected with its reason (the deposit
    # line gives the deposit as it stands: cage.services.correct_deposit).
    deposit_corrections: tuple[DepositCorrectionEntry, ...] = ()

    @cached_property
    def period(self) -> "PeriodSums | None":
        """The range's sums (`_period_sums`), summed once for the PDF's period section and the CSV's
        period rows; not a field, so not in the data's digest."""
        return _period_sums(self)


@dataclass(frozen=True)
class PeriodSums:
    """A range's figures summed over its days whose play has ended, as the quarter sums its days
    (a day still in play is listed, not summed: `DailySummary.in_play`); the hold of each sum the
    ratio of the sums."""

    games: tuple[tuple[str, str, Custody], ...]  # (game code, label, sum) of each game the pack deals
    total_label: str
    total: Custody
    days: int  # the days summed
    in_play: int  # the days still in play, listed and not summed
    cash_profits: tuple[int, ...]  # each summed day's with both bank counts


NOT_KNOWN = "not known"


def known(cents: int | None):
    """A cash figure for a money column: cents, or "not known" (never $0.00) without a bank count."""
    return NOT_KNOWN if cents is None else cents


def build(context: ReportContext) -> DailyReport:
    days = tuple(daily_summaries([context.site], context.start, context.end))
    checks = day_checks(days)
    return DailyReport(
        context.site.name,
        days,
        tuple(checks[(d.site_id, d.gaming_date)] for d in days),
        _late(context),
        context.site.time_zone,
        context.site.late_entry_minutes,
        pack_figures(context.site, context.start, context.end),
        tuple(carried_items([context.site.pk], context.start, context.end)),
        context.site.jurisdiction,
        tuple(unverified_receipts(context.site, context.start, context.end)),
        _gaming_dates(context),
        {day.isoformat(): figures for day, figures in pack_days(context.site, context.start, context.end).items()},
        _variances(context),
        _uncounted(context),
        context.as_of,
        tuple(deposit_corrections([context.site.pk], context.start, context.end)),
    )


def _uncounted(context: ReportContext) -> dict | None:
    if get_pack(context.site.jurisdiction).revenue_model != RevenueModel.SESSION:
        return None
    found = uncounted_boxes(context.site, context.start, context.end)
    return {day.isoformat(): boxes for day, boxes in found.items()}


def _session_check(day: DailySummary, data: "DailyReport | None"):
    """The day's sessions against its custody, with its boxes' counts where the report read them."""
    uncounted = None if data is None or data.uncounted is None else data.uncounted.get(day.gaming_date.isoformat(), 0)
    return sessions_against_custody(day, uncounted)


def _variances(context: ReportContext) -> tuple[OpenerVariance, ...]:
    """The period's openers that differ from their table's last count; none read where the house's
    chips go to no table (a fees-only site records no opener: floor.rules.house_chips)."""
    if not house_chips(context.site):
        return ()
    return tuple(opener_variances([context.site.pk], context.start, context.end))


def _gaming_dates(context: ReportContext) -> frozenset:
    """The dates of the period with a gaming day opened, in one query (the summaries do not say:
    `DailySummary` is frozen into the closed days' snapshots as it is)."""
    period = {"site_ids": [context.site.pk], "start": context.start, "end": context.end}
    return frozenset(day for _, _, day in shaped_rows(gaming_days_query, **period))


def _late(context: ReportContext) -> tuple[LateEntry, ...]:
    """The period's records entered late, each app's own (its `queries.late_entries`): the floor's,
    the cage's, the drop's and the count's, the tournaments' fees and prizes (at every site: where a
    pack keeps none of them, none is listed), and where the pack's revenue is its fees or sessions,
    those records too (a fee room has no floor record to list), in the order they happened."""
    site, start, end = context.site, context.start, context.end
    entries = [*late_entries(site, start, end), *cage_late_entries(site, start, end)]
    entries += count_late_entries(site, start, end) + tournament_late_entries(site, start, end)
    if get_pack(site.jurisdiction).revenue_model != RevenueModel.DROP:
        entries += fee_late_entries(site, start, end)
    # A record that happened after its gaming day ended (a bank count, a fee count, an IOU of a day
    # gone) is late from that end (core.moments.EnteredRecord.day_field): the list says so, or its
    # "happened" would read the same as its "entered".
    ends = {day: gaming_day_bounds(site, day)[1] for day in {entry.gaming_date for entry in entries}}
    entries = [
        replace(entry, after_day_end=ends[entry.gaming_date]) if entry.occurred_at >= ends[entry.gaming_date] else entry
        for entry in entries
    ]
    return tuple(sorted(entries, key=lambda entry: (entry.gaming_date, entry.occurred_at, entry.what)))


def _holds(data: "DailyReport | None") -> bool:
    """Drop-based figures and hold: a drop pack's (accounting.pack_figures `hold_applies`); a fees or
    session pack's report has its own figures instead (pack_section)."""
    return data is None or data.pack is None or data.pack.get("hold_applies", True)


def _when(moment, zone: ZoneInfo) -> str:
    return format_generated_at(moment.astimezone(zone))


def _happened(entry: LateEntry, zone: ZoneInfo) -> str:
    """When a late record happened, and, where that was after its gaming day ended, the end its
    lateness runs from."""
    when = _when(entry.occurred_at, zone)
    if entry.after_day_end is None:
        return when
    return f"{when}, after its gaming day ended ({_when(entry.after_day_end, zone)})"


def _late_section(data: "DailyReport", day: DailySummary) -> list:
    """The day's records entered late: what, when it happened, when it was entered."""
    late = [e for e in data.late if e.gaming_date == day.gaming_date]
    threshold = (
        f"more than {data.late_entry_minutes} minutes after they happened, or after their gaming day ended "
        f"where they happened after it ({LATE_ENTRY})"
    )
    # What the list holds, said where it could be read as everything (`_late`): the books' records.
    # Said only where the site's pack keeps tournaments (a New York site keeps no register).
    outside = (
        "; a tournament's announcement, outside the books, shows when it was entered on the tournament's page"
        if TOURNAMENT.applies(data.where)
        else ""
    )
    if not late:
        return [
            Spacer(1, 4),
            para(f"Entered late: none (no record of the day's books was entered {threshold}{outside}).", "small"),
        ]
    zone = ZoneInfo(data.time_zone)
    rows = [[e.what, _happened(e, zone), _when(e.entered_at, zone)] for e in late]
    return [
        Spacer(1, 4),
        para(f"Entered late ({len(late)}): records of the day's books entered {threshold}", "cell_bold"),
        data_table(["Record", "Happened", "Entered"], rows, col_widths=[205, 180, 140]),
    ]


def _unverified_section(data: "DailyReport", day: DailySummary) -> list:
    """The day's slips received unverified: an exception, each with who received it, when and why."""
    unverified = [u for u in data.unverified if u.gaming_date == day.gaming_date]
    if not unverified:
        return []
    zone = ZoneInfo(data.time_zone)
    rows = [[u.what, f"{u.received_by_initials} {_when(u.received_at, zone)}", u.reason] for u in unverified]
    return [
        Spacer(1, 4),
        para(
            f"Received unverified ({len(unverified)}): slips whose copy was received with no verification", "cell_bold"
        ),
        data_table(["Slip", "Received by", "Reason"], rows, col_widths=[150, 105, 270]),
    ]


def _carried_section(data: "DailyReport", day: DailySummary) -> list:
    """The open items carried past the day's close: what, its rule, who carried it, when and why."""
    carried = [c for c in data.carried if c.gaming_date == day.gaming_date]
    if not carried:
        return []
    zone = ZoneInfo(data.time_zone)
    rows = [[f"{c.statement} ({c.citation})", f"{c.carried_by_initials} {_when(c.carried_at, zone)}", c.reason]
            for c in carried]  # fmt: skip
    return [
        Spacer(1, 4),
        para(f"Carried past the close ({len(carried)}): open items a shift manager carried with a reason", "cell_bold"),
        data_table(["Open item", "Carried by", "Reason"], rows, col_widths=[230, 105, 190]),
    ]


def _column(table: TableDay) -> str:
    game = "" if table.game == "21" else f" ({table.game})"
    return f"Table {table.table_number}{game}{'' if table.complete else ' *'}"


# The figures a closer enters: "not known" (never as if it were $0.00) while a table summed has
# none recorded yet (`Custody.closer_known`; House control: tray counts, floor.rules.TRAY_COUNT).
NEEDS_CLOSER = frozenset({"closer_cents", "prizes_cents", "agp_cents", "hold_ratio"})


def _figure(custody, attribute: str):
    """A custody's figure, or "not known" where it needs a closer not recorded yet (`NEEDS_CLOSER`)."""
    return NOT_KNOWN if attribute in NEEDS_CLOSER and not custody.closer_known else getattr(custody, attribute)


def _figure_rows(custodies, words: RevenueWords) -> list[list]:
    rows = [[label, *(_figure(c, attribute) for c in custodies)] for label, attribute in figure_lines(words)]
    # Ratios are text: data_table right-aligns every cell of its money columns.
    holds = (NOT_KNOWN if not c.closer_known else format_ratio(c.hold_ratio) for c in custodies)
    rows.append([hold_line(words), *holds])
    return rows


def _grid(columns: list[str], custodies: list, words: RevenueWords) -> object:
    widths = [200] + [(525 - 200) / FORM_TABLES] * len(columns)  # the form's columns, however many are used
    return data_table(
        ["", *columns], _figure_rows(custodies, words), col_widths=widths, money_columns=range(1, len(columns) + 1)
    )


def _table_grids(day: DailySummary, where: str = "") -> list:
    story = []
    tables = list(day.tables)
    for start in range(0, len(tables), FORM_TABLES):
        chunk = tables[start : start + FORM_TABLES]
        if start:
            numbers = ", ".join(str(t.table_number) for t in chunk)
            form = f" ({FORM_DAILY_CONTINUATION.at(where)})" if where and FORM_DAILY_CONTINUATION.applies(where) else ""
            story += [Spacer(1, 4), para(f"Continuation{form}: {noun_for(len(chunk), 'table')} {numbers}", "cell_bold")]
        story.append(_grid([_column(t) for t in chunk], [t.custody for t in chunk], revenue_words(where)))
    if any(not t.complete for t in tables):
        story.append(para("* not complete: the drop has no signed count, or the opener or closer is missing.", "small"))
    closers = closers_not_known_statement(day, where)
    return story + ([para(closers, "small")] if closers else [])


def _deposit_line(day: DailySummary, where: str, as_of: date | None) -> str:
    """The deposit and its due date: the pack's deadline where it states one (accounting.deposit),
    else the house's own (`DEPOSIT_DAYS`, "House control"), late once past it (`deposit_late`, as
    of the day the report was asked for: made after it, or not made and the date passed, as the
    daily page and the "Bank deposit late" alert judge it at every pack). A day that takes no
    deposit (`takes_deposit`: its only records are adjusting entries, or its fees, sessions or
    tournament fees were all voided) says so, with no due date."""
    cash = day.cash
    if not takes_deposit(day):
        return f"No bank deposit due: nothing was collected this day ({nothing_collected(day)})."
    stated = DEPOSIT.applies(where)
    # The deadline in force on the gaming date, cited as the daily page cites it: its words and
    # section where the pack states it (ND 99-01.3-03-10(1)), else "House control".
    deadline = DEPOSIT_DAYS.on(where, day.gaming_date)
    cited = f"{deadline.text}, {deadline.citation}" if stated else deadline.citation
    when = f"Bank deposit due by {cash.deposit_due} ({cited})"
    if as_of is not None:
        late = cash.deposit_late(as_of)  # made after the date, or not made and the date passed
    else:  # a report stored before `as_of` was kept: a deposit made after its date, at a pack stating one
        late = stated and bool(cash.deposited_on and cash.deposited_on > cash.deposit_due)
    if cash.deposit_recorded_cents is None:
        if as_of is not None and as_of <= cash.deposit_due:  # asked for before the deposit was due
            return f"{when}: not yet deposited (not yet due)."
        return f"{when}: not recorded{' (LATE)' if late else ''}."
    verified = "verified against the bank statement" if cash.deposit_verified else "not yet verified"
    return f"{when}: deposited {cash.deposited_on}{' (LATE)' if late else ''}, {verified}{_deposit_difference(cash)}."


def _day_corrections(data: "DailyReport", day: DailySummary) -> list[DepositCorrectionEntry]:
    return [c for c in data.deposit_corrections if c.gaming_date == day.gaming_date]


def _deposit_corrections_section(data: "DailyReport", day: DailySummary) -> list:
    """The day's deposit corrections, oldest first: what each corrected (the deposit as recorded, or
    as the correction before it had it), to what, why, who and when. The deposit line above gives
    the deposit as it stands (the latest correction's)."""
    corrections = _day_corrections(data, day)
    if not corrections:
        return []
    zone = ZoneInfo(data.time_zone)
    rows = [[f"#{c.correction_id} of deposit #{c.deposit_id}: {c.what}", c.reason, f"{c.initials} {_when(c.recorded_at, zone)}"]
            for c in corrections]  # fmt: skip
    return [
        para(
            f"Deposit corrected ({len(corrections)}): each correction points back at the deposit as recorded", "small"
        ),
        data_table(["Correction", "Reason", "Recorded by"], rows, col_widths=[265, 150, 110]),
    ]


def deposit_over_profit(day: DailySummary, where: str) -> str:
    """Why the deposit expected is more than the cash profit, as the daily page says it: the
    tournaments' merchandise prizes, paid from no cash bank, go back into the deposit (cited by
    the pack's deposit rule: ND 99-01.3-03-10, else "House control"); "" where the two are equal."""
    cash = day.cash
    if not cash.prizes_not_in_cash_cents or cash.cash_profit_cents is None:
        return ""
    return (
        f"Bank deposit expected = cash profit + the tournaments' merchandise prizes "
        f"({format_money(cash.prizes_not_in_cash_cents)}): paid from no cash bank, they go back into the "
        f"deposit, as a prize paid by check does ({DEPOSIT.at(where)})."
    )


def _deposit_difference(cash) -> str:
    """ ", SHORT $0.01 against the expected deposit" where the deposit recorded is not the one expected."""
    difference = cash.deposit_difference_cents
    if not difference:
        return ""
    return f", {'SHORT' if difference < 0 else 'OVER'} {format_money(abs(difference))} against the expected deposit"


def _cited(rule, where: str, shown: bool) -> str:
    """ " (ND 99-01.3-08-15; ...)": the rule's citation at the pack of `where`, where `shown`."""
    return f" ({rule.at(where)})" if shown and where else ""


def cash_rows(day: DailySummary, *, holds: bool = True, where: str = "") -> list[list]:
    """The day's cash; without a drop-based AGP (a fees or session pack) no AGP, long (short) nor
    its reconciliation, except where the house's chips go to the tables all the same (a session
    pack: floor.rules.house_chips): its cash is the tables' custody, so the long (short) is
    against the tables' win (accounting.summaries.cash_figures), shown as a row above it.
    The win is named in the words of the site's pack (`where`: packs.RevenueWords)."""
    if not holds and where and house_chips(where):
        return _cash_rows_against_the_tables(day, where)
    cash, words = day.cash, revenue_words(where)
    # A fees pack's tables take none of the house's chips: no drop to add (its daily page says the same).
    drop = "" if where and get_pack(where).revenue_model == RevenueModel.FEES else " + drop"
    # Tournament play is the bank's cash too: the long (short) is against its AGP beside the
    # tables' (accounting.summaries.cash_figures, ND 99-01.3-08-15, 08-16(1)(g)).
    played = not day.tournaments.is_empty
    merchandise = ", less tournament merchandise prizes" if cash.prizes_not_in_cash_cents else ""
    rows = [
        [f"Cash profit (ending - starting cash{drop}, net of IOUs{merchandise})", known(cash.cash_profit_cents)],
        [
            f"{words.net_label}{', tables and tournaments' if played else ''}{_cited(TOURNAMENT_PLAY, where, played)}",
            NOT_KNOWN if not day.total.closer_known else day.total.agp_cents + day.tournaments.agp_cents,
        ],
        [f"Cash long (short) = cash profit - {words.net_short}", known(cash.long_short_cents)],
        ["Reconciling line: change in chips outside the house", known(cash.chips_outside_change_cents)],
        ["Unexplained remainder", known(cash.unexplained_cents)],
        ["Bank deposit expected", deposit_text(cash.deposit_expected_cents) or cash.deposit_expected_cents],
        ["Bank deposit recorded", cash.deposit_recorded_cents],
    ]
    # Without a drop-based win there is no long (short) to reconcile: nor its reconciling lines.
    return rows if holds else [rows[0], *rows[5:]]


def _cash_rows_against_the_tables(day: DailySummary, where: str) -> list[list]:
    """A session pack's day: its revenue is its sessions' net, but the cash took the tables' drop and
    paid their payout, so the cash long (short) = cash profit - the tables' win (drop counted - paid
    out at the tables), reconciled by the chips the players took home, as at a drop pack."""
    cash, words = day.cash, revenue_words(where)
    rows = cash_rows(day, where=where)
    rows[1] = [f"{words.net_label} of the tables ({words.gross_short} counted - {words.paid} at the tables)",
               known(day.total.known_agp_cents)]  # fmt: skip
    rows[2] = [f"Cash long (short) = cash profit - the tables' {words.net_short}", known(cash.long_short_cents)]
    return rows


def quarter_threshold_note(where: str) -> str:
    """Under a day's games where the site's pack states the low-hold rule: its threshold is judged on
    a quarter's hold, never a day's (ND 99-01.3-08-04(9): "for a quarter"), so a day's grid shows no
    threshold and no "below", as the daily page shows none; "" elsewhere."""
    if not LOW_HOLD.applies(where):
        return ""
    hold = revenue_words(where).hold_name
    return (
        f"{LOW_HOLD.at(where)}: a game's low-hold threshold applies to its {hold} for a quarter, at a site that "
        f"requires video surveillance, never to a day's: a day's {hold} below it starts no video review (the "
        "quarterly summary compares each game's quarter with its threshold)."
    )


def _games_grid(day: DailySummary, where: str) -> object:
    """Twenty-one, paddlewheel and the site total: the day's figures and hold, no threshold (a
    day's lines carry none, `day_game_lines`; `quarter_threshold_note` says why)."""
    lines = day_game_lines(day, where=where or None)
    rows = _figure_rows([line.custody for line in lines], revenue_words(where))
    widths = [200] + [(525 - 200) / FORM_TABLES] * len(lines)
    return data_table(["", *(line.label for line in lines)], rows, col_widths=widths, money_columns=range(1, 4))


def _day_state(day: DailySummary, data: "DailyReport | None", pack_day: dict | None = None) -> str:
    """What the day's heading says of it: a day of the books may have no gaming day at all (an
    adjustment, a tournament, fees or sessions recorded on it: its books close on its records), so
    where none was opened the heading says so, with its books' state. A fees room's tables open no
    gaming day by design (floor.rules.house_chips): its day of fees is headed a fee day, a day of
    sessions alone a session day, never as if the room had not opened."""
    if day.gaming_day_closed:
        return "gaming day closed"
    books = "books closed" if day.books_closed else "books NOT CLOSED"
    if data is not None and data.gaming_dates is not None and day.gaming_date not in data.gaming_dates:
        return f"{_records_day(pack_day) or 'no gaming day opened'}; {books}"
    return "gaming day NOT CLOSED"


def _records_day(pack_day: dict | None) -> str:
    """ "fee day, 8 collections" or "session day, 2 sessions" where the day has them; else ""."""
    if pack_day and pack_day.get("fees", {}).get("collections"):
        return f"fee day, {plural(pack_day['fees']['collections'], 'collection')}"
    if pack_day and pack_day.get("sessions", {}).get("sessions"):
        return f"session day, {plural(pack_day['sessions']['sessions'], 'session')}"
    return ""


def _no_tables(day: DailySummary) -> str:
    if day.adjustments_recorded:
        return "No table activity recorded: the day's figures are the adjusting entries recorded this day (below)."
    return "No table activity recorded."


ADJUSTMENTS_RECORDED = "Adjusting entries recorded this day (counted in its totals)"
CORRECTED_LATER = "Corrected later (counted on the day entered)"


def _adjustments_section(day: DailySummary, where: str, *, recorded: bool = True, later: bool = True) -> list:
    """The corrections of closed books entered on this day (counted in its totals: `recorded`) and
    those entered later correcting it (`later`), each listed as the daily page lists them."""
    story = []
    for title, lines in ((ADJUSTMENTS_RECORDED, day.adjustments_recorded if recorded else ()),
                         (CORRECTED_LATER, day.adjustments_to_this_day if later else ())):  # fmt: skip
        if lines:
            rows = [adjustment_row(line) for line in lines]
            story += [Spacer(1, 4), para(title, "cell_bold"), adjustment_table(rows, where, quarter=False)]
    return story


TOURNAMENT_LATE_RECORDED = (
    "Tournament fees and prizes found later for a closed day (counted in this day's tournament figures)"
)
TOURNAMENT_FOUND_LATER = "Tournament fees and prizes found later (counted on the day entered, not counted again here)"


def _tournament_late_section(day: DailySummary, where: str) -> list:
    """The tournament fees and prizes found after the books of their tournament's day closed
    (tournaments.queries.FoundLate): those entered on this day, counted in its tournament figures,
    each naming the closed day it belongs to; and those belonging to this closed day, entered later
    and counted there, listed here and not counted again, as the adjusting entries are."""
    story = []
    for title, lines, recorded in ((TOURNAMENT_LATE_RECORDED, day.tournament_late_recorded, True),
                                   (TOURNAMENT_FOUND_LATER, day.tournament_late_to_this_day, False)):  # fmt: skip
        if lines:
            rows = [
                [str(t.corrects_date), str(t.counted_on), f"{t.what} ({t.tournament}; {t.rule(where)})",
                 t.amount_cents, t.agp_effect_cents, f"{t.reason} ({t.initials})"]
                for t in lines
            ]  # fmt: skip
            effect = f"{revenue_words(where).net_short} effect"  # the pack's word for the win ("AGP")
            header = ["Belongs to", "Counted on", "Record", "Amount", effect[:1].upper() + effect[1:], "Reason"]
            table = data_table(header, rows, col_widths=[62, 62, 176, 65, 65, 95], money_columns=[3, 4])
            story += [Spacer(1, 4), para(title, "cell_bold"), table]
            if not recorded:
                story.append(para(f"{plural(len(lines), 'record')} of this closed day, not in its figures.", "small"))
    return story


def _variances_section(data: "DailyReport", day: DailySummary) -> list:
    """The day's openers that differ from the table's count before them, each with its reason."""
    variances = [v for v in data.variances if v.gaming_date == day.gaming_date]
    if not variances:
        return []
    rows = [[f"Table {v.table_number}", v.statement] for v in variances]
    return [
        Spacer(1, 4),
        para(
            f"{OPENER_DIFFERENCES} ({len(variances)}): a difference is a variance to explain ({TRAY_COUNT})",
            "cell_bold",
        ),
        data_table(["Table", "Opener against the count before it, and the reason given"], rows, col_widths=[60, 465]),
    ]


OPENER_DIFFERENCES = "Openers that differ from the table's last count"


def _day(day: DailySummary, books: BooksCheck, data: "DailyReport", pack_day: dict | None = None) -> list:
    story = [para(f"Gaming date {day.gaming_date} ({_day_state(day, data, pack_day)})", "heading")]
    story.append(para(books.statement_with(format_generated_at), "small"))
    where = data.where  # the site's jurisdiction: its pack cites the rules (never one state's by default)
    if _holds(data):  # a fees or session pack's figures are its own section (pack_section), not a drop's
        if not day.tables:
            story.append(para(_no_tables(day)))
        story += _table_grids(day, where)
        # The adjusting entries recorded this day before the totals they are counted in, as the daily
        # page has them above its total: the tables' figures and these add up to the totals below.
        story += _adjustments_section(day, where, later=False)
        counted = " (the tables and the adjusting entries recorded this day)" if day.adjustments_recorded else ""
        story += [
            Spacer(1, 4),
            para(f"Site totals: each game apart, then the total{counted}", "cell_bold"),
            _games_grid(day, where),
        ]
        note = quarter_threshold_note(where)
        story += [para(note, "small")] if note else []
    story += _variances_section(data, day) if data is not None else []
    story += pack_section(pack_day, of_the_day=True)  # the day's own fees or sessions, as its page shows them
    story += session_check_section(_session_check(day, data))  # a session day against its custody
    story += _adjustments_section(day, where, recorded=not _holds(data))  # a drop's are above its totals
    story += summary_section(day.tournaments, day.twenty_one.agp_cents, where=where)
    story += _tournament_late_section(day, where)
    cash = [
        Spacer(1, 4),
        para("Cash", "cell_bold"),
        data_table(
            ["", "Amount"], cash_rows(day, holds=_holds(data), where=where), col_widths=[400, 125], money_columns=[1]
        ),
    ]
    if day.cash.cash_profit_cents is None:
        cash.append(para("The cash bank was not counted at both the start and the end of the day.", "small"))
    over = deposit_over_profit(day, where)
    cash += [para(over, "small")] if over else []
    cash.append(para(_deposit_line(day, where, data.as_of if data is not None else None)))
    cash += _deposit_corrections_section(data, day) if data is not None else []
    late = _late_section(data, day) if data is not None else []
    carried = _carried_section(data, day) if data is not None else []
    unverified = _unverified_section(data, day) if data is not None else []
    return [*story, *carried, *unverified, KeepTogether(cash), *late]


def _of_each_day(data: DailyReport) -> list[dict | None]:
    """Each day's pack figures in the order of `days` (none in a report stored before they were)."""
    return [(data.pack_days or {}).get(day.gaming_date.isoformat()) for day in data.days]


def render(data: DailyReport) -> list:
    if not data.days:
        return [para("No gaming day at this site in the period."), *pack_section(data.pack)]
    story = []
    for day, books, pack_day in zip(data.days, data.books, _of_each_day(data), strict=True):
        story += ([PageBreak()] if story else []) + _day(day, books, data, pack_day)  # one form per gaming day
    # The period's fees or sessions after its days, unless its one day has said them already.
    said = len(data.days) == 1 and any(_of_each_day(data))
    return story + _period_section(data) + ([] if said else pack_section(data.pack))


def _period_sums(data: DailyReport) -> PeriodSums | None:
    """The range's `PeriodSums`: None for one day, where every day is still in play, or where the
    pack's figures are not a drop's (its own section sums the period: pack_section)."""
    if len(data.days) < 2 or not _holds(data):
        return None
    games: dict[str, tuple[str, Custody]] = {}
    total_label, total, ended = "", ZERO, []
    for day in data.days:
        if day.in_play:
            continue
        ended.append(day)
        *lines, whole = day_game_lines(day, where=data.where or None)
        for line in lines:
            games[line.game] = (line.label, games.get(line.game, ("", ZERO))[1] + line.custody)
        total_label, total = whole.label, total + whole.custody
    if not total_label:
        return None
    counted = tuple(day.cash.cash_profit_cents for day in ended if day.cash.cash_profit_cents is not None)
    summed = tuple((game, label, custody) for game, (label, custody) in games.items())
    return PeriodSums(summed, total_label, total, len(ended), len(data.days) - len(ended), counted)


def _period_section(data: DailyReport) -> list:
    """The range's figures summed after its days (the walk's 34 pages of Bismarck days ended with no
    figure of the period): each game and the total, and the cash profit of the days counted."""
    sums = data.period
    if sums is None:
        return []
    labels = [*(label for _, label, _ in sums.games), sums.total_label]
    custodies = [*(custody for *_, custody in sums.games), sums.total]
    counted = sums.cash_profits
    listed = f"; {plural(sums.in_play, 'day')} still in play listed above, not summed" if sums.in_play else ""
    cash = f"Cash profit of the {plural(len(counted), 'day')} with both bank counts: {format_money(sum(counted))}" + (
        f" ({plural(sums.days - len(counted), 'day')} without: not known)." if len(counted) < sums.days else "."
    )
    return [
        PageBreak(),
        para(f"Period {data.days[0].gaming_date} to {data.days[-1].gaming_date}", "heading"),
        para(f"The {plural(sums.days, 'day')} of the period summed{listed}; hold is the ratio of the sums.", "small"),
        _grid(labels, custodies, revenue_words(data.where)),
        para(cash),
    ]


COLUMNS = [
    Column("gaming_date", DATE),
    # a table's number, or adjustment (an entry recorded this day), a game's total in the pack's word
    # (game_key: twenty_one, blackjack, black_jack, paddlewheel), total
    Column("table"),
    Column("game"),  # the code where the pack asks for it (ND: 21, PW), else its name (floor.rules.game_column)
    *(Column(name, MONEY) for name in ("drop", "fills", "credits", "opener", "closer", "gross_proceeds", "prizes",
                                        "agp")),
    Column("hold", RATIO),
    Column("complete"),
    # On the day's total row; empty when not known (no bank count at both ends of the day: never 0).
    *(Column(name, MONEY) for name in ("cash_profit", "cash_long_short", "chips_outside_change", "unexplained",
                                        "deposit_expected", "deposit_recorded")),
    Column("deposit_due", DATE),  # empty on a day that takes no deposit (`takes_deposit`: nothing collected)
    Column("books"),
    Column("entered_late", INT),
    # A fees or session pack's own figures for the period and each day's (pack_section), on rows of
    # their own; on an adjustment's row, what it corrects and its amount; on a table's row whose opener
    # differs from its last count, the statement and the difference (opener - last count); on a day's
    # total row whose deposit expected is over its cash profit, why and by how much (merchandise prizes).
    Column("figure"),
    Column("amount", MONEY),
    Column("count", INT),  # a count beside the figures (days with fees not counted); only where the pack has one
]  # fmt: skip
HEADER = headings(COLUMNS)
CUSTODY = ("drop_cents", "fills_cents", "credits_cents", "opener_cents", "closer_cents", "gross_proceeds_cents",
           "prizes_cents", "agp_cents")  # fmt: skip


def _custody_cells(custody, *, hold: bool = True) -> list:
    """The custody's figures and its hold; no hold (an empty cell) for an adjusting entry, which
    corrects an earlier day's figure: its win over its drop is no percentage of hold."""
    has_closer = custody.closer_known  # else the figures a closer enters are empty: not known (reports.exports)
    cells = [None if name in NEEDS_CLOSER and not has_closer else getattr(custody, name) for name in CUSTODY]
    return [*cells, custody.hold_ratio if hold and has_closer else None]


def game_key(where: str, code: str) -> str:
    """A game's total row in the file, named by the pack's word for it: "twenty_one" (ND),
    "blackjack" (WA), "black_jack" (NY), "paddlewheel"."""
    return game_name(where, code).lower().replace("-", "_").replace(" ", "_")


def _day_rows(day: DailySummary, books: BooksCheck, late: int, where: str, variances: dict | None = None) -> list[list]:
    """A day's tables, each game the site's pack deals (no paddlewheel row where its tables deal
    none; each game named in the pack's words, `game_key` and `game_column`) and the day's total.
    A table whose opener differs from its last count (`variances`, by table number) says so on its
    row, as the PDF does: the statement and the difference (opener - last count)."""
    variances, dealt = variances or {}, get_pack(where).games
    rows = [
        [day.gaming_date, t.table_number, game_column(where, t.game), *_custody_cells(t.custody),
         "yes" if t.complete else "no", *([None] * 9), *_variance_cells(variances.get(t.table_number)), None]
        for t in day.tables
    ]  # fmt: skip
    rows += [_adjustment_row(day, line, where) for line in day.adjustments_recorded]
    rows += [_corrected_later_row(day, line, where) for line in day.adjustments_to_this_day]
    rows += _tournament_late_rows(day, where)
    for game, custody in (("21", day.twenty_one), ("PW", day.paddlewheel)):
        if game in dealt:
            cells = [game_key(where, game), game_column(where, game), *_custody_cells(custody)]
            rows.append([day.gaming_date, *cells, "", *([None] * 12)])
    cash = day.cash
    rows.append(
        [day.gaming_date, "total", "", *_custody_cells(day.total), "", cash.cash_profit_cents, cash.long_short_cents,
         cash.chips_outside_change_cents, cash.unexplained_cents, deposit_cents(cash.deposit_expected_cents),
         cash.deposit_recorded_cents, cash.deposit_due if takes_deposit(day) else None,
         books.statement_with(format_generated_at), late, *_deposit_over_profit_cells(day, where), None]
    )  # fmt: skip
    return rows


def _deposit_over_profit_cells(day: DailySummary, where: str) -> list:
    """The total row's figure and amount: why the deposit expected is over the cash profit (the
    PDF's line, `deposit_over_profit`) and by how much; empty where the two are equal."""
    over = deposit_over_profit(day, where)
    return [over, day.cash.prizes_not_in_cash_cents] if over else [None, None]


def _variance_cells(variance: OpenerVariance | None) -> list:
    return [None, None] if variance is None else [variance.statement, variance.variance_cents]


def _adjustment_row(day: DailySummary, line, where: str) -> list:
    """An adjusting entry recorded on the day, as the page's row (its figures counted in the day's
    total, so the tables' and the adjustments' rows add up to it), what it corrects in `figure`."""
    table = f" table {line.table_number}" if line.table_number else ""
    corrects = f"corrects {line.corrected_date}: {line.figure}{table} ({line.reason}; {line.recorded_by_initials})"
    custody = adjustment_custody((line,))
    return [day.gaming_date, "adjustment", game_column(where, line.game or ""), *_custody_cells(custody, hold=False), "", *([None] * 9), corrects,
            line.amount_cents, None]  # fmt: skip


def _corrected_later_row(day: DailySummary, line, where: str) -> list:
    """An adjusting entry entered on a later day correcting this one, as the PDF's "Corrected later"
    lists it: its amount, no figure of this day (it counts on the day entered)."""
    row = _adjustment_row(day, line, where)
    table = f" table {line.table_number}" if line.table_number else ""
    width = len(_custody_cells(adjustment_custody((line,)), hold=False))
    row[1], row[3 : 3 + width] = CORRECTED_LATER_KIND, [None] * width
    row[-3] = f"corrected on {line.recorded_on}: {line.figure}{table} ({line.reason}; {line.recorded_by_initials})"
    return row


CORRECTED_LATER_KIND = "corrected_later"  # its Table cell in the file
# The Table cell of a tournament fee or prize found late: on the day it counts on, and on the closed day it belongs to.
TOURNAMENT_LATE_KIND, TOURNAMENT_FOUND_LATER_KIND = "tournament_found_late", "tournament_found_later"
LATE_KINDS = (TOURNAMENT_LATE_KIND, TOURNAMENT_FOUND_LATER_KIND)


def _tournament_late_rows(day: DailySummary, where: str) -> list[list]:
    """The PDF's tournament records found late (`_tournament_late_section`) as rows: what each is and
    the day it belongs to (or is counted on) in `figure`, its amount in `amount`."""
    blank = [None] * (len(COLUMNS) - 5)

    def words(t, said: str) -> str:
        return f"{said}: {t.what} ({t.tournament}; {t.rule(where)}) ({t.reason}; {t.initials})"

    return [
        *([day.gaming_date, TOURNAMENT_LATE_KIND, *blank, words(t, f"belongs to {t.corrects_date}"), t.amount_cents,
           None] for t in day.tournament_late_recorded),
        *([day.gaming_date, TOURNAMENT_FOUND_LATER_KIND, *blank, words(t, f"counted on {t.counted_on}"),
           t.amount_cents, None] for t in day.tournament_late_to_this_day),
    ]  # fmt: skip


DEPOSIT_CORRECTION_KIND = "deposit_correction"  # its Table cell in the file


def _deposit_correction_row(correction: DepositCorrectionEntry) -> list:
    """A correction of the day's deposit, as the PDF lists it: what it corrected and why in `figure`,
    the amount it gives in `amount` (the total row's deposit recorded is the deposit as it stands)."""
    what = f"#{correction.correction_id} of deposit #{correction.deposit_id}: {correction.what} ({correction.reason}; {correction.initials})"
    return [correction.gaming_date, DEPOSIT_CORRECTION_KIND, "", *([None] * 9), "", *([None] * 9), what,
            correction.amount_cents, None]  # fmt: skip


def table(data: DailyReport) -> tuple[list[Column], list[list]]:
    rows, holds = [], _holds(data)
    for day, books, pack_day in zip(data.days, data.books, _of_each_day(data), strict=True):
        late = sum(1 for e in data.late if e.gaming_date == day.gaming_date)
        variances = {v.table_number: v for v in data.variances if v.gaming_date == day.gaming_date}
        day_rows = _day_rows(day, books, late, data.where, variances)
        # a fees or session day: its adjusting entries and its total (cash, books) alone, then its own
        # fees or sessions (the PDF's section of the day)
        rows += (
            day_rows
            if holds
            else [row for row in day_rows if row[1] in ("adjustment", CORRECTED_LATER_KIND, *LATE_KINDS, "total")]
        )
        rows += [_deposit_correction_row(c) for c in _day_corrections(data, day)]
        rows += _pack_rows(pack_day, day.gaming_date)
        rows += _check_rows(day, data)
    rows += _period_rows(data)
    gone = (set() if holds else _not_drop_columns(data.where)) | (set() if pack_counts(data.pack) else {"count"})
    return in_words(*without(COLUMNS, rows + _pack_rows(data.pack), gone), revenue_words(data.where))


def _period_rows(data: DailyReport) -> list[list]:
    """The PDF's period section (`_period_section`) as rows with no gaming date: each game's sum
    ("period_" and the game's key) and the total's ("period"), with the cash profit of the days
    with both bank counts."""
    sums = data.period
    if sums is None:
        return []
    rows = []
    for game, _, custody in sums.games:
        cells = [f"period_{game_key(data.where, game)}", game_column(data.where, game), *_custody_cells(custody)]
        rows.append([None, *cells, "", *([None] * 12)])
    counted = sums.cash_profits
    rows.append([None, "period", "", *_custody_cells(sums.total), "", sum(counted) if counted else None,
                 *([None] * 11)])  # fmt: skip
    return rows


# A fees or session pack's day has no drop-based figures, as its PDF shows none: the tables' and
# games' custody, hold and the long (short) reconciled against a win are left out of its file.
NOT_DROP_COLUMNS = {
    "game", "drop", "fills", "credits", "opener", "closer", "gross_proceeds", "prizes", "agp", "hold", "complete",
    "cash_long_short", "chips_outside_change", "unexplained",
}  # fmt: skip
# Where the house's chips go to the tables all the same (a session pack), the cash is the tables'
# custody: the day's total keeps the tables' win and the cash long (short) against it, reconciled
# (the PDF's cash rows, `_cash_rows_against_the_tables`).
CASH_AGAINST_THE_TABLES = {"agp", "cash_long_short", "chips_outside_change", "unexplained"}


def _not_drop_columns(where: str) -> set[str]:
    return NOT_DROP_COLUMNS - CASH_AGAINST_THE_TABLES if where and house_chips(where) else NOT_DROP_COLUMNS


def _pack_rows(pack: dict | None, day=None) -> list[list]:
    """The period's fees or sessions (the PDF's pack section), the kind in the table column; with
    `day`, that day's own (its gaming date in the first column)."""
    kind = "fees" if pack and "fees" in pack else "sessions"
    blank = [None] * (len(COLUMNS) - 5)
    return [
        *([day, kind, *blank, label, cents, None] for label, cents in pack_lines(pack)),
        *([day, kind, *blank, label, None, count] for label, count in pack_counts(pack)),
    ]


def _check_rows(day: DailySummary, data: DailyReport) -> list[list]:
    """A session site's day against its custody (the PDF's section of the day), dated with the day."""
    blank = [None] * (len(COLUMNS) - 5)
    lines = session_check_lines(_session_check(day, data))
    return [[day.gaming_date, "sessions_against_custody", *blank, label, cents, None] for label, cents in lines]


KIND = register(
    ReportKind(
        "daily",
        "Daily report",
        report_rules.DAILY,
        "range",
        build,
        render,
        table,
        reader=DAILY_FIGURES,
        form=report_rules.FORM_DAILY,
        form_title="Twenty-one daily report",
    )
)
