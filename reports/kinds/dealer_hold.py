"""Dealer percent-of-hold summary for any period, such as 12 continuous weeks (SFN 18863
model): each dealer's separable twenty-one shifts summed, the site's own twenty-one hold over
the same period beside it, and how unusual the gap is (ND 99-01.3-08-01(3), 08-04(8)); then
the same for the wheel operators' paddlewheel shifts beside the site's paddlewheel hold
(08-04(8): "a dealer's and wheel operator's percent-of-hold performance"), where the site's pack
deals paddlewheels. The same figures as
the percent-of-hold API of each employee (`site=` this site, `game=21` or `PW`)."""

from dataclasses import dataclass

from django.utils.text import capfirst

from accounting.published import ZERO, Custody, DealerLine, DealerTotals, dealer_totals
from accounting.rules import DEALER_FIGURES
from core.money import format_money, format_ratio
from core.pdf import Line, data_table
from core.plurals import plural
from floor.rules import game_column
from packs import RevenueModel, RevenueWords, game_name, pack_for, revenue_words

from .. import rules as report_rules
from ..columns import INT, MONEY, NUMBER, RATIO, Column, headings, in_words
from ..registry import ReportContext, ReportKind, register


@dataclass(frozen=True)
class DealerHoldReport:
    dealers: tuple[DealerLine, ...]
    site_total: Custody  # complete twenty-one table-days of the period
    wheel_operators: tuple[DealerLine, ...] = ()
    wheel_site_total: Custody = ZERO  # complete paddlewheel table-days of the period
    where: str = ""  # the site's Site.jurisdiction: its pack cites the sections
    wheel_dealt: bool = True  # the site's pack deals paddlewheels (packs.Pack.games): else no wheel section


def _line(d: DealerTotals) -> DealerLine:
    return DealerLine(d.dealer_id, d.dealer_name, d.shifts, d.separable_shifts, d.total, d.site_total, d.z_score)


def build(context: ReportContext) -> DealerHoldReport:
    site = context.site.pk
    # Only the games the site's pack deals: a Washington room has no wheel operators to list.
    games = tuple(game for game in ("21", "PW") if game in pack_for(context.site).games)
    # Closed days from their snapshots (accounting.day_figures), read once for both games and
    # summed per dealer as stored.
    found = dealer_totals([site], context.start, context.end, games)
    dealers = tuple(_line(d) for d in found["21"].dealers)
    wheel = tuple(_line(d) for d in found["PW"].dealers) if "PW" in found else ()
    return DealerHoldReport(
        dealers,
        found["21"].site_totals.get(site, ZERO),
        wheel,
        found["PW"].site_totals.get(site, ZERO) if "PW" in found else ZERO,
        context.site.jurisdiction,
        wheel_dealt="PW" in found,
    )


def header(words: RevenueWords, who: str = "Dealer") -> list[str]:
    """The columns, the drop and the win named in the words of the site's pack (packs.RevenueWords)."""
    return [
        who,
        "Shifts",
        "Separable",
        capfirst(words.gross),
        capfirst(words.net_short),
        "Hold",
        "Site hold",
        "z-score",
    ]


WIDTHS = [113, 42, 62, 78, 72, 52, 58, 48]  # 525: the portrait frame


def _cells(d: DealerLine) -> list:
    return [
        d.dealer_name,
        d.shifts,
        d.separable_shifts,
        d.total.gross_proceeds_cents,
        d.total.agp_cents,
        format_ratio(d.hold_ratio),
        format_ratio(d.site_hold_ratio),
        "n/a" if d.z_score is None else str(d.z_score),
    ]


def _section(lines, site: Custody, who: str, game: str, words: RevenueWords) -> list:
    hold = f"Site {game} hold {format_ratio(site.hold_ratio)} on {words.gross} of {format_money(site.gross_proceeds_cents)}."
    if not lines:  # said, rather than "0 dealers", a table of headings alone (and a hold of n/a where none was played)
        played = f" {hold}" if site.gross_proceeds_cents else ""
        return [Line(f"No {who} shift was recorded at this site in the period.{played}", "subtitle")]
    total = [
        f"Site (complete {game} table-days)",
        "",
        "",
        site.gross_proceeds_cents,
        site.agp_cents,
        format_ratio(site.hold_ratio),
        "",
        "",
    ]
    return [
        Line(f"{plural(len(lines), who)}. {hold}", "subtitle"),
        data_table(
            header(words, capfirst(who)),
            [_cells(d) for d in lines],
            col_widths=WIDTHS,
            money_columns=[3, 4],
            right_columns=[5, 6, 7],
            total_row=total,
        ),
    ]


def render(data: DealerHoldReport) -> list:
    words = revenue_words(data.where)
    wheel = [
        Line(f"Wheel operators (paddlewheel), {report_rules.WHEEL_OPERATORS.at(data.where)}", "heading"),
        *_section(data.wheel_operators, data.wheel_site_total, "wheel operator", "paddlewheel", words),
    ]
    return [
        *_section(data.dealers, data.site_total, "dealer", game_name(data.where, "21"), words),
        Line(
            "A dealer's figures sum only the shifts whose drop and tray can be separated (the box exchanged and "
            "the tray counted at each dealer change); hold is the ratio of the sums. The site hold is this site's "
            "own over the same period. The z-score measures the gap to the site's hold in standard errors at the "
            "dealer's volume (assumed measure).",
            "small",
        ),
        *(wheel if data.wheel_dealt else ()),
    ]


# The game: its code where the pack asks for that reference (ND: 21, PW), else the pack's name
# for it (Blackjack): floor.rules.game_column, as the daily and quarterly files name it.
COLUMNS = [Column("dealer"), Column("shifts", INT), Column("separable", INT), Column("gross_proceeds", MONEY),
           Column("agp", MONEY), Column("hold", RATIO), Column("site_hold", RATIO), Column("z_score", NUMBER),
           Column("game")]  # fmt: skip
CSV_HEADER = headings(COLUMNS)


def table(data: DealerHoldReport) -> tuple[list[Column], list[list]]:
    rows = [
        [d.dealer_name, d.shifts, d.separable_shifts, d.total.gross_proceeds_cents, d.total.agp_cents, d.hold_ratio,
         d.site_hold_ratio, d.z_score, game_column(data.where, game)]
        for game, lines in (("21", data.dealers), ("PW", data.wheel_operators))
        for d in lines
    ]  # fmt: skip
    return in_words(COLUMNS, rows, revenue_words(data.where))


KIND = register(
    ReportKind(
        "dealer_hold",
        "Dealer hold summary",
        report_rules.DEALER_HOLD,
        "range",
        build,
        render,
        table,
        large=True,
        reader=DEALER_FIGURES,
        revenue_models=frozenset({RevenueModel.DROP}),  # percent-of-hold: a drop-based house's figure
        worded=lambda words: f"Dealer {words.hold_name} summary",  # "Dealer percent-of-hold summary" in ND
    )
)
