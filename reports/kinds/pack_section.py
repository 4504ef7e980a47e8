"""The pack's own figures in the daily and quarterly reports (accounting.pack_figures): WA-BJ
table fees collected, counted and over/short (no drop-based hold); NY games-of-chance sessions'
receipts, prizes and net. Nothing for a drop pack, whose figures are the report itself."""

from reportlab.platypus import Spacer

from accounting.published import SESSION_CHECK, SESSION_CHECK_TITLE, SessionsAgainstCustody, session_basis
from accounting.rules import SESSION_GAME, TABLE_FEES
from core.money import format_money
from core.pdf import data_table, para
from core.plurals import plural


def _grid(title: str, rows: list, total: list | None = None) -> list:
    table = data_table(["", "Amount"], rows, col_widths=[400, 125], money_columns=[1], total_row=total)
    return [Spacer(1, 4), para(title, "cell_bold"), table]


def pack_lines(pack: dict | None) -> list[tuple[str, int]]:
    """The pack's own figures as (label, cents), the same lines in the PDF and the CSV."""
    if pack and "fees" in pack:
        f = pack["fees"]
        entries = adjusting_entries(f, "fees_adjusted_cents")
        over_short = ", against the fees as corrected" if entries else ""
        return [
            (f"Fees collected ({plural(f['collections'], 'collection')}{entries})", f["fees_collected_cents"]),
            ("Fee cash counted", f["fees_counted_cents"]),
            (f"Over/short (counted days{over_short})", f["over_short_cents"]),
        ]
    if pack and "sessions" in pack:
        s = pack["sessions"]
        prizes = adjusting_entries(s, "prizes_adjusted_cents")
        return [
            (f"Receipts ({plural(s['sessions'], 'session')}{adjusting_entries(s, 'receipts_adjusted_cents')})",
             s["receipts_cents"]),
            (f"Prizes paid{f' ({prizes[2:]})' if prizes else ''}", s["prizes_cents"]),
            ("Net", s["net_cents"]),
        ]  # fmt: skip
    return []


def adjusting_entries(figures: dict, key: str) -> str:
    """The entries to closed days counted in a pack figure (`accounting.rules.PACK_ADJUSTED`), named
    beside it as the daily page names them ("; adjusting entries -$5.00"); "" where there is none."""
    return f"; adjusting entries {format_money(figures[key])}" if key in figures else ""


def pack_counts(pack: dict | None) -> list[tuple[str, int]]:
    """The pack's own counts as (label, number), beside its figures: the days whose fees were not
    counted. The PDF writes each as a sentence, the CSV and XLSX its number in a count column."""
    if pack and "fees" in pack:
        return [("Days with fees not counted", pack["fees"]["days_not_counted"])]
    return []


NOT_COUNTED = "The day's fee cash is not counted: its over/short waits for the two-person count."


def pack_section(pack: dict | None, *, of_the_day: bool = False) -> list:
    """The pack's figures of the period (the report's last section) or, `of_the_day`, those of one
    day (its section of the daily report, as the daily page shows that day's)."""
    lines = [[label, cents] for label, cents in pack_lines(pack)]
    when = " of the day" if of_the_day else ""
    if pack and "fees" in pack:
        title = (
            f"Table fees{when} ({pack['name']}; {TABLE_FEES.at(pack['code'])}: fees on a time basis, "
            "no drop-based hold)"
        )
        if of_the_day:  # one day: counted or not, not a number of days
            uncounted = pack["fees"]["days_not_counted"]
            return [*_grid(title, lines), *([para(NOT_COUNTED, "small")] if uncounted else [])]
        return [*_grid(title, lines), *(para(f"{label}: {count}.", "small") for label, count in pack_counts(pack))]
    if pack and "sessions" in pack:
        title = f"Games-of-chance sessions{when} ({pack['name']}; {session_basis(SESSION_GAME.at(pack['code']))})"
        return _grid(title, lines[:-1], lines[-1])
    return []


def session_check_section(check: SessionsAgainstCustody | None) -> list:
    """A session site's day against its custody (accounting.published.sessions_against_custody), as
    its daily page shows it: the lines, a figure not known yet said so, then what they say."""
    if check is None:
        return []
    rows = [[label, "not counted yet" if cents is None else cents] for label, cents in check.lines]
    title = f"{SESSION_CHECK_TITLE} ({SESSION_CHECK})"
    return [*_grid(title, rows), *(para(statement, "small") for statement in check.statements)]


def session_check_lines(check: SessionsAgainstCustody | None) -> list[tuple[str, int | None]]:
    """The same lines for the CSV, then each statement as a line of its own (no amount)."""
    if check is None:
        return []
    return [*check.lines, *((statement, None) for statement in check.statements)]
