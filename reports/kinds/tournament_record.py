"""Tournament record for a period (ND 99-01.3-08-15, 08-16(1)(e),(f)): for each tournament at
the site whose play starts in the period, its announced rules, the register of players with
each player's fees, every fee collected (entry fees, rebuys, add-ons, voids) with the date and
the collecting employee's initials, the prize register, and the record of win (fees less
prizes). Figures from `tournaments.queries`, as the tournaments API gives them."""

from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from reportlab.platypus import Spacer

from accounting.rules import TOURNAMENT_PLAY
from core.money import format_money
from core.pdf import data_table, format_clock, para
from core.plurals import plural
from packs import game_label
from tournaments import queries
from tournaments.models import Tournament
from tournaments.rules import MAX_CUMULATIVE_FEE, TOURNAMENT, TOURNAMENT_RECORDS

from .. import rules as report_rules
from ..columns import DATE, DATETIME, INT, MONEY, Column, headings
from ..registry import ReportContext, ReportKind, register


@dataclass(frozen=True)
class PlayerLine:
    name: str
    paid_cents: int
    chips: int
    prizes_cents: int


@dataclass(frozen=True)
class FeeLine:
    when: str  # gaming date and clock time
    player: str
    kind: str
    fee_cents: int
    chips: int
    initials: str
    note: str  # for a void: what it voids and why
    at: datetime | None = None  # when, in the site's time zone (for the CSV and XLSX)


@dataclass(frozen=True)
class PrizeLine:
    when: str
    player: str
    round_name: str
    kind: str
    description: str
    amount_cents: int
    split: bool
    initials: str
    note: str
    at: datetime | None = None


@dataclass(frozen=True)
class TournamentRecord:
    name: str
    gaming_date: str
    rules: tuple[tuple[str, str], ...]
    players: tuple[PlayerLine, ...]
    fees: tuple[FeeLine, ...]
    prizes: tuple[PrizeLine, ...]
    entry_fees_cents: int
    rebuys_cents: int
    add_ons_cents: int
    gross_proceeds_cents: int
    cash_prizes_cents: int
    merchandise_prizes_cents: int
    prizes_cents: int
    agp_cents: int


@dataclass(frozen=True)
class TournamentRecordReport:
    tournaments: tuple[TournamentRecord, ...]
    where: str = ""  # the site's Site.jurisdiction: its pack cites the headings


def _cited(rule, where: str) -> str:
    """ " (citation)" where the site's pack states the rule; "" elsewhere (a house's own record)."""
    return f" ({rule.at(where)})" if rule.applies(where) else ""


def _money_or(cents: int | None, none: str = "not allowed") -> str:
    return none if cents is None else format_money(cents)


def rule_lines(t: Tournament) -> tuple[tuple[str, str], ...]:
    """The announced rules, as disclosed to players (ND 99-01.3-08-15)."""
    maximum = f"{t.maximum_bet_chips} chips" if t.maximum_bet_chips else "none"
    return (
        ("Entry fee", f"{format_money(t.entry_fee_cents)} for {t.chips_per_entry} chips"),
        ("Rebuy", f"{_money_or(t.rebuy_fee_cents)}" + (f" for {t.chips_per_rebuy} chips" if t.rebuy_fee_cents else "")),
        (
            "Add-on",
            f"{_money_or(t.add_on_fee_cents)}" + (f" for {t.chips_per_add_on} chips" if t.add_on_fee_cents else ""),
        ),
        ("Cumulative fee per player", f"at most {format_money(MAX_CUMULATIVE_FEE.on(t.site, t.gaming_date).value)}"),
        ("Betting spaces", str(t.betting_spaces)),
        ("Rotating button", "yes" if t.rotating_button else "no"),
        ("Length of play", t.length_of_play),
        ("Bets", f"minimum {t.minimum_bet_chips} chips, maximum {maximum}"),
        ("Prizes offered", t.prizes_offered),
    )


def _when(moment, gaming_date, zone: ZoneInfo) -> str:
    return f"{gaming_date} {format_clock(moment.astimezone(zone))}"


def _record(t: Tournament, figures, zone: ZoneInfo) -> TournamentRecord:
    players = tuple(
        PlayerLine(row["player"].name, row["paid_cents"], row["chips"], row["prizes_cents"])
        for row in queries.player_register(t)
    )
    fees = tuple(
        FeeLine(
            _when(f.collected_at, f.gaming_date, zone),
            f.player.name,
            f.get_kind_display(),
            f.fee_cents,
            f.chips,
            f.collected_by.initials,
            f"voids fee {f.voids_id}: {f.reason}" if f.voids_id else f"fee {f.pk}",
            f.collected_at.astimezone(zone),
        )
        for f in queries.fee_register(t)
    )
    prizes = tuple(
        PrizeLine(
            _when(p.awarded_at, p.gaming_date, zone),
            p.player.name,
            p.round_name,
            p.get_kind_display(),
            p.description,
            p.amount_cents,
            p.split,
            p.awarded_by.initials,
            f"voids prize {p.voids_id}: {p.reason}" if p.voids_id else f"prize {p.pk}",
            p.awarded_at.astimezone(zone),
        )
        for p in queries.prize_register(t)
    )
    return TournamentRecord(
        t.name,
        str(t.gaming_date),
        rule_lines(t),
        players,
        fees,
        prizes,
        figures.entry_fees_cents,
        figures.rebuys_cents,
        figures.add_ons_cents,
        figures.gross_proceeds_cents,
        figures.cash_prizes_cents,
        figures.merchandise_prizes_cents,
        figures.prizes_cents,
        figures.agp_cents,
    )


def build(context: ReportContext) -> TournamentRecordReport:
    tournaments = list(
        Tournament.objects.filter(site=context.site, gaming_date__range=(context.start, context.end))
        .select_related("site")
        .order_by("gaming_date", "id")
    )
    figures = queries.figures_by_tournament([t.pk for t in tournaments])
    zone = ZoneInfo(context.site.time_zone)
    return TournamentRecordReport(
        tuple(_record(t, figures[t.pk], zone) for t in tournaments), context.site.jurisdiction
    )


PLAYER_HEADER = ["Player", "Fees paid", "Chips issued", "Prizes"]
FEE_HEADER = ["Date and time", "Player", "Fee", "Amount", "Chips", "Collected by", "Note"]
FEE_WIDTHS = [85, 95, 55, 60, 45, 55, 130]  # 525: the portrait frame
PRIZE_HEADER = ["Date and time", "Player", "Round", "Prize", "Value", "Split", "By", "Note"]
PRIZE_WIDTHS = [85, 85, 70, 110, 60, 30, 30, 55]
WIN_HEADER = ["Record of win", "Amount"]


def _win_rows(r: TournamentRecord) -> list[list]:
    return [
        ["Entry fees", r.entry_fees_cents],
        ["Rebuys", r.rebuys_cents],
        ["Add-ons", r.add_ons_cents],
        ["Gross proceeds (fees collected)", r.gross_proceeds_cents],
        ["Cash prizes", r.cash_prizes_cents],
        ["Merchandise prizes", r.merchandise_prizes_cents],
        ["Prizes", r.prizes_cents],
    ]


def render(data: TournamentRecordReport) -> list:
    if not data.tournaments:
        return [para("No tournament at this site in the period.")]
    story, w = [], data.where
    for r in data.tournaments:
        story += [
            para(f"{r.name} ({r.gaming_date})", "heading"),
            para(
                f"Rules disclosed to players{_cited(report_rules.TOURNAMENT_RULES, w)}; the chips have no cash redemption value."
            ),
            data_table(["Rule", "As announced"], [list(line) for line in r.rules], col_widths=[150, 375]),
            Spacer(1, 6),
            para(f"Register of players and their fees{_cited(report_rules.TOURNAMENT_REGISTER, w)}", "heading"),
            data_table(
                PLAYER_HEADER,
                [[p.name, p.paid_cents, p.chips, p.prizes_cents] for p in r.players],
                col_widths=[225, 100, 100, 100],
                money_columns=[1, 3],
                right_columns=[2],
            ),
            Spacer(1, 6),
            para(f"Fees, rebuys and add-ons collected{_cited(report_rules.TOURNAMENT_FEES, w)}", "heading"),
            data_table(
                FEE_HEADER,
                [[f.when, f.player, f.kind, f.fee_cents, f.chips, f.initials, f.note] for f in r.fees],
                col_widths=FEE_WIDTHS,
                money_columns=[3],
                right_columns=[4],
            ),
            Spacer(1, 6),
            para(f"Prize register{_cited(report_rules.TOURNAMENT_PRIZES, w)}", "heading"),
            data_table(
                PRIZE_HEADER,
                [
                    [
                        p.when,
                        p.player,
                        p.round_name,
                        f"{p.kind}: {p.description}".rstrip(": "),
                        p.amount_cents,
                        "yes" if p.split else "",
                        p.initials,
                        p.note,
                    ]
                    for p in r.prizes
                ],
                col_widths=PRIZE_WIDTHS,
                money_columns=[4],
            ),
            Spacer(1, 6),
            para(f"Record of win{_cited(report_rules.TOURNAMENT_PRIZES, w)}", "heading"),
            data_table(
                WIN_HEADER,
                _win_rows(r),
                col_widths=[300, 225],
                money_columns=[1],
                total_row=["Adjusted gross proceeds (the win)", r.agp_cents],
            ),
            Spacer(1, 12),
        ]
    return story


def summary_rows(t) -> list[list]:
    """A day's or quarter's tournament lines (ND 99-01.3-08-16(1)(e)-(g)), for the daily and
    quarterly reports: `t` is a tournaments.calculations.TournamentFigures."""
    return [
        [f"Entry fees ({plural(t.entries, 'player')})", t.entry_fees_cents],
        ["Rebuys", t.rebuys_cents],
        ["Add-ons", t.add_ons_cents],
        ["Tournament gross proceeds (fees collected)", t.gross_proceeds_cents],
        ["Tournament prizes (cash and merchandise)", t.prizes_cents],
        ["Tournament adjusted gross proceeds", t.agp_cents],
    ]


def summary_total_row(t, twenty_one_agp_cents: int, where: str) -> list:
    """The tournament lines' total: game 21's AGP with the tournaments' (08-16(1)(g)), the game
    named as the pack of `where` names it."""
    return [f"{game_label(where, '21')} AGP including tournaments", twenty_one_agp_cents + t.agp_cents]


def summary_section(t, twenty_one_agp_cents: int, *, where: str) -> list:
    """The tournament lines as a titled grid, or nothing when there was no tournament play; the
    heading cites the site's pack (`where`: a Site.jurisdiction)."""
    if t.is_empty:
        return []
    return [
        Spacer(1, 4),
        para(f"Tournaments ({TOURNAMENT_PLAY.at(where)})", "cell_bold"),
        data_table(
            ["", "Amount"],
            summary_rows(t),
            col_widths=[400, 125],
            money_columns=[1],
            total_row=summary_total_row(t, twenty_one_agp_cents, where),
        ),
    ]


COLUMNS = [Column("tournament"), Column("gaming_date", DATE), Column("section"), Column("when", DATETIME),
           Column("player"), Column("what"), Column("amount", MONEY), Column("chips", INT), Column("initials"),
           Column("note")]  # fmt: skip
CSV_HEADER = headings(COLUMNS)


def table(data: TournamentRecordReport) -> tuple[list[Column], list[list]]:
    rows = []
    for r in data.tournaments:
        rows += [[r.name, r.gaming_date, "fee", f.at, f.player, f.kind, f.fee_cents, f.chips, f.initials, f.note]
                 for f in r.fees]  # fmt: skip
        rows += [[r.name, r.gaming_date, "prize", p.at, p.player, f"{p.round_name}: {p.kind}", p.amount_cents, None,
                  p.initials, p.note] for p in r.prizes]  # fmt: skip
        for label, cents in [*_win_rows(r), ["Adjusted gross proceeds (the win)", r.agp_cents]]:
            rows.append([r.name, r.gaming_date, "record of win", None, "", label, cents, None, "", ""])
    return COLUMNS, rows


KIND = register(
    ReportKind(
        "tournament_record",
        "Tournament record",
        report_rules.TOURNAMENT_RECORD,
        "range",
        build,
        render,
        table,
        reader=TOURNAMENT_RECORDS,
        needs=TOURNAMENT,
    )
)
