"""Twenty-one quarterly summary of a site (SFN 50901 model): one row per gaming day, the
quarter's totals with hold as the ratio of the sums, then the organization's tax
reconciliation (N.D.C.C. 53-06.1-12). The same figures as the quarter-summary and tax APIs."""

from dataclasses import dataclass

from reportlab.platypus import Spacer

from accounting.books import (
    Amendment,
    QuarterBooks,
    TaxReturn,
    filed_beside_now,
    filings,
    quarter_books,
    tax_return,
)
from accounting.rules import QUARTER_FIGURES
from accounting.summaries import QuarterSummary, TaxFigures, organization_quarter
from cardroom.money import format_money, format_ratio
from cardroom.pdf import data_table, para
from cardroom.periods import Quarter

from ..registry import ReportContext, ReportKind, register
from .tournament_record import summary_section


@dataclass(frozen=True)
class QuarterlyReport:
    site: str
    summary: QuarterSummary
    tax: TaxFigures  # on the filed figures (books.tax_return)
    books: QuarterBooks
    tax_return: TaxReturn


def build(context: ReportContext) -> QuarterlyReport:
    quarter = Quarter.containing(context.start)
    every_site = organization_quarter(context.organization, quarter)  # the site's own quarter is among them
    summary = next(s for s in every_site if s.site_id == context.site.pk)
    found = filings([s.site_id for s in every_site], [quarter])
    state = quarter_books(summary, found.get((context.site.pk, str(quarter))), context.site.time_zone)
    tax = tax_return(context.organization, quarter, every_site, found)
    return QuarterlyReport(context.site.name, summary, tax.figures, state, tax)


DAY_HEADER = ["Gaming date", "Gross proceeds", "Prizes", "AGP", "Hold", "Cash profit", "Long (short)"]
DAY_WIDTHS = [75, 80, 75, 80, 55, 80, 80]


def _day_rows(summary: QuarterSummary) -> list[list]:
    return [
        [
            str(d.gaming_date),
            d.total.gross_proceeds_cents,
            d.total.prizes_cents,
            d.total.agp_cents,
            format_ratio(d.hold_ratio),
            d.cash.cash_profit_cents,
            d.cash.long_short_cents,
        ]
        for d in summary.days
    ]


def _days(summary: QuarterSummary) -> list:
    total = summary.total
    total_row = [
        "Quarter",
        total.gross_proceeds_cents,
        total.prizes_cents,
        total.agp_cents,
        format_ratio(total.hold_ratio),
        summary.cash_profit_cents,
        summary.long_short_cents,
    ]
    story = [
        para(f"{len(summary.days)} gaming day(s)", "heading"),
        data_table(
            DAY_HEADER, _day_rows(summary), col_widths=DAY_WIDTHS, money_columns=range(1, 7), total_row=total_row
        ),
        para("Hold is the quarter's AGP over its gross proceeds (the ratio of the sums).", "small"),
    ]
    if summary.days_without_bank_count:
        story.append(
            para(
                f"{summary.days_without_bank_count} day(s) with play have no bank count at both the start "
                "and the end: their cash profit and long (short) are not in the quarter's totals."
            )
        )
    net = summary.long_short_cents
    story.append(
        para(
            f"Twenty-one AGP {format_money(summary.twenty_one.agp_cents)}; paddlewheel AGP "
            f"{format_money(summary.paddlewheel.agp_cents)}. Net cash "
            f"{'long (other income)' if net >= 0 else 'short (expense)'}: {format_money(abs(net))}."
        )
    )
    story += summary_section(summary.tournaments, summary.twenty_one.agp_cents)
    return story


TAX_HEADER = ["Site", "Gross proceeds", "Prizes", "AGP", "Cash profit"]


def _tax(tax: TaxFigures) -> list:
    rows = [list(site) for site in tax.sites]
    total = [
        "Organization",
        sum(s[1] for s in tax.sites),
        sum(s[2] for s in tax.sites),
        tax.agp_cents,
        sum(s[4] for s in tax.sites),
    ]
    brackets = [
        [str(b.effective_from), b.lower_cents, f"{b.rate * 100:.2f}% of the excess", b.base_cents, b.citation]
        for b in tax.brackets
    ]
    return [
        Spacer(1, 8),
        para(f"Tax reconciliation, {tax.quarter} (all sites of the organization)", "heading"),
        data_table(TAX_HEADER, rows, col_widths=[165, 90, 90, 90, 90], money_columns=range(1, 5), total_row=total),
        Spacer(1, 4),
        para("ND gaming tax brackets in force", "cell_bold"),
        data_table(
            ["Effective from", "AGP above", "Rate", "Plus", "Citation"],
            brackets,
            col_widths=[85, 90, 140, 90, 120],
            money_columns=[1, 3],
        ),
        para(
            f"Organization AGP {format_money(tax.agp_cents)}: ND gaming tax {format_money(tax.tax_cents)}.", "heading"
        ),
    ]


def _books(data: QuarterlyReport) -> list:
    story = [para("Books", "heading"), para(data.books.statement)]
    if data.books.filed_figures is not None:
        story.append(
            data_table(
                ["", "Filed", "Amendments since", "Figures now"],
                [list(row) for row in filed_beside_now(data.summary, data.books)],
                col_widths=[165, 120, 120, 120],
                money_columns=range(1, 4),
            )
        )
    if data.books.amendments:
        story += [
            para("Amendments: corrections of this quarter entered in a later quarter (counted there)", "cell_bold"),
            _amendment_table(data.books.amendments),
        ]
    if data.books.amending_earlier:
        story += [
            para("Corrections entered this quarter that amend an earlier quarter (counted here)", "cell_bold"),
            _amendment_table(data.books.amending_earlier),
        ]
    return [*story, Spacer(1, 6)]


AMENDMENT_HEADER = ["Corrects", "Entered on", "Quarter", "Figure", "Amount", "AGP effect", "Reason"]


def amendment_rows(amendments: tuple[Amendment, ...]) -> list[list]:
    return [
        [
            str(a.line.corrected_date),
            str(a.line.recorded_on),
            f"{a.quarter}{' (filed)' if a.filed else ''}",
            f"{a.line.field}{f' table {a.line.table_number}' if a.line.table_number else ''}",
            a.line.amount_cents,
            a.agp_effect_cents,
            f"{a.line.reason} ({a.line.approved_by_initials})",
        ]
        for a in amendments
    ]


def _amendment_table(amendments) -> object:
    return data_table(
        AMENDMENT_HEADER,
        amendment_rows(amendments),
        col_widths=[62, 62, 80, 70, 58, 58, 135],
        money_columns=[4, 5],
    )


def _tax_return(data: QuarterlyReport) -> list:
    tax = data.tax_return
    if tax.filed:
        basis = f"Filed: every site's quarterly summary ({', '.join(tax.filed_sites)})."
    elif tax.filed_sites:
        basis = (
            f"Filed sites' figures as filed ({', '.join(tax.filed_sites)}); not filed, figures now: "
            f"{', '.join(tax.unfiled_sites)}."
        )
    else:
        basis = "Not filed: the figures now."
    story = [para(basis)]
    if tax.amendments:
        story.append(
            para(
                f"Amendments since: AGP {format_money(tax.amendment_agp_cents, signed=True)}, counted and taxed in the "
                f"quarter they were entered. AGP as amended {format_money(tax.amended_agp_cents)}: tax "
                f"{format_money(tax.amended_tax_cents)} (on the filed figures {format_money(tax.figures.tax_cents)})."
            )
        )
    return story


def render(data: QuarterlyReport) -> list:
    return _books(data) + _days(data.summary) + _tax(data.tax) + _tax_return(data)


HEADER = ["row", "gaming_date", "gross_proceeds", "prizes", "agp", "hold", "cash_profit", "long_short", "tax"]


def table(data: QuarterlyReport) -> tuple[list[str], list[list]]:
    s = data.summary
    rows = [
        [
            "day",
            str(d.gaming_date),
            *(format_money(c) for c in (d.total.gross_proceeds_cents, d.total.prizes_cents, d.total.agp_cents)),
            format_ratio(d.hold_ratio),
            format_money(d.cash.cash_profit_cents),
            format_money(d.cash.long_short_cents),
            "",
        ]
        for d in s.days
    ]
    rows.append(
        [
            "quarter",
            str(s.quarter),
            *(format_money(c) for c in (s.total.gross_proceeds_cents, s.total.prizes_cents, s.total.agp_cents)),
            format_ratio(s.hold_ratio),
            format_money(s.cash_profit_cents),
            format_money(s.long_short_cents),
            "",
        ]
    )
    rows += [
        ["tax_site", name, format_money(gp), format_money(prizes), format_money(agp), "", format_money(profit), "", ""]
        for name, gp, prizes, agp, profit in data.tax.sites
    ]
    rows += [
        ["amendment", str(a.line.corrected_date), "", "", format_money(a.agp_effect_cents), "", "", "", ""]
        for a in data.books.amendments
    ]
    rows += [
        ["amends_earlier", str(a.line.corrected_date), "", "", format_money(a.agp_effect_cents), "", "", "", ""]
        for a in data.books.amending_earlier
    ]
    rows.append(["books", data.books.state, "", "", "", "", "", "", data.books.statement])
    rows.append(
        [
            "tax",
            str(data.tax.quarter),
            "",
            "",
            format_money(data.tax.agp_cents),
            "",
            "",
            "",
            format_money(data.tax.tax_cents),
        ]
    )
    return HEADER, rows


KIND = register(
    ReportKind(
        "quarterly",
        "Twenty-one quarterly summary",
        "ND 99-01.3-08-16(1)(g); SFN 50901; N.D.C.C. 53-06.1-12",
        "quarter",
        build,
        render,
        table,
        large=True,
        reader=QUARTER_FIGURES,
    )
)
