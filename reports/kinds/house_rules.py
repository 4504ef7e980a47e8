"""The house and player rules handout of each pack whose law has one (`Pack.handout`): one report
kind per pack, offered only at that pack's sites. The words, their citations and the notices are
all the pack's; this module only builds each active game-21 table's lines from its record and
draws them, so the handout and the table cannot disagree."""

from dataclasses import dataclass

from cardroom.access import ReadRule
from cardroom.models import Game, Role, Table
from core import pdf
from packs import all_packs, game_name, pack_for

from ..columns import INT, MONEY, Column
from ..registry import ReportContext, ReportKind, register

Line = tuple[str, str]  # (rule text, citation)


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
    tip_bet_max_cents: int | None  # the largest tip bet where tip betting is permitted, else None
    double_down: str
    tip_double_down: str
    # Each section's title and printed lines, generated from the table's own record.
    sections: tuple[tuple[str, tuple[Line, ...]], ...] = ()

    @property
    def lines(self) -> tuple[Line, ...]:
        return tuple(line for _, lines in self.sections for line in lines)


@dataclass(frozen=True)
class HouseRules:
    site: str
    as_of: str
    heading: str
    notice: tuple[Line, ...]
    tables: tuple[TableRules, ...]
    closing: tuple[Line, ...]
    options_table: bool
    game: str  # game 21 in a sentence, as the site's pack names it ("twenty-one", "blackjack")


def _approved_game_lines(t, link) -> list[Line]:
    """The approved game the table offers (its current `link`), and its doubles within the State's
    single-wager limit."""
    from approvals.checks import double_limit_cents, single_wager_citation
    from core.money import format_money

    if link is None or link.approval is None:
        return []
    approval = link.approval
    lines = [(f"This table offers {approval.game_name}.", f"{approval.reference}")]
    # The payouts of the pay tables the table posts (the pack's payout rule: the payouts of the
    # games offered are posted), each as the approval lists it: a suited blackjack may pay more.
    for paying in (link.blackjack_pay_table, link.side_bet_pay_table):
        if paying is not None:
            pays = "; ".join(f"{line['hand']} {line['pays']}" for line in paying.lines)
            lines.append((f"{paying.side_bet or 'Blackjack'} pays (pay table {paying.code}): {pays}.",
                          f"{approval.reference}; {pack_for(t.site).cite('table.payout_rounding')}"))  # fmt: skip
    limit = double_limit_cents(t, approval)
    if limit is not None:
        lines.append((f"Each double down may be up to the amount already in play, never above {format_money(limit)} "
                      "for a single wager.", f"{approval.reference}; {single_wager_citation(t)}"))  # fmt: skip
    return lines


def _tip_bet_max(t) -> int | None:
    """The largest tip bet a table takes: the organization's limit, else its maximum wager; None
    where tip betting is not permitted."""
    if not t.tip_betting_allowed:
        return None
    return t.max_wager_cents if t.tip_bet_max_cents is None else t.tip_bet_max_cents


def _rules_of_play(link) -> list[tuple[str, tuple[Line, ...]]]:
    """The rules of play the approval of the table's approved game (its current `link`) encloses, as
    a section of their own titled by the approval, each line cited by it; none where the table
    offers no approved game or its approval has none."""
    approval = link.approval if link is not None else None
    if approval is None or not approval.rules_of_play:
        return []
    lines = tuple((line, approval.reference) for line in approval.rules_of_play)
    return [(f"Rules of play ({approval.reference})", lines)]


def _table_rules(t, handout, links) -> TableRules:
    """The table's printed lines; `links`: each table's current link to an approved game, by table
    id, where the pack's handout prints approved games."""
    sections = [(section.title, tuple(section.lines(t))) for section in handout.sections]
    if handout.approved_games:
        link = links.get(t.pk)
        title, lines = sections[-1]
        sections[-1] = (title, lines + tuple(_approved_game_lines(t, link)))
        sections += _rules_of_play(link)
    return TableRules(
        t.number, t.min_wager_cents, t.max_wager_cents, t.get_dealing_method_display(), t.decks,
        "Dealer must hit soft 17" if t.dealer_hits_soft_17 else "Dealer must stand on 17 and must draw to 16",
        "Insurance permitted - pays two to one" if t.insurance_allowed else "Insurance not permitted",
        "Tip betting permitted" if t.tip_betting_allowed else "Tip betting not permitted",
        _tip_bet_max(t), t.get_double_down_display(), t.get_tip_double_down_display(), tuple(sections),
    )  # fmt: skip


def build(context: ReportContext) -> HouseRules:
    handout = pack_for(context.site).handout
    tables = (
        Table.objects.filter(site=context.site, active=True, game=Game.TWENTY_ONE)
        .select_related("site")
        .order_by("number")
    )
    links = {}
    if handout.approved_games:
        from approvals.queries import current_links

        links = current_links([t.pk for t in tables])  # one query for every table (no N+1)
    return HouseRules(
        context.site.name, str(context.end), handout.heading, handout.notice,
        tuple(_table_rules(t, handout, links) for t in tables), handout.closing, handout.options_table,
        game_name(context.site, Game.TWENTY_ONE),
    )  # fmt: skip


def render(data: HouseRules) -> list:
    # Lines, not Paragraphs: most rules print on one line, drawn as one string without parsing
    # markup or breaking lines (core.pdf.Line); a longer one is the Paragraph it was.
    story = [pdf.Line(data.heading, "heading")] if data.heading else []
    story += [pdf.Line(f"{text} ({citation})", "cell_bold") for text, citation in data.notice]
    for table in data.tables:
        story.append(pdf.Line(f"Table {table.number}", "heading"))
        for title, lines in table.sections:
            if title:
                story.append(pdf.Line(title, "cell_bold"))
            story += [pdf.Line(f"\u2022 {text} ({citation})") for text, citation in lines]
    if not data.tables:
        story.append(pdf.Line(f"No active {data.game} table at this site."))
    for heading, text in data.closing:
        story += [pdf.Line(heading, "heading"), pdf.Line(text, "cell_bold")]
    return story


OPTION_COLUMNS = [Column("table", INT), Column("min_wager", MONEY), Column("max_wager", MONEY),
                  Column("dealing_method"), Column("decks", INT), Column("soft_17"), Column("insurance"),
                  Column("tip_betting"), Column("tip_bet_max", MONEY), Column("double_down"),
                  Column("tip_double_down")]  # fmt: skip
LINE_COLUMNS = [Column("table"), Column("rule"), Column("citation")]  # table: a number, or "site" for a notice


def table(data: HouseRules) -> tuple[list[Column], list[list]]:
    """Each table's options with typed money where the pack's handout is by options, else each
    printed line with its citation."""
    if data.options_table:
        rows = [
            [t.number, t.min_wager_cents, t.max_wager_cents, t.dealing_method, t.decks, t.dealer_soft_17, t.insurance,
             t.tip_betting, t.tip_bet_max_cents, t.double_down, t.tip_double_down]
            for t in data.tables
        ]  # fmt: skip
        return OPTION_COLUMNS, rows
    rows = [["site", text, citation] for text, citation in data.notice]
    rows += [[str(t.number), text, citation] for t in data.tables for text, citation in t.lines]
    return LINE_COLUMNS, rows


def _reader(handout) -> ReadRule:
    # The rules are posted or handed to players: anyone at the site may read them.
    return ReadRule(frozenset(Role), handout.rule, "see the house and player rules")


KINDS = {
    pack.code: register(
        ReportKind(pack.handout.kind, pack.handout.title, pack.handout.rule, "as_of", build, render, table,
                   reader=_reader(pack.handout), jurisdictions=frozenset({pack.code}))
    )
    for pack in all_packs()
    if pack.handout is not None
}  # fmt: skip
