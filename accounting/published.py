"""The books, read: the one module other apps read accounting through (reports, dashboard,
compliance, the demo loaders). Writes go through `accounting.services`; a rule's key and
citation through `accounting.rules`. Nothing else of accounting is imported from outside it
(tests/core/test_published_reads.py).

What is here, by question:
- a site's days and quarters: `daily_summary`, `daily_summaries`, `quarter_summary`,
  `day_of_the_books` (a date's summary where it is a day of the books, else None; `no_books_day`),
  `organization_quarter`, `quarter_game_totals` (the quarter's per-game totals summed by the
  database), `table_days` (live) and `snapshot_table_days` / `table_days_and_shifts` /
  `shift_figures` (closed days from their snapshots, `accounting.day_figures`);
- the games beside their low-hold thresholds: `summary_game_lines`, `hold_schedule`,
  `below_word`, `low_hold_review`, `bank_allocation`; a day's games, with none (the threshold is a
  quarter's): `day_game_lines`; a compliance app supplies the thresholds with
  `register_hold_thresholds` (rows of `HoldThreshold`);
- closed and filed books beside the figures now: `day_checks`, `filings`, `quarter_books`,
  `filed_beside_now`, `filing_tax_now`, `tax_return`, `closed_books_of` (and by id, `closed_books_among`), a quarter's filing (`quarter_filing`), the last day of the latest
  quarter filed at a pack's sites (`last_filed_date`); the entry that amended
  a filed return, in words: `amendment_entry`;
- dealers' percent-of-hold: `dealer_summaries`, `summarize_dealers`, `live_shift_figures`,
  `dealer_totals` (the sums without the shifts, `DealerTotals`: the line the report prints,
  `DealerLine`, with its site and game);
- the pack's own figures: `pack_figures` (and each day's, `pack_days`); a session pack's day against
  its custody: `sessions_against_custody` (`SessionsAgainstCustody`, with `uncounted_boxes`); the other games' AGP: `other_games_agp`,
  `other_games_history`;
- where a quarter's tournament play is counted, day by day, under its days' rows (the tables'):
  `tournament_days_statement`; how many gaming days the quarter had, a date with records only
  (tournament play without a gaming day) named apart: `gaming_days_statement`; whether a day takes
  a bank deposit (not one whose only records are adjusting entries or voided fees, sessions or
  tournament fees): `takes_deposit`, and why one collected nothing: `nothing_collected`; what a day in
  play says of its tables with no closer yet (their figures not known): `closers_not_known_statement`; a quarter with
  nothing played (a seasonal site out of its season): `nothing_played_statement` and its cash
  figures as shown, $0.00 not "not known": `return_cash_profit`;
- the frozen format's tax label (`TAX_LABEL`) and its digest (`figures_digest`: a filing's figures
  against the `figures_sha256` stored beside them), the figures' value types (`Custody`, `ZERO`,
  `ratio_string`) and the adjustment fields (`ADJUSTMENT_FIELDS`).
"""

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.db.models import QuerySet

from cardroom.models import Site
from core.money import format_money
from core.plurals import plural
from packs import RevenueModel, get_pack, pack_for, revenue_words

from . import rules
from .amendments import entry_text as amendment_entry
from .amendments import register_amendment_flag
from .books import (
    Amendment,
    BooksCheck,
    QuarterBooks,
    TaxReturn,
    day_checks,
    filed_beside_now,
    filed_beside_now_note,
    filed_line_label,
    filing_tax_now,
    filings,
    in_pack_words,
    quarter_books,
    tax_return,
)
from .day_figures import dealer_summaries, dealer_totals, shift_figures, site_versions, table_days_and_shifts
from .day_figures import table_days as snapshot_table_days
from .dealer_hold import (
    DealerLine,
    DealerSummary,
    DealerTotals,
    HoldBesideSite,
    ShiftFigures,
    shift_prizes,
    summarize_dealers,
)
from .dealer_hold import dealer_summaries as live_dealer_summaries
from .dealer_hold import shift_figures as live_shift_figures
from .figures import ZERO, Custody, ratio_string
from .frozen import TAX_LABEL
from .frozen import digest as figures_digest
from .games import (
    GameLine,
    HoldThreshold,
    Schedule,
    bank_allocation,
    below_word,
    day_game_lines,
    hold_schedule,
    low_hold_review,
    register_hold_thresholds,
    summary_game_lines,
)
from .models import Adjustment, BooksClose
from .pack_figures import (
    SESSION_CHECK,
    SESSION_CHECK_TITLE,
    SessionsAgainstCustody,
    pack_block,
    pack_days,
    pack_figures,
    sessions_against_custody,
    uncounted_boxes,
)
from .queries import books_closed, last_filed_date, other_games_agp, other_games_history, quarter_filing
from .rules import session_basis
from .summaries import (
    DailySummary,
    QuarterSummary,
    TaxFigures,
    adjustment_custody,
    daily_summaries,
    daily_summary,
    day_of_the_books,
    fees_or_sessions,
    no_books_day,
    nothing_collected,
    organization_quarter,
    quarter_game_totals,
    quarter_summaries,
    quarter_summary,
    return_cash_profit,
    takes_deposit,
)
from .table_days import TableDay, table_days

ADJUSTMENT_FIELDS = Adjustment.Field.choices


def tax_label(tax: TaxFigures) -> str:
    """What the tax is, in the words of the pack that levies it (North Dakota: "ND gaming tax ...
    (N.D.C.C. 53-06.1-12): the North Dakota sites' ..."): the AGP of their tables and their
    tournaments (`summaries.tax_row`: all twenty-one activity, ND 99-01.3-08-16(1)(g))."""
    pack = get_pack(tax.pack_code)
    return (
        f"{pack.code} gaming tax on the AGP recorded here ({rules.GAMING_TAX.at(pack)}): the {pack.name} sites' "
        f"{pack.game_names.word('21')} and paddlewheel AGP, their tables' and their tournaments' "
        f"({rules.TOURNAMENT_PLAY.at(pack)}); the brackets apply to the organization's AGP from all its games, so with "
        "the other games' AGP recorded the tax here is its pro-rata share of the tax on the total."
    )


def tournament_days_statement(summary: QuarterSummary, where, *, taxed: bool) -> str:
    """Where the quarter's tournament play is counted, day by day, as the days' table says it
    under its rows ("" without tournament play): a day's row is its tables' figures, so a
    tournament's fees and prizes are not in it, even on a date with no gaming day opened (a row of
    $0.00); they are the tournament lines' and, `taxed`, in the site's line of the tax
    reconciliation (ND 99-01.3-08-16(1)(g): all twenty-one activity reconciles to the return)."""
    days = summary.tournament_days
    if not days:
        return ""
    words = revenue_words(where)
    each = "; ".join(
        f"{d.gaming_date}: {words.gross} {format_money(t.gross_proceeds_cents)}, prizes {format_money(t.prizes_cents)}, "
        f"{words.net_short} {format_money(t.agp_cents)}"
        for d, t in ((d, d.tournaments) for d in days)
    )
    counted = "in the tournament lines" + (" and in the site's line of the tax reconciliation" if taxed else "")
    return (
        f"Tournament play ({rules.TOURNAMENT_PLAY.at(where)}) is not in these rows, which are the tables' figures; "
        f"it is counted {counted}: {each}."
    )


def gaming_days_statement(summary: QuarterSummary, where) -> str:
    """How many gaming days the quarter had, as the quarterly summary heads its days ("12 gaming
    days"): the days a gaming day was opened on (`QuarterSummary.gaming_days`). A date of the books
    with no gaming day opened is named apart, never counted as one: tournament play (a tournament
    needs no gaming day, ND 99-01.3-08-15), an adjustment entered, fees or sessions recorded."""
    heading = plural(summary.gaming_days, "gaming day")
    others = summary.record_only_days
    if not others:
        return heading
    each = "; ".join(f"{d.gaming_date}: {_recorded_without_a_gaming_day(d, where)}" for d in others)
    dates = plural(len(others), "other date")
    return f"{heading}; {dates} of the books with no gaming day opened, not counted as gaming days ({each})"


def _recorded_without_a_gaming_day(day: DailySummary, where) -> str:
    """What a day of the books with no gaming day holds, in words."""
    held = []
    if not day.tournaments.is_empty:
        held.append(f"tournament play ({rules.TOURNAMENT_PLAY.at(where)})")
    if day.adjustments_recorded:
        held.append("an adjustment entered")
    if fees_or_sessions(day):
        held.append("fees or sessions recorded")
    return " and ".join(held) or "records only"


def nothing_played_statement(summary: QuarterSummary, *, seasonal: bool) -> str:
    """What the quarter's cash says where nothing was played in it (`QuarterSummary.nothing_played`:
    no gaming day opened, no play; a seasonal site out of its season), "" otherwise: its cash
    profit and long (short) are $0.00, not "not known", for no bank count is missing."""
    if not summary.nothing_played:
        return ""
    season = " (a seasonal site, out of its season)" if seasonal else ""
    model = get_pack(summary.jurisdiction).revenue_model if summary.jurisdiction else RevenueModel.DROP
    # A fees or session pack's days of play are its fees or sessions (`played_for_cash`); a fees room's
    # house has no chips at its tables, so no long (short) is reckoned (the quarter page's cash).
    none_recorded = (
        ""
        if model == RevenueModel.DROP
        else f" and no {'fee' if model == RevenueModel.FEES else 'session'} was recorded"
    )
    figures = "cash profit is" if model == RevenueModel.FEES else "cash profit and cash long (short) are"
    return (
        f"No gaming day was opened{none_recorded} at {summary.site_name} in {summary.quarter}{season}: nothing was "
        f"played, so no bank count is missing; its {figures} {format_money(0)}."
    )


def no_bank_count_statement(summary: QuarterSummary, where) -> str:
    """What the quarter says of its days that took cash without both bank counts
    (`QuarterSummary.days_without_bank_count`), "" where there are none: the cash of `where`'s pack
    such a day took (table or tournament play, its table fees or its sessions, each citing the pack's
    rule), the bank count's rule as that pack states it (ND 99-01.3-08-16(1)(a); House control where
    it states none), and that those days' cash figures are not known nor in the quarter's. The
    quarter page, the quarterly PDF and its CSV say it in these words."""
    n = summary.days_without_bank_count
    if not n:
        return ""
    where = where or summary.jurisdiction
    pack = pack_for(where)
    held = [
        words
        for words, kept in (
            ("table play", pack.revenue_model != RevenueModel.FEES),
            ("tournament play", rules.TOURNAMENT_PLAY.applies(where) or not summary.tournaments.is_empty),
            (f"table fees ({rules.TABLE_FEES.at(where)})", pack.revenue_model == RevenueModel.FEES),
            (f"games-of-chance sessions ({rules.SESSION_GAME.at(where)})", pack.revenue_model == RevenueModel.SESSION),
        )
        if kept
    ]
    figures = "cash profit and long (short) are" if pack.revenue_model == RevenueModel.DROP else "cash profit is"
    return (
        f"{plural(n, 'day')} with {' or '.join(held)} {'has' if n == 1 else 'have'} no bank count at both the "
        f"start and the end ({rules.BANK_RECORDS.at(where)}): {'its' if n == 1 else 'their'} {figures} not known "
        "and not in the quarter's totals."
    )


def in_play_statement(summary: QuarterSummary) -> str:
    """What the quarter says of its days whose play has not ended (`QuarterSummary.days_in_play`),
    "" where there are none: a table still in play counts its opener as paid out until its closer
    is entered, so those days' table figures are on their own rows and pages, not in the quarter's
    totals until their gaming day is closed. The quarter page says it in these words."""
    days = summary.days_in_play
    if not days:
        return ""
    dates = ", ".join(str(d.gaming_date) for d in days)
    return (
        f"{plural(len(days), 'gaming day')} still in play ({dates}): "
        f"{'its gaming day is' if len(days) == 1 else 'their gaming days are'} not closed, so "
        f"{'its' if len(days) == 1 else 'their'} table figures may still change and are not in the quarter's "
        "totals until closed."
    )


def closers_not_known_statement(day: DailySummary, where) -> str:
    """What a day in play says of its tables opened with no closer recorded yet, "" where every
    opened table has one: such a table's closer is not known, never $0.00, so neither are its
    figures that need it (paid out, the win, the hold) nor the totals of its game and of the site
    that sum them (`Custody.closer_known`). The opener/closer sequence is a house control
    (floor.rules.TRAY_COUNT). The daily page and the daily report say it in these words."""
    numbers = [str(t.table_number) for t in day.tables if not t.custody.closer_known]
    if not numbers:
        return ""
    words = revenue_words(where)
    one = len(numbers) == 1
    return (
        f"{'Table' if one else 'Tables'} {', '.join(numbers)} {'has' if one else 'have'} no closer recorded yet "
        f"(House control: tray counts): {'its' if one else 'their'} closer, {words.paid}, {words.net_short} and "
        f"{words.hold_name}, and the totals of {'its' if one else 'their'} game and of the site, are not known "
        "until it is recorded, never taken as $0.00."
    )


def seasonal_in(site: Site, quarter) -> bool:
    """Was `site` seasonal in `quarter`: its flag as the site stood at the quarter's end (its
    history; as first recorded where it was made after), so a site made seasonal since is not said
    to have been out of its season then (`nothing_played_statement`)."""
    end = datetime.combine(quarter.end + timedelta(days=1), time(), tzinfo=ZoneInfo(site.time_zone))
    history = site.history.order_by("history_date", "history_id")
    then = history.filter(history_date__lt=end).last() or history.first()
    return site.seasonal if then is None else then.seasonal


def closed_books_of(site: Site, gaming_date: date) -> BooksClose | None:
    """The books closed on the site's gaming day, or None while they are open."""
    return BooksClose.objects.filter(site=site, gaming_date=gaming_date).first()


def closed_books_among(ids, sites) -> QuerySet[BooksClose]:
    """The closed books of the ids `ids` at `sites`, each with its site read beside it (an id of
    books at another site, or of none, is not among them)."""
    return BooksClose.objects.filter(pk__in=ids, site__in=sites).select_related("site")


__all__ = [
    "adjustment_custody",
    "tax_label",
    "tournament_days_statement",
    "gaming_days_statement",
    "nothing_played_statement",
    "no_bank_count_statement",
    "in_play_statement",
    "return_cash_profit",
    "seasonal_in",
    "ADJUSTMENT_FIELDS",
    "register_amendment_flag",
    "amendment_entry",
    "Amendment",
    "BooksCheck",
    "Custody",
    "DailySummary",
    "DealerSummary",
    "DealerLine",
    "DealerTotals",
    "GameLine",
    "HoldBesideSite",
    "HoldThreshold",
    "QuarterBooks",
    "QuarterSummary",
    "Schedule",
    "ShiftFigures",
    "TAX_LABEL",
    "figures_digest",
    "TableDay",
    "TaxFigures",
    "TaxReturn",
    "ZERO",
    "bank_allocation",
    "below_word",
    "low_hold_review",
    "books_closed",
    "last_filed_date",
    "closed_books_of",
    "quarter_filing",
    "closed_books_among",
    "daily_summaries",
    "daily_summary",
    "day_checks",
    "day_game_lines",
    "day_of_the_books",
    "dealer_summaries",
    "dealer_totals",
    "filed_beside_now",
    "filed_beside_now_note",
    "filing_tax_now",
    "filed_line_label",
    "in_pack_words",
    "filings",
    "hold_schedule",
    "live_dealer_summaries",
    "live_shift_figures",
    "fees_or_sessions",
    "no_books_day",
    "nothing_collected",
    "organization_quarter",
    "other_games_agp",
    "other_games_history",
    "pack_block",
    "pack_days",
    "session_basis",
    "pack_figures",
    "SESSION_CHECK",
    "SESSION_CHECK_TITLE",
    "SessionsAgainstCustody",
    "sessions_against_custody",
    "uncounted_boxes",
    "quarter_books",
    "quarter_game_totals",
    "quarter_summaries",
    "quarter_summary",
    "ratio_string",
    "register_hold_thresholds",
    "shift_figures",
    "shift_prizes",
    "site_versions",
    "snapshot_table_days",
    "summarize_dealers",
    "summary_game_lines",
    "table_days",
    "table_days_and_shifts",
    "takes_deposit",
    "tax_return",
]
