"""Washington house-banked blackjack: the WSGC Blackjack game rules (rev. April 2018), the room's internal controls and its game approvals."""

from ..base import Pack, RevenueModel, merged
from . import accounting, approvals, cage, compliance, core, counts, floor, reports, surveillance, tables, tournaments
from .handouts import HANDOUT

PACK = Pack(
    code="WA-HB",
    name="Washington house-banked blackjack",
    state="WA",
    revenue_model=RevenueModel.DROP,
    table_rules=tables.table_rules,
    table_options=tables.TABLE_OPTIONS,
    wager_limits=tables.WAGER_LIMITS,
    notes=approvals.NOTES,
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
        approvals.CITATIONS,
    ),
)
