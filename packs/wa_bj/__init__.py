"""Washington blackjack (player-banked): WAC 230-40-125 as amended in the 1999 proposal; the house's revenue is its fees."""

from ..base import Pack, RevenueModel, merged
from . import accounting, cage, compliance, core, counts, floor, reports, surveillance, tables, tournaments
from .handouts import HANDOUT

PACK = Pack(
    code="WA-BJ",
    name="Washington blackjack (player-banked)",
    state="WA",
    revenue_model=RevenueModel.FEES,
    table_rules=tables.table_rules,
    table_options=tables.TABLE_OPTIONS,
    wager_limits=tables.WAGER_LIMITS,
    handout=HANDOUT,
    citations=merged(
        {f"table.{k}": v for k, v in tables.CITATIONS.items()},
        core.CITATIONS,
        floor.CITATIONS,
        counts.CITATIONS,
        cage.CITATIONS,
        surveillance.CITATIONS,
        tournaments.CITATIONS,
        accounting.CITATIONS,
        compliance.CITATIONS,
        reports.CITATIONS,
    ),
)
