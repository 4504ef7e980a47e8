"""The house and player rules handout, per jurisdiction pack, built from each active twenty-one
table's options: North Dakota's (ND 99-01.3-08-13, with its class C felony notice) for ND
sites, each line generated from the table's record and citing its subsection; for the other packs their own posted rules from their own rule text (packs):
Washington house-banked (the payout and its rounding, WSGC rule 7), Washington blackjack (the
player dealer/banker and the time-based fee notice, WAC 230-40-125 (1999 proposed amendment))
and New York (the organization's tie option, 9 NYCRR 4620.5(h)). Each line cites its rule."""

from dataclasses import dataclass

from cardroom.access import ReadRule
from cardroom.models import Game, Jurisdiction, Role, Table
from core.money import format_money
from core.pdf import para
from packs import pack_for
from packs.nd import tables as nd_pack
from packs.ny import tables as ny_pack
from packs.wa_bj import tables as wa_bj_pack
from packs.wa_hb import tables as wa_hb_pack

from ..columns import INT, MONEY, Column
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
    # Each printed line (rule text, citation), generated from the table's own record.
    house: tuple[tuple[str, str], ...] = ()
    player: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class HouseRules:
    site: str
    as_of: str
    tables: tuple[TableRules, ...]


def _nd(sub: str) -> str:
    return f"ND 99-01.3-08-{sub}"


def nd_house_lines(t) -> list[tuple[str, str]]:
    """ND 99-01.3-08-13(1), each line from the table's record and citing the subsection that
    sets it, so the handout cannot say other than the table does."""
    soft_17 = "Dealer must hit soft 17" if t.dealer_hits_soft_17 else "Dealer must stand on 17 and must draw to 16"
    return [
        (f"Minimum wager {format_money(t.min_wager_cents)}; maximum wager {format_money(t.max_wager_cents)}.",
         f"{_nd('13(1)(a)')}, {nd_pack.CITATIONS['wagers']}"),
        (f"Method of dealing: {t.get_dealing_method_display()}.", f"{_nd('13(1)(b)')}, {nd_pack.DEALING_METHOD_CITATION}"),
        (f"{t.decks} decks, dealt from a dealing shoe." if t.dealt_from == "shoe"
         else f"{t.decks} decks, dealt from {t.get_dealt_from_display().lower()}.", nd_pack.DECKS_CITATION),
        (f"Up to {t.max_players} players; {t.betting_spaces} betting spaces.",
         f"{nd_pack.PLAYERS_CITATION}, {nd_pack.TABLE_CITATION}"),
        (f"{soft_17}. Blackjack pays {_payout(t.blackjack_payout)}.", nd_pack.TABLE_CITATION),
    ]


def nd_player_lines(t) -> list[tuple[str, str]]:
    """ND 99-01.3-08-13(2)(a)-(m): the fixed rules as the chapter words them, the options as the
    table's record has them."""
    if t.split_pairs == "any_pair":
        splits = "Splitting on any pair and two 10-count value cards"
    else:
        splits = f"Splitting: {t.get_split_pairs_display().lower()}"
    splits += (", limited to a maximum of four hands per betting space" if t.resplit_allowed else "; no resplitting")
    splits += "; split aces draw only one card each." if t.split_aces_one_card else "."
    if t.double_on == "any_two":
        doubles = "Doubling-down on the first two cards dealt"
    else:
        doubles = f"Doubling-down: {t.get_double_on_display().lower()}"
    doubles += (" or the first two cards of any split hand, except on split aces." if t.double_after_split
                else "; not on a split hand.")
    ties = "No payoff on tie counts." if t.tie_option is None else f"Ties: tie option {t.tie_option}."
    lines = [
        ("Players must compute the card count of their own hand.", _nd("13(2)(a)")),
        ("Players must be twenty-one years of age or older.", _nd("13(2)(b)")),
        ("Hand signals must be used.", _nd("13(2)(c)")),
        ("No touching of cards.", _nd("13(2)(d)")),
        ("Two betting spaces maximum.", _nd("13(2)(e)")),
        ("No side bets.", _nd("13(2)(f)")),
        (ties, f"{_nd('13(2)(g)')}, {nd_pack.TIES_CITATION}"),
        (splits, f"{_nd('13(2)(h)')}, {nd_pack.SPLITS_CITATION}"),
        (doubles, f"{_nd('13(2)(i)')}, {nd_pack.DOUBLES_CITATION}"),
        (t.get_double_down_display() + ".", _nd("13(2)(j)")),
        ("Insurance permitted - pays two to one." if t.insurance_allowed else "Insurance not permitted.",
         _nd("13(2)(k)")),
        ("Tip betting permitted." if t.tip_betting_allowed else "Tip betting not permitted.", _nd("13(2)(l)")),
        (t.get_tip_double_down_display() + ".", _nd("13(2)(m)")),
    ]
    if t.surrender != "none":  # refused by the ND pack (08-11(5)); printed as the record has it
        lines.append((f"Surrender: {t.get_surrender_display().lower()}.", nd_pack.CITATIONS["surrender"]))
    if t.banker != "house":  # refused by the ND pack (08-11(10)(d))
        lines.append((f"Banker: {t.get_banker_display().lower()}.", nd_pack.BANKER_CITATION))
    return lines


def player_rules(table: TableRules) -> list[str]:
    """ND 99-01.3-08-13(2)(a)-(m), with the table's options filled in."""
    return [text for text, _ in table.player]


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
                tuple(nd_house_lines(t)),
                tuple(nd_player_lines(t)),
            )
            for t in tables
        ),
    )


def render(data: HouseRules) -> list:
    story = []
    for table in data.tables:
        story.append(para(f"Table {table.number}", "heading"))
        story.append(para(f"House rules ({_nd('13(1)')})", "cell_bold"))
        story += [para(f"\u2022 {text} ({citation})") for text, citation in table.house]
        story.append(para(f"Player rules ({_nd('13(2)')})", "cell_bold"))
        story += [para(f"\u2022 {text} ({citation})") for text, citation in table.player]
    if not data.tables:
        story.append(para("No active twenty-one table at this site."))
    story.append(para(_nd("13(3)"), "heading"))
    story.append(para(NOTICE, "cell_bold"))
    return story


COLUMNS = [Column("table", INT), Column("min_wager", MONEY), Column("max_wager", MONEY), Column("dealing_method"),
           Column("decks", INT), Column("soft_17"), Column("insurance"), Column("tip_betting"), Column("double_down"),
           Column("tip_double_down")]  # fmt: skip


def table(data: HouseRules) -> tuple[list[Column], list[list]]:
    rows = [
        [t.number, t.min_wager_cents, t.max_wager_cents, t.dealing_method, t.decks, t.dealer_soft_17, t.insurance,
         t.tip_betting, t.double_down, t.tip_double_down]
        for t in data.tables
    ]  # fmt: skip
    return COLUMNS, rows


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


# --- The other packs' posted rules ------------------------------------------------------


@dataclass(frozen=True)
class PostedTable:
    number: int
    lines: tuple[tuple[str, str], ...]  # (rule text, citation)


@dataclass(frozen=True)
class PostedRules:
    site: str
    as_of: str
    heading: str
    notice: tuple[tuple[str, str], ...]  # site-wide lines (rule text, citation)
    tables: tuple[PostedTable, ...]


def _payout(code: str) -> str:
    return {"3:2": "3 to 2", "6:5": "6 to 5", "2:1": "2 to 1", "1:1": "even money"}[code]


def _limits(t) -> str:
    return f"Minimum wager {format_money(t.min_wager_cents)}; maximum wager {format_money(t.max_wager_cents)}."


def ny_lines(t) -> list[tuple[str, str]]:
    c = ny_pack.CITATIONS
    tie = ny_pack.TIE_OPTIONS.get(t.tie_option, "Tie option not set.")
    return [
        (_limits(t) + " The maximum bet is $5 or its equivalent in chips.", c["wagers"]),
        (f"{t.decks} deck(s) of 52 cards, shuffled together and used as one.", c["decks"]),
        (f"Up to {t.max_players} players; up to {t.betting_spaces} betting spaces.", f"{c['max_players']}, {c['betting_spaces']}"),
        (f"Ties: {tie}", c["tie_option"]),
        (f"A winning natural 21 is paid {_payout(t.blackjack_payout)}.", c["blackjack_payout"]),
        ("The dealer draws to 16 and stays on all 17s, including a soft 17.", c["dealer_hits_soft_17"]),
        ("Double down on a first two cards totalling 10 or 11: one more card only.", c["double_on"]),
        ("Any pair, including any two ten-valued cards, may be split and split again; split aces receive one "
         "card each; 21 on a split hand is not a natural and is paid even money.", "9 NYCRR 4620.5(k)"),
        ("No doubling down on split pairs.", c["double_after_split"]),
        ("Insurance when the dealer shows an ace: half the wager, paid 2 to 1.", c["insurance_allowed"]),
    ]


def _single_wager_limit(t) -> str:
    """The state's single-wager limit in force today (the pack's effective-dated limits)."""
    limits = pack_for(t.site).wager_limits_on()
    return f" No single wager above {format_money(limits.max_cents)}." if limits and limits.max_cents else ""


def wa_hb_lines(t) -> list[tuple[str, str]]:
    rule = wa_hb_pack.rule
    rounding = {"down": "rounded down to the table's lowest chip", "up": "rounded up to the table's lowest chip"}
    payout = f"Blackjack pays {_payout(t.blackjack_payout)}"
    payout += f"; a payout is {rounding[t.payout_rounding]}." if t.payout_rounding else "; no rounding arises."
    dealt = {"shoe": "a dealing shoe", "shuffler": "an approved shuffling device", "hand": "the dealer's hand"}[t.dealt_from]
    ic = "as documented in the internal controls"
    return [
        (_limits(t) + _single_wager_limit(t), wa_hb_pack.CITATIONS["wagers"]),
        (f"{t.decks} deck(s), dealt from {dealt}; up to {t.max_players} players.", f"{rule(1)}, {rule(3)}"),
        (payout, rule(7)),
        ("Dealer must hit soft 17." if t.dealer_hits_soft_17 else "Dealer stands on all 17s.", f"{rule(9)} ({ic})"),
        (f"Doubling down: {t.get_double_on_display()}.", f"{wa_hb_pack.WSGC_BLACKJACK_RULES}, Doubling Down ({ic})"),
        (f"Splitting: {t.get_split_pairs_display()}" + ("; pairs may be split again." if t.resplit_allowed else "."),
         f"{wa_hb_pack.WSGC_BLACKJACK_RULES}, Splitting Pairs ({ic})"),
        ("Insurance: half the wager, paid 2 to 1." if t.insurance_allowed else "No insurance.",
         f"{wa_hb_pack.WSGC_BLACKJACK_RULES}, Insurance ({ic})"),
        (f"Surrender: {t.get_surrender_display()}.", f"{wa_hb_pack.WSGC_BLACKJACK_RULES}, Surrender ({ic})"),
        ("A tie is a push; winning wagers are paid even money.", rule(11)),
        *_approved_game_lines(t),
    ]


def _approved_game_lines(t) -> list[tuple[str, str]]:
    """The approved game the table offers, and its doubles within the State's single-wager limit."""
    from approvals.checks import double_limit_cents, single_wager_citation
    from approvals.queries import current_link

    link = current_link(t.pk)
    if link is None or link.approval is None:
        return []
    approval = link.approval
    lines = [(f"This table offers {approval.game_name}.", f"{approval.reference}")]
    limit = double_limit_cents(t, approval)
    if limit is not None:
        lines.append((f"Each double down may be up to the amount already in play, never above {format_money(limit)} "
                      "for a single wager.", f"{approval.reference}; {single_wager_citation(t)}"))
    return lines


def wa_bj_lines(t) -> list[tuple[str, str]]:
    cite = wa_bj_pack.cite
    bank = (f"Minimum bank {format_money(t.min_bank_cents)} (house rule; at most $500)." if t.min_bank_cents
            else "No minimum bank is set.")
    return [
        ("A player is both the dealer and the banker (dealer/banker); the house does not bank the game. The "
         "deal passes to the left; no player may buy the bank or deal more than one consecutive shoe.",
         f"{cite(2)}, {cite(12)}"),
        (bank, cite(3)),
        (_limits(t) + " The maximum wager never exceeds $25.", cite(4)),
        (f"{t.decks} deck(s), dealt from a shoe at all times.", cite(2)),
        ("A natural 21 collects 1.5 times the bet from the dealer/banker; all ties push.", cite(5)),
        ("The dealer/banker must hit soft 17 and stand on hard 17." if t.dealer_hits_soft_17
         else "The dealer/banker stands on 17 or above and hits 16 or below.", cite(13)),
        (f"Doubling down (house rule): {t.get_double_on_display()}; one more card only.", cite(14)),
        ("Insurance: half the wager, paid 2 to 1." if t.insurance_allowed else "No insurance.", cite(16)),
        ("Pairs may be split" + ("; additional splits allowed (house rule)." if t.resplit_allowed else "; no additional splits (house rule)."),
         cite(17)),
    ]


PACK_HANDOUTS = {
    # pack code -> (heading, site-wide notice, per-table lines)
    "WA-HB": ("Blackjack house rules (WSGC Blackjack Game Rules, rev. April 2018)", (), wa_hb_lines),
    "WA-BJ": (
        "Washington blackjack house rules (WAC 230-40-125 (1999 proposed amendment))",
        (("Fees to play are assessed on a time basis only and collected by the direct collection method.",
          wa_bj_pack.cite(1)),
         ("House blackjack rules are posted in plain view to the players.", wa_bj_pack.cite(13))),
        wa_bj_lines,
    ),
    "NY": ("Black Jack rules (9 NYCRR 4620.5, games of chance)", (), ny_lines),
}


def build_posted(context: ReportContext) -> PostedRules:
    heading, notice, lines = PACK_HANDOUTS[context.site.jurisdiction]
    tables = (
        Table.objects.filter(site=context.site, active=True, game=Game.TWENTY_ONE).select_related("site").order_by("number")
    )
    return PostedRules(context.site.name, str(context.end), heading, tuple(notice),
                       tuple(PostedTable(t.number, tuple(lines(t))) for t in tables))


def render_posted(data: PostedRules) -> list:
    story = [para(data.heading, "heading")]
    story += [para(f"{text} ({citation})", "cell_bold") for text, citation in data.notice]
    for posted in data.tables:
        story.append(para(f"Table {posted.number}", "heading"))
        story += [para(f"\u2022 {text} ({citation})") for text, citation in posted.lines]
    if not data.tables:
        story.append(para("No active twenty-one table at this site."))
    return story


POSTED_COLUMNS = [Column("table"), Column("rule"), Column("citation")]  # table: a number, or "site" for the notice


def table_posted(data: PostedRules) -> tuple[list[Column], list[list]]:
    rows = [["site", text, citation] for text, citation in data.notice]
    rows += [[str(posted.number), text, citation] for posted in data.tables for text, citation in posted.lines]
    return POSTED_COLUMNS, rows


POSTED_KINDS = {
    code: register(
        ReportKind(
            f"house_rules_{code.lower().replace('-', '_')}",
            f"House rules ({code})",
            {"WA-HB": wa_hb_pack.rule(7), "WA-BJ": wa_bj_pack.cite(13), "NY": "9 NYCRR 4620.5(h)"}[code],
            "as_of",
            build_posted,
            render_posted,
            table_posted,
            reader=HOUSE_RULES,
            jurisdictions=frozenset({code}),
        )
    )
    for code in PACK_HANDOUTS
}
