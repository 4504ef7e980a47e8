"""The house and player rules handout required by ND 99-01.3-08-13, built from each active
twenty-one table's house rules."""

from dataclasses import dataclass

from cardroom.access import ReadRule
from cardroom.models import Game, Jurisdiction, Role, Table
from cardroom.money import format_money
from cardroom.pdf import para

from ..registry import ReportContext, ReportKind, register

NOTICE = (
    "NOTICE: If a person knowingly uses a fraudulent scheme or technique to cheat or skim involving twenty-one, "
    "regardless of the amount gained, the offense is a class C felony punishable by a five thousand dollar fine "
    "or five years in jail or both."
)


@dataclass(frozen=True)
class TableRules:
    number: int
    min_wager_cents: int
    max_wager_cents: int
    dealing_method: str
    decks: int
    dealer_soft_17: str
    insurance: str
    tip_betting: str
    double_down: str
    tip_double_down: str


@dataclass(frozen=True)
class HouseRules:
    site: str
    as_of: str
    tables: tuple[TableRules, ...]


def player_rules(table: TableRules) -> list[str]:
    """ND 99-01.3-08-13(2)(a)-(m), with the table's options filled in."""
    return [
        "Players must compute the card count of their own hand.",
        "Players must be twenty-one years of age or older.",
        "Hand signals must be used.",
        "No touching of cards.",
        "Two betting spaces maximum.",
        "No side bets.",
        "No payoff on tie counts.",
        "Splitting is allowed on any pair and two 10-count value cards, to a maximum of four hands per betting space.",
        "Doubling-down on the first two cards dealt or the first two cards of any split hand, except on split aces.",
        table.double_down + ".",
        table.insurance + ".",
        table.tip_betting + ".",
        table.tip_double_down + ".",
    ]


def build(context: ReportContext) -> HouseRules:
    tables = Table.objects.filter(site=context.site, active=True, game=Game.TWENTY_ONE).order_by("number")
    return HouseRules(
        context.site.name,
        str(context.end),
        tuple(
            TableRules(
                t.number,
                t.min_wager_cents,
                t.max_wager_cents,
                t.get_dealing_method_display(),
                t.decks,
                "Dealer must hit soft 17" if t.dealer_hits_soft_17 else "Dealer must stand on 17 and must draw to 16",
                "Insurance permitted - pays two to one" if t.insurance_allowed else "Insurance not permitted",
                "Tip betting permitted" if t.tip_betting_allowed else "Tip betting not permitted",
                t.get_double_down_display(),
                t.get_tip_double_down_display(),
            )
            for t in tables
        ),
    )


def render(data: HouseRules) -> list:
    story = []
    for table in data.tables:
        story.append(para(f"Table {table.number}", "heading"))
        story.append(para("House rules (ND 99-01.3-08-13(1))", "cell_bold"))
        story.append(
            para(
                f"Minimum wager {format_money(table.min_wager_cents)}; maximum wager "
                f"{format_money(table.max_wager_cents)}. Method of dealing: {table.dealing_method}. "
                f"{table.decks} decks. {table.dealer_soft_17}. Blackjack pays 3 to 2."
            )
        )
        story.append(para("Player rules (ND 99-01.3-08-13(2))", "cell_bold"))
        story += [para(f"\u2022 {line}") for line in player_rules(table)]
    if not data.tables:
        story.append(para("No active twenty-one table at this site."))
    story.append(para("ND 99-01.3-08-13(3)", "heading"))
    story.append(para(NOTICE, "cell_bold"))
    return story


def table(data: HouseRules) -> tuple[list[str], list[list]]:
    header = [
        "table",
        "min_wager",
        "max_wager",
        "dealing_method",
        "decks",
        "soft_17",
        "insurance",
        "tip_betting",
        "double_down",
        "tip_double_down",
    ]
    rows = [
        [
            t.number,
            format_money(t.min_wager_cents),
            format_money(t.max_wager_cents),
            t.dealing_method,
            t.decks,
            t.dealer_soft_17,
            t.insurance,
            t.tip_betting,
            t.double_down,
            t.tip_double_down,
        ]
        for t in data.tables
    ]
    return header, rows


# ND 99-01.3-08-13: the rules are posted or handed to players; anyone at the site may read them.
HOUSE_RULES = ReadRule(frozenset(Role), "ND 99-01.3-08-13", "see the house and player rules")

KIND = register(
    ReportKind(
        "house_rules",
        "House and player rules",
        "ND 99-01.3-08-13",
        "as_of",
        build,
        render,
        table,
        reader=HOUSE_RULES,
        # North Dakota's handout and class C felony notice (08-13); other states' sites get neither.
        jurisdictions=frozenset({Jurisdiction.ND}),
    )
)
