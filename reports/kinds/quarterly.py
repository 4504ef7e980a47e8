"""Quarterly summary of a site (at ND the SFN 50901 model): one row per gaming day with each
game the site's pack deals apart (`Pack.games`: ND's twenty-one and paddlewheel, Washington's
blackjack only, each by its pack's name; the codes "21" and "PW" in its headers and Game column
only where the pack asks for that reference, ND 99-01.3-08-05(3)(a): floor.rules.game_column),
each game's quarter beside its own low-hold threshold where the pack states one
(ND 99-01.3-08-04(9)) and their total, the days with tournament play named under the days with
their figures (a day's row is its tables', even on a date with no gaming day opened: the
tournaments are counted in the tournament lines and the tax's site line, ND 99-01.3-08-16(1)(g)),
the cash long (short) with its reconciling lines, then
the organization's tax reconciliation where the pack levies one (N.D.C.C. 53-06.1-12). The same
figures as the quarter-summary and tax APIs. The CSV and XLSX (`table`) carry every row the PDF
prints, section by section (the books with the figures as filed beside those now, the days and
games, the cash and tournament lines, the pack's own figures, the tax), with the same figures:
they may carry more, never less. A fees or session pack's report has no drop-based days or games
in either.

The report is a list of sections (`SECTIONS`); a later section (tournaments, say) is a function
of the report data appended there, not a change to the others."""

from dataclasses import dataclass

from django.utils.text import capfirst
from reportlab.platypus import Spacer

from accounting.published import (
    Amendment,
    GameLine,
    QuarterBooks,
    QuarterSummary,
    TaxFigures,
    TaxReturn,
    bank_allocation,
    below_word,
    filed_beside_now,
    filed_beside_now_note,
    filings,
    gaming_days_statement,
    in_pack_words,
    in_play_statement,
    low_hold_review,
    no_bank_count_statement,
    nothing_played_statement,
    organization_quarter,
    pack_block,
    quarter_books,
    return_cash_profit,
    seasonal_in,
    summary_game_lines,
    tax_return,
    tournament_days_statement,
)
from accounting.rules import COMBINED_BANK, GAMING_TAX, LOW_HOLD, QUARTER_FIGURES, TOURNAMENT_PLAY
from cardroom.models import Game
from core.money import format_money, format_ratio
from core.pdf import data_table, format_generated_at, para
from core.periods import Quarter
from core.plurals import plural
from floor.rules import SLIP_GAME_REFERENCE, game_column, house_chips
from packs import RevenueWords, game_name, game_names, get_pack, revenue_words
from statefiling.queries import amendment_statements, receipt_statement

from .. import rules as report_rules
from ..columns import DATE, INT, MONEY, RATIO, Column, headings, in_words, without
from ..registry import ReportContext, ReportKind, register
from .adjustments import adjustment_row, adjustment_table
from .pack_section import pack_counts, pack_lines, pack_section
from .tournament_record import summary_rows, summary_section, summary_total_row

# Each game's figures of a day or quarter summary (QuarterSummary, DailySummary), by Game code.
DAY_FIGURES = {Game.TWENTY_ONE.value: "twenty_one", Game.PADDLEWHEEL.value: "paddlewheel"}


def dealt_games(where: str) -> tuple[str, ...]:
    """The games a site of the pack `where` deals (`Pack.games`), in the report's order."""
    games = get_pack(where).games
    return tuple(code for code in DAY_FIGURES if code in games)


@dataclass(frozen=True)
class QuarterlyReport:
    site: str
    summary: QuarterSummary
    tax: TaxFigures | None  # on the filed figures (books.tax_return); None where the pack states no tax
    books: QuarterBooks
    tax_return: TaxReturn | None
    games: tuple[GameLine, ...] = ()  # game 21, paddlewheel (each with its threshold), total
    pack: dict | None = None  # the pack's own figures for the quarter (accounting.pack_figures)
    where: str = ""  # the site's Site.jurisdiction: its pack cites the rules and states the tax
    receipt: str = ""  # the state registry's receipt of the filing (statefiling), or its delivery state
    filed_tax: dict | None = None  # the tax the site's filing froze (its figures' "tax"), if any
    amendment_receipts: tuple[str, ...] = ()  # each amendment sent to the state registry, with its receipt
    seasonal: bool = False  # the site seasonal in the quarter (seasonal_in): a quarter with nothing played says so
    review: str = ""  # whether a game below its threshold starts the review at the site (low_hold_review)

    @property
    def holds(self) -> bool:
        """Drop-based figures and hold (a drop pack's, accounting.pack_figures `hold_applies`)."""
        return self.pack is None or self.pack.get("hold_applies", True)

    @property
    def dealt(self) -> tuple[str, ...]:
        """The games the site's pack deals: the days' columns and the games' lines."""
        return dealt_games(self.where)


NOT_KNOWN = "not known"


def known(cents: int | None):
    """A cash figure for a money column: cents, or "not known" (never $0.00) without a bank count."""
    return NOT_KNOWN if cents is None else cents


def build(context: ReportContext) -> QuarterlyReport:
    quarter = Quarter.containing(context.start)
    every_site = organization_quarter(context.organization, quarter)  # the site's own quarter is among them
    summary = next(s for s in every_site if s.site_id == context.site.pk)
    found = filings([s.site_id for s in every_site], [quarter])
    filing = found.get((context.site.pk, str(quarter)))
    state = quarter_books(summary, filing, context.site.time_zone)
    # The gaming tax only where the site's pack states it (an obligation of that law, not a control).
    tax = tax_return(context.organization, quarter, every_site, found) if GAMING_TAX.applies(context.site) else None
    games = summary_game_lines(summary, quarter.end, where=context.site)  # the games the pack deals
    pack = pack_block(context.site, summary.pack)  # the summary's own figures, not read again
    return QuarterlyReport(context.site.name, summary, tax.figures if tax else None, state, tax, games, pack,
                           context.site.jurisdiction, receipt_statement(state.filing, context.site),
                           filing.figures.get("tax") if filing else None,
                           tuple(f"{a.label}: {a.statement}" for a in amendment_statements(state.filing, context.site)),
                           summary.nothing_played and seasonal_in(context.site, quarter),
                           low_hold_review(context.site, quarter.end))  # fmt: skip


def day_header(where: str) -> list[str]:
    """The days' columns at a site of the pack `where`: each game it deals apart, named as its
    Game column names it (floor.rules.game_column: "21" and "PW" where the pack asks for that
    reference, ND 99-01.3-08-05(3)(a), else the pack's name, "Blackjack"), with its gross
    proceeds, AGP and hold in the words of the pack (packs.RevenueWords); then the cash."""
    words = revenue_words(where)
    per_game = [
        f"{game_column(where, code)} {name}"
        for code in dealt_games(where)
        for name in (words.gross, words.net_short, "hold")
    ]
    return ["Gaming date", *per_game, "Cash profit", "Long (short)"]


# 525, the portrait frame: by the number of games dealt.
DAY_WIDTHS = {2: [62, 60, 62, 50, 58, 60, 50, 62, 61], 1: [85, 95, 95, 70, 90, 90]}


def _day_row(label, summary, dealt: tuple[str, ...], cash_profit, long_short) -> list:
    cells = [label]
    for code in dealt:
        custody = getattr(summary, DAY_FIGURES[code])
        # A day in play with a table not closed: its win and hold not known (`Custody.closer_known`).
        hold = format_ratio(custody.hold_ratio) if custody.closer_known else NOT_KNOWN
        cells += [custody.gross_proceeds_cents, known(custody.known_agp_cents), hold]
    return [*cells, known(cash_profit), known(long_short)]


def _quarter_cash(summary: QuarterSummary) -> tuple[int | None, int | None]:
    """The quarter's cash profit and long (short) as its total row shows them: $0.00 where nothing
    was played (`return_cash_profit`), not known where play went without a bank count."""
    return (
        return_cash_profit(summary, summary.cash_profit_cents),
        return_cash_profit(summary, summary.long_short_cents),
    )


def _day_rows(summary: QuarterSummary, dealt: tuple[str, ...]) -> list[list]:
    return [
        _day_row(str(d.gaming_date), d, dealt, d.cash.cash_profit_cents, d.cash.long_short_cents) for d in summary.days
    ]


def _games_apart(where: str, words: RevenueWords) -> str:
    """The sentence under the days: each game in the pack's word, with its code beside it only
    where the pack asks for that reference (SLIP_GAME_REFERENCE, ND 99-01.3-08-05(3)(a))."""
    names, coded = game_names(where), SLIP_GAME_REFERENCE.applies(where)
    named = [f"{names.word(code)} ({code})" if coded else names.word(code) for code in dealt_games(where)]
    games = " and ".join(named)
    games = games[0].upper() + games[1:]
    if len(named) == 1:
        return f"{games}; hold is its {words.net_short} over its {words.gross}."
    return f"{games} apart; hold is each game's {words.net_short} over its {words.gross}."


def _days(data: QuarterlyReport) -> list:
    summary, dealt, words = data.summary, data.dealt, revenue_words(data.where)
    header = day_header(data.where)
    total_row = _day_row("Quarter", summary, dealt, *_quarter_cash(summary))
    # The days a gaming day was opened on; a date of the books without one (tournament play alone,
    # ND 99-01.3-08-15) is named under the heading, never counted as a gaming day.
    apart = [para(gaming_days_statement(summary, data.where), "small")] if summary.record_only_days else []
    # The days still in play: on their rows, not in the quarter's totals (`in_play_statement`).
    apart += [para(in_play_statement(summary), "small")] if summary.days_in_play else []
    return [
        para(plural(summary.gaming_days, "gaming day"), "heading"),
        *apart,
        data_table(
            header,
            _day_rows(summary, dealt),
            col_widths=DAY_WIDTHS[len(dealt)],
            money_columns=[i for i, name in enumerate(header) if i and not name.endswith(" hold")],
            right_columns=[i for i, name in enumerate(header) if name.endswith(" hold")],
            total_row=total_row,
        ),
        para(_games_apart(data.where, words), "small"),
        *_tournament_days(data),
    ]


def _tournament_days(data: QuarterlyReport) -> list:
    """Under the days: the days with tournament play, their figures and where they are counted
    (a day's row is its tables'); nothing without tournament play."""
    statement = tournament_days_statement(data.summary, data.where, taxed=data.tax is not None)
    return [para(statement, "small")] if statement else []


def game_header(words: RevenueWords) -> list[str]:
    """The games' columns, in the words of the site's pack (packs.RevenueWords)."""
    return ["Game", capfirst(words.gross), words.paid_label, capfirst(words.net_short), "Hold", "Low-hold threshold",
            "Hold below it"]  # fmt: skip


GAME_WIDTHS = [85, 80, 75, 75, 55, 85, 70]


def game_rows(lines) -> list[list]:
    return [
        [
            line.label,
            line.custody.gross_proceeds_cents,
            line.custody.prizes_cents,
            line.custody.agp_cents,
            format_ratio(line.hold_ratio),
            format_ratio(line.threshold.ratio) if line.threshold else "",
            below_word(line) if line.threshold else "",
        ]
        for line in lines
    ]


def _games(data: QuarterlyReport) -> list:
    lines = data.games
    if not LOW_HOLD.applies(data.where):  # no low-hold thresholds in the pack's law
        rows = [row[:5] for row in game_rows(lines)]
        header = game_header(revenue_words(data.where))[:5]
        return [para("Games", "heading"), data_table(header, rows, col_widths=[145, 110, 100, 100, 70],
                                                     money_columns=[1, 2, 3], right_columns=[4])]  # fmt: skip
    return [
        para("Games", "heading"),
        data_table(
            game_header(revenue_words(data.where)),
            game_rows(lines),
            col_widths=GAME_WIDTHS,
            money_columns=[1, 2, 3],
            right_columns=[4, 5, 6],
        ),
        para(low_hold_note(data), "small"),
    ]


def low_hold_note(data: QuarterlyReport) -> str:
    """The sentence under the games where the pack states a low-hold rule: the rule, cited, and
    whether a game below its threshold starts the review at the site (`low_hold_review`, the quarter
    page's words); the PDF prints it, the CSV carries it on its `low_hold_review` row. "" elsewhere."""
    if not LOW_HOLD.applies(data.where):
        return ""
    cited = sorted({line.threshold.citation for line in data.games if line.threshold})
    return (
        f"{', '.join(cited) or LOW_HOLD.at(data.where)}: at a site that requires video surveillance, a quarter's "
        f"percent-of-hold less than the game's threshold starts a video review. {data.review} Each game is "
        "judged on its own figures; the total is the sum of both."
    )


def cash_line_labels(words: RevenueWords, *, tournaments: str = "") -> tuple[tuple[str, str | None], ...]:
    """The quarter's cash lines (label, attribute; None: the total win, with the tournaments' where
    there was tournament play, `tournaments` the rule's citation: the bank's cash holds theirs), the
    win named in the words of the site's pack (packs.RevenueWords)."""
    played = f" and tournaments ({tournaments})" if tournaments else ""
    return (
        ("Cash profit (days with a bank count)", "cash_profit_cents"),
        (f"{words.net_label}, all games{played}", None),
        (f"Cash long (short) = cash profit - {words.net_short} of those days", "long_short_cents"),
        ("Reconciling line: change in chips outside the house", "chips_outside_change_cents"),
        ("Unexplained remainder", "unexplained_cents"),
        ("Long (short) of days without a chip count", "long_short_without_chip_count_cents"),
    )


ALLOCATION_HEADER = ["Game", "AGP", "Cash long (short) allocated"]


def allocation_rows(data: QuarterlyReport) -> list[list] | None:
    """Game 21 and paddlewheel (by the pack's names) with the combined bank's long (short)
    allocated (08-16(4)), or None."""
    allocation = bank_allocation(data.summary, data.where)
    if allocation is None:
        return None
    names = game_names(data.where)
    return [
        [names.label("21"), allocation.twenty_one_agp_cents, known(allocation.twenty_one_long_short_cents)],
        [names.label("PW"), allocation.paddlewheel_agp_cents, allocation.paddlewheel_long_short_cents],
    ]


def _allocation_csv_rows(data: QuarterlyReport) -> list[list]:
    """The CSV's and XLSX's rows of the combined bank's allocation, as the page and the PDF show it
    (`allocation_rows`): one per game and the combined bank, each citing the pack's rule; none
    where the pack does not state it or the bank served one game."""
    rows = allocation_rows(data)
    if rows is None:
        return []
    note = (
        f"{COMBINED_BANK.at(data.where)}: the combined bank's cash long (short) is allocated to "
        f"{game_name(data.where, '21')}"
    )
    s = data.summary
    return [
        *(
            _row("bank_allocation", game=game_column(data.where, game), label=label, agp=agp,
                 long_short=s.long_short_cents if game == "21" else 0, note=note)
            for game, (label, agp, _) in zip(("21", "PW"), rows, strict=True)
        ),
        _row("bank_allocation", game="total", label="Combined bank", agp=s.total.agp_cents,
             long_short=s.long_short_cents, note=note),
    ]  # fmt: skip


def combined_bank_section(data: QuarterlyReport) -> list:
    """A combined twenty-one/paddlewheel bank's long (short), allocated to twenty-one, where the
    site's pack states the rule (ND 99-01.3-08-16(4)) and the site's bank served both games."""
    rows = allocation_rows(data)
    if rows is None:
        return []
    game = game_name(data.where, "21")
    return [
        Spacer(1, 4),
        para(f"Combined {game}/paddlewheel cash bank ({COMBINED_BANK.at(data.where)})", "cell_bold"),
        data_table(ALLOCATION_HEADER, rows, col_widths=[225, 150, 150], money_columns=[1, 2],
                   total_row=["Combined bank", data.summary.total.agp_cents, known(data.summary.long_short_cents)]),
        para(f"The combined bank's cash long (short) is allocated to {game}; paddlewheel carries none.", "small"),
    ]  # fmt: skip


def cash_lines(summary: QuarterSummary, *, holds: bool = True, where: str = "") -> list[tuple[str, int | None]]:
    """The quarter's cash lines (label, cents or None: not known), the same in the PDF and the
    CSV; without a drop-based AGP (a fees or session pack) only the cash profit, except where the
    house's chips go to the tables all the same (a session pack, `reconciles_cash`): its cash is
    the tables' custody, its long (short) against the tables' win (`tables_cash_line_labels`)."""
    t = summary.tournaments
    cited = TOURNAMENT_PLAY.at(where) if where and not t.is_empty else ""
    if holds:
        labels = cash_line_labels(revenue_words(where), tournaments=cited)
    elif reconciles_cash(holds, where):
        labels = tables_cash_line_labels(revenue_words(where))
    else:
        labels = cash_line_labels(revenue_words(where))[:1]
    return [
        (
            label,
            summary.total.agp_cents + t.agp_cents
            if name is None
            else return_cash_profit(summary, getattr(summary, name)),
        )
        for label, name in labels
    ]


def reconciles_cash(holds: bool, where: str) -> bool:
    """Is the cash long (short) reconciled at the site: a drop pack's (`holds`), or where the house's
    chips go to the tables though the revenue is not a drop (a session pack, floor.rules.house_chips)."""
    return holds or bool(where and house_chips(where))


def tables_cash_line_labels(words: RevenueWords) -> tuple[tuple[str, str | None], ...]:
    """A session pack's cash lines: its revenue is its sessions' net, but its cash took the tables'
    drop and paid their payout, so its long (short) is against the tables' win (accounting.summaries
    .cash_figures), shown as a line of its own so that the subtraction can be checked."""
    labels = cash_line_labels(words)
    return (
        labels[0],
        (f"{words.net_label} of the tables ({words.gross_short} counted - {words.paid} at the tables)", None),
        (f"Cash long (short) = cash profit - the tables' {words.net_short} of those days", "long_short_cents"),
        *labels[3:],
    )


def no_bank_count_notes(summary: QuarterSummary, where) -> list[str]:
    """The days without both bank counts, as the PDF's cash section and the CSV say it (the quarter
    page's words, `no_bank_count_statement`: the bank count's rule as the site's pack states it)."""
    statement = no_bank_count_statement(summary, where)
    return [statement] if statement else []


def cash_rows(summary: QuarterSummary, *, holds: bool = True, where: str = "") -> list[list]:
    return [[label, known(cents)] for label, cents in cash_lines(summary, holds=holds, where=where)]


def _cash(data: QuarterlyReport) -> list:
    summary = data.summary
    story = [
        para("Cash", "heading"),
        data_table(
            ["", "Amount"],
            cash_rows(summary, holds=data.holds, where=data.where),
            col_widths=[400, 125],
            money_columns=[1],
        ),
    ]
    if reconciles_cash(data.holds, data.where):
        story.append(
            para(
                "Long (short) = change in chips outside the house + unexplained remainder + long (short) of the days "
                "whose chips were not counted.",
                "small",
            )
        )
    story += combined_bank_section(data)
    story += [para(note) for note in no_bank_count_notes(summary, data.where)]
    net = summary.long_short_cents
    nothing = nothing_played_statement(summary, seasonal=data.seasonal)
    if not data.holds:
        story += [para(nothing)] if nothing else []  # a fees or session site's quarter of no play, said
    elif nothing:
        story.append(para(f"Net cash long (short) for the quarter: {format_money(0)}. {nothing}"))
    elif net is None:
        story.append(para("Net cash long (short) for the quarter: not known (no bank count)."))
    else:
        story.append(
            para(f"Net cash {'long (other income)' if net >= 0 else 'short (expense)'}: {format_money(abs(net))}.")
        )
    story += summary_section(summary.tournaments, summary.twenty_one.agp_cents, where=data.where)
    return story


def tournament_lines(data: QuarterlyReport) -> list[tuple[str, int]]:
    """The quarter's tournament lines and their total (label, cents), as the PDF's cash section
    shows them (`summary_section`); none without tournament play."""
    t = data.summary.tournaments
    if t.is_empty:
        return []
    rows = [*summary_rows(t), summary_total_row(t, data.summary.twenty_one.agp_cents, data.where)]
    return [(label, cents) for label, cents in rows]


TAX_HEADER = ["Site", "Gross proceeds", "Prizes", "AGP", "Cash profit"]


def _known_total(values) -> int | str:
    values = [v for v in values if v is not None]
    return sum(values) if values else NOT_KNOWN


def _tax(tax: TaxFigures) -> list:
    pack = get_pack(tax.pack_code)  # the pack whose law levies the tax: its name and code in the words
    rows = [[name, gp, prizes, agp, known(profit)] for name, gp, prizes, agp, profit in tax.sites]
    total = tax_total_row(tax)
    brackets = [
        [str(b.effective_from), b.lower_cents, f"{b.rate * 100:.2f}% of the excess", b.base_cents, b.citation]
        for b in tax.brackets
    ]
    story = [
        Spacer(1, 8),
        para(f"Tax reconciliation, {tax.quarter} (the organization's {pack.name} sites)", "heading"),
        data_table(TAX_HEADER, rows, col_widths=[165, 90, 90, 90, 90], money_columns=range(1, 5), total_row=total),
    ]
    if tax.other_sites:
        story.append(
            para(f"Not in the {pack.code} gaming tax (another jurisdiction): {', '.join(tax.other_sites)}.", "small")
        )
    story += [
        Spacer(1, 4),
        para(f"{pack.code} gaming tax brackets in force", "cell_bold"),
        data_table(
            ["Effective from", "AGP above", "Rate", "Plus", "Citation"],
            brackets,
            col_widths=[85, 90, 140, 90, 120],
            money_columns=[1, 3],
        ),
        Spacer(1, 4),
        para("The tax on the organization's AGP and on the AGP recorded here", "cell_bold"),
        data_table(["", "Amount"], tax_rows(tax), col_widths=[400, 125], money_columns=[1]),
        para(
            f"{pack.code} gaming tax on the AGP recorded here {format_money(tax.tax_cents)} (on AGP of "
            f"{format_money(tax.agp_cents)}).",
            "heading",
        ),
        para(_tax_basis(tax), "small"),
    ]
    return story


def tax_total_row(tax: TaxFigures) -> list:
    """The tax's sites summed: the pack's sites, gross proceeds, prizes, AGP, cash profit (of the
    sites whose cash profit is known; "not known" where none is)."""
    return [
        f"{get_pack(tax.pack_code).name} sites",
        sum(s[1] for s in tax.sites),
        sum(s[2] for s in tax.sites),
        tax.agp_cents,
        _known_total(s[4] for s in tax.sites),
    ]


def tax_rows(tax: TaxFigures) -> list[list]:
    other = tax.other_games_agp_cents
    pack = get_pack(tax.pack_code)
    # The sites' lines carry all their twenty-one activity, the tournaments' with the tables'
    # (accounting.summaries.tax_row, ND 99-01.3-08-16(1)(g)): the label says so.
    return [
        [f"AGP recorded here ({pack.name} sites' tables and tournaments, {TOURNAMENT_PLAY.at(pack)})", tax.agp_cents],
        ["Other games' AGP (recorded by a gaming manager)", "not recorded" if other is None else other],
        ["Organization's AGP, all games", tax.organization_agp_cents],
        ["Tax on the organization's AGP (brackets on the total)", tax.organization_tax_cents],
        ["Tax on the AGP recorded here", tax.tax_cents],
    ]


def _tax_basis(tax: TaxFigures) -> str:
    law = GAMING_TAX.at(tax.pack_code)  # the statute of the pack that levies the tax
    if tax.other_games_agp_cents is None:
        return (
            f"{law} taxes the organization's AGP from all its games; the other games' AGP is not "
            "recorded for this quarter, so the brackets are applied to the AGP recorded here only."
        )
    return (
        f"{law} applies its brackets to the organization's AGP from all its games; the tax on the AGP "
        "recorded here is its share of that tax: tax on the total x AGP here / total (assumed apportionment)."
    )


def _books(data: QuarterlyReport) -> list:
    story = [para("Books", "heading"), para(data.books.statement_with(format_generated_at, report=True))]
    story.extend(para(a["statement"]) for a in data.books.filing_amendments)  # each entry that amended it
    if data.receipt:
        story.append(para(data.receipt))
    story.extend(para(line) for line in data.amendment_receipts)
    if data.books.filed_figures is not None:
        story.append(
            data_table(
                ["", "Filed", "Amendments since", "Figures now"],
                [
                    list(row)
                    for row in in_pack_words(
                        filed_beside_now(data.summary, data.books, data.filed_tax, data.tax_return), data.where
                    )
                ],
                col_widths=[165, 120, 120, 120],
                money_columns=range(1, 4),
            )
        )
        story.append(para(filed_beside_now_note(taxed=data.tax is not None), "small"))  # as the page says
    if data.books.amendments:
        story += [
            para("Amendments: corrections of this quarter entered in a later quarter (counted there)", "cell_bold"),
            _amendment_table(data.books.amendments, data.where),
        ]
    if data.books.amending_earlier:
        story += [
            para("Corrections entered this quarter that amend an earlier quarter (counted here)", "cell_bold"),
            _amendment_table(data.books.amending_earlier, data.where),
        ]
    return [*story, Spacer(1, 6)]


def amendment_rows(amendments: tuple[Amendment, ...]) -> list[list]:
    """Each amendment's cells (adjustments.adjustment_row), with the quarter it corrects."""
    return [adjustment_row(a.line, f"{a.quarter}{' (filed)' if a.filed else ''}") for a in amendments]


def _amendment_table(amendments, where: str) -> object:
    return adjustment_table(amendment_rows(amendments), where)


def tax_return_basis(tax: TaxReturn) -> str:
    """Which figures the organization's return is on: filed, partly filed or the figures now."""
    if tax.filed:
        return f"Filed: every site's quarterly summary ({', '.join(tax.filed_sites)})."
    if tax.filed_sites:
        return (
            f"Filed sites' figures as filed ({', '.join(tax.filed_sites)}); not filed, figures now: "
            f"{', '.join(tax.unfiled_sites)}."
        )
    return "Not filed: the figures now."


def tax_return_lines(tax: TaxReturn) -> list[tuple[str, int]]:
    """The figures of the return's amendments (label, cents), as the PDF's sentence under the tax
    gives them (`_tax_return`); none when the filed return is not amended."""
    if not tax.amended:
        return []
    other = (
        [("Other games' AGP recorded after the filing", tax.other_games_amendment_cents),
         ("Other games' AGP now", tax.other_games_now_cents or 0)]
        if tax.other_games_amendment_cents
        else []
    )  # fmt: skip
    return [
        ("Amendments since: AGP", tax.amendment_agp_cents),
        *other,
        ("Tax as the return now stands", tax.amended_tax_cents),
        ("Tax on the filed figures", tax.figures.tax_cents),
    ]


def _tax_return(data: QuarterlyReport) -> list:
    tax = data.tax_return
    story = [para(tax_return_basis(tax))]
    if tax.amended:
        other = (
            f"; other games' AGP {format_money(tax.other_games_amendment_cents, signed=True)}, recorded after the filing "
            f"(now {format_money(tax.other_games_now_cents or 0)})"
            if tax.other_games_amendment_cents
            else ""
        )
        story.append(
            para(
                f"Amendments since: AGP {format_money(tax.amendment_agp_cents, signed=True)}, counted and taxed in the "
                f"quarter they were entered, not again here{other}. Tax as the return now stands "
                f"{format_money(tax.amended_tax_cents)} (on the filed figures {format_money(tax.figures.tax_cents)})."
            )
        )
    return story


def _tax_sections(data: QuarterlyReport) -> list:
    return _tax(data.tax) + _tax_return(data) if data.tax is not None else []


# The report's sections in order, each a function of the report data returning flowables.
def _pack(data: QuarterlyReport) -> list:
    return pack_section(data.pack)


def _drop_sections(data: QuarterlyReport) -> list:
    """The days and the games: a drop pack's figures with their hold (none for a fees or session pack)."""
    return _days(data) + _games(data) if data.holds else []


SECTIONS = [_books, _drop_sections, _pack, _cash, _tax_sections]


def render(data: QuarterlyReport) -> list:
    story = []
    for section in SECTIONS:
        story += section(data)
    return story


COLUMNS = [
    # The kind of row, each a row of a section of the PDF or a sentence of its text (a row with only
    # a note). Books: books, receipt, filed_beside_now, amendment, amends_earlier. Days and games:
    # gaming_days (how many, the PDF's heading of the days, other dates of the books named), day, quarter,
    # low_hold_review (where the pack states the rule: the sentence under the games, whether a game below
    # its threshold starts the video review at the site). Cash: cash, bank_allocation, tournament, tournament_day. The pack's figures: pack. Tax: tax_site,
    # tax_sites_total, tax_bracket, tax_line, tax, tax_return.
    Column("row"),
    Column("gaming_date", DATE),  # a day's; an amendment's: the date it corrects; a tax bracket's: in force from
    Column("label"),  # the quarter, a cash, tournament or tax line, a site, the books' state, a filed figure
    Column("game"),  # the code where the pack asks for it (ND: 21, PW), else its name (floor.rules.game_column); total
    Column("gross_proceeds", MONEY),
    Column("prizes", MONEY),
    Column("agp", MONEY),
    Column("hold", RATIO),
    Column("low_hold_threshold", RATIO),
    Column("below_threshold"),
    Column("cash_profit", MONEY),  # empty when not known (no bank count: never 0)
    Column("long_short", MONEY),
    Column("amount", MONEY),  # a cash, tournament or tax line's amount, an amendment's AGP effect, a bracket's floor
    Column("tax", MONEY),  # the quarter's tax; a tax bracket's tax below its floor ("plus")
    Column("note"),
    Column("filed", MONEY),  # filed_beside_now: the figure as filed
    Column("amendments_since", MONEY),  # filed_beside_now: the amendments entered since the filing
    Column("now", MONEY),  # filed_beside_now: the figure as it now stands (empty: not known)
    Column("counted_on", DATE),  # an amendment's: the gaming day whose totals it counts in
    Column("figure"),  # an amendment's: the figure it corrects ("drop table 1")
    Column("correction", MONEY),  # an amendment's amount as entered (its AGP effect is `amount`)
    Column("rate", RATIO),  # a tax bracket's rate of the AGP above its floor
    Column("count", INT),  # the pack's count beside its figures (days with fees not counted)
]
HEADER = headings(COLUMNS)


def _row(row: str, **cells) -> list:
    cells["row"] = row
    custody = cells.pop("custody", None)
    if custody is not None:
        # empty (not known) where a table summed has no closer yet (`Custody.closer_known`)
        cells |= {"gross_proceeds": custody.gross_proceeds_cents, "prizes": custody.known_prizes_cents,
                  "agp": custody.known_agp_cents, "hold": custody.known_hold_ratio}  # fmt: skip
    return [cells.get(column.name) for column in COLUMNS]


def _game_rows(row: str, lines, cash: tuple, where: str, **cells) -> list[list]:
    """Each game's row and the total's, the game as the pack's Game column names it (game_column)."""
    return [
        _row(row, **cells, game=game_column(where, line.game), custody=line.custody,
             low_hold_threshold=line.threshold.ratio if line.threshold else None,
             below_threshold=below_word(line) if line.threshold else None,
             **(dict(zip(("cash_profit", "long_short"), cash, strict=True)) if line.game == "total" else {}))
        for line in lines
    ]  # fmt: skip


def _drop_csv_rows(data: QuarterlyReport) -> list[list]:
    """The days and the quarter's games, each game the pack deals and their total, as the PDF's
    days and games (`_drop_sections`): none for a fees or session pack."""
    if not data.holds:
        return []
    s, names = data.summary, game_names(data.where)
    rows = [_row("gaming_days", label=plural(s.gaming_days, "gaming day"), note=gaming_days_statement(s, data.where))]
    for d in s.days:
        day_lines = [GameLine(code, names.label(code), getattr(d, DAY_FIGURES[code]), None) for code in data.dealt]
        rows += _game_rows("day", [*day_lines, GameLine("total", "Total", d.total, None)],
                           (d.cash.cash_profit_cents, d.cash.long_short_cents), data.where,
                           gaming_date=d.gaming_date)  # fmt: skip
    rows += [_row("days_in_play", note=in_play_statement(s))] if s.days_in_play else []
    rows += _game_rows("quarter", data.games, _quarter_cash(s), data.where, label=str(s.quarter))
    note = low_hold_note(data)  # the sentence under the PDF's games, a row of its own as the books' statement is
    return rows + ([_row("low_hold_review", note=note)] if note else [])


def _books_csv_rows(data: QuarterlyReport) -> list[list]:
    """The PDF's books section: the amendments in full (`amendment_rows`), the books' statement,
    the registry's receipts and, for a filed quarter, each figure as filed beside it now."""
    rows = []
    for row, amendments in (("amendment", data.books.amendments), ("amends_earlier", data.books.amending_earlier)):
        rows += [
            _row(row, gaming_date=corrects, counted_on=counted_on, label=quarter, figure=figure, correction=amount,
                 amount=agp_effect, note=reason)
            for corrects, counted_on, quarter, figure, amount, agp_effect, reason in amendment_rows(amendments)
        ]  # fmt: skip
    rows.append(_row("books", label=data.books.state, note=data.books.statement_with(format_generated_at, report=True)))
    rows += [_row("filing_amendment", label=a["figure"], amount=a["delta_cents"], note=a["statement"])
             for a in data.books.filing_amendments]  # fmt: skip
    rows += [_row("receipt", note=text) for text in (data.receipt, *data.amendment_receipts) if text]
    if data.books.filed_figures is not None:
        beside = in_pack_words(filed_beside_now(data.summary, data.books, data.filed_tax, data.tax_return), data.where)
        rows += [
            _row("filed_beside_now", label=label, filed=filed, amendments_since=since, now=now)
            for label, filed, since, now in beside
        ]
    return rows


def _cash_csv_rows(data: QuarterlyReport) -> list[list]:
    """The PDF's cash section: the cash lines, the combined bank, the days without a bank count
    and the tournament lines (citing the pack's rule); then each day's tournament play, as the
    sentence under the PDF's days names it."""
    s = data.summary
    rows = [
        _row("cash", label=label, amount=cents) for label, cents in cash_lines(s, holds=data.holds, where=data.where)
    ]
    rows += _allocation_csv_rows(data)
    rows += [_row("cash", note=note) for note in no_bank_count_notes(s, data.where)]
    # As the PDF: a quarter of no play says so at every pack, in its pack's words.
    nothing = nothing_played_statement(s, seasonal=data.seasonal)
    rows += [_row("cash", note=nothing)] if nothing else []
    cited = TOURNAMENT_PLAY.at(data.where) if not s.tournaments.is_empty else None
    rows += [_row("tournament", label=label, amount=cents, note=cited) for label, cents in tournament_lines(data)]
    return rows + _tournament_day_csv_rows(data)


def _tournament_day_csv_rows(data: QuarterlyReport) -> list[list]:
    """Each day's tournament play, as the sentence under the PDF's days gives it
    (`tournament_days_statement`): its date, fees (gross proceeds), prizes and AGP."""
    cited = TOURNAMENT_PLAY.at(data.where)
    return [
        _row("tournament_day", gaming_date=d.gaming_date, gross_proceeds=d.tournaments.gross_proceeds_cents,
             prizes=d.tournaments.prizes_cents, agp=d.tournaments.agp_cents, note=cited)
        for d in data.summary.tournament_days
    ]  # fmt: skip


def _tax_csv_rows(data: QuarterlyReport) -> list[list]:
    """The PDF's tax reconciliation: each site and their sum, the brackets in force, the tax's
    lines, the tax, and the return's basis and amendments."""
    tax = data.tax
    rows = [
        _row("tax_site", label=name, gross_proceeds=gp, prizes=prizes, agp=agp, cash_profit=profit)
        for name, gp, prizes, agp, profit in tax.sites
    ]
    label, gp, prizes, agp, profit = tax_total_row(tax)
    rows.append(_row("tax_sites_total", label=label, gross_proceeds=gp, prizes=prizes, agp=agp,
                     cash_profit=None if profit == NOT_KNOWN else profit))  # fmt: skip
    rows += [
        _row("tax_bracket", gaming_date=b.effective_from, amount=b.lower_cents, rate=b.rate, tax=b.base_cents,
             note=b.citation)
        for b in tax.brackets
    ]  # fmt: skip
    for label, value in tax_rows(tax):
        text = isinstance(value, str)  # "not recorded"
        rows.append(_row("tax_line", label=label, amount=None if text else value, note=value if text else None))
    rows.append(_row("tax", label=str(tax.quarter), tax=tax.tax_cents))
    rows.append(_row("tax_return", note=tax_return_basis(data.tax_return)))
    return rows + [_row("tax_return", label=label, amount=cents) for label, cents in tax_return_lines(data.tax_return)]


def table(data: QuarterlyReport) -> tuple[list[Column], list[list]]:
    """Every row the PDF prints, section by section (`ROWS`), with the same figures: the CSV and
    XLSX may carry more (a day's prizes and total) but never less."""
    rows = _drop_csv_rows(data) + _cash_csv_rows(data)
    # A fees or session pack's own figures, as its PDF section shows them (pack_section).
    rows += [_row("pack", label=label, amount=cents) for label, cents in pack_lines(data.pack)]
    rows += [_row("pack", label=label, count=count) for label, count in pack_counts(data.pack)]
    rows += _books_csv_rows(data)
    if data.tax is not None:  # a gaming tax only where the site's pack levies one
        rows += _tax_csv_rows(data)
    return in_words(*without(COLUMNS, rows, _columns_not_kept(data)), revenue_words(data.where))


# The columns of a figure a pack may have none of, by what they hold.
THRESHOLD_COLUMNS = {"low_hold_threshold", "below_threshold"}
TAX_COLUMNS = {"tax", "rate"}
DROP_COLUMNS = {"game", "gross_proceeds", "prizes", "agp", "hold", "cash_profit", "long_short"}


def _columns_not_kept(data: QuarterlyReport) -> set[str]:
    """The columns the site's pack never fills, left out (the header names only what its law
    keeps): no low-hold thresholds in its law, no gaming tax, and, for a fees or session pack
    without a tax, no drop-based figures (its days and games are not drop-based, and only the
    tax's sites carry such figures besides); no count column where the pack counts nothing
    beside its figures (`pack_counts`)."""
    gone = set() if pack_counts(data.pack) else {"count"}
    if not LOW_HOLD.applies(data.where):
        gone |= THRESHOLD_COLUMNS
    if data.tax is None:
        gone |= TAX_COLUMNS
        if not data.holds:
            gone |= DROP_COLUMNS
    return gone


KIND = register(
    ReportKind(
        "quarterly",
        "Quarterly summary",
        report_rules.QUARTERLY,
        "quarter",
        build,
        render,
        table,
        large=True,
        reader=QUARTER_FIGURES,
        form=report_rules.FORM_QUARTERLY,
        form_title="Quarterly summary (twenty-one and paddlewheel)",
    )
)
