"""Twenty-one quarterly summary of a site (SFN 50901 model): one row per gaming day, the
quarter's totals with hold as the ratio of the sums, then the organization's tax
reconciliation (N.D.C.C. 53-06.1-12). The same figures as the quarter-summary and tax APIs."""

from dataclasses import dataclass

from reportlab.platypus import Spacer

from accounting.rules import QUARTER_FIGURES
from accounting.summaries import QuarterSummary, TaxFigures, organization_quarter, organization_tax
from cardroom.money import format_money, format_ratio
from cardroom.pdf import data_table, para
from cardroom.periods import Quarter

from ..registry import ReportContext, ReportKind, register


@dataclass(frozen=True)
class QuarterlyReport:
    site: str
    summary: QuarterSummary
    tax: TaxFigures


def build(context: ReportContext) -> QuarterlyReport:
    quarter = Quarter.containing(context.start)
    every_site = organization_quarter(context.organization, quarter)  # the site's own quarter is among them
    summary = next(s for s in every_site if s.site_id == context.site.pk)
    return QuarterlyReport(
        context.site.name, summary, organization_tax(context.organization, quarter, summaries=every_site)
    )


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


def render(data: QuarterlyReport) -> list:
    return _days(data.summary) + _tax(data.tax)


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
