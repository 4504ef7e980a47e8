"""Washington house-banked blackjack: the WSGC Blackjack game rules (rev. April 2018), the room's internal controls and its game approvals."""

from ..base import EmployeeIdentifier, Pack, RevenueModel, area_citations
from . import accounting, approvals, cage, compliance, core, counts, floor, reports, surveillance, tables, tournaments
from .handouts import HANDOUT

PACK = Pack(
    code="WA-HB",
    name="Washington house-banked blackjack",
    state="WA",
    state_time_zone="America/Los_Angeles",  # Lacey, where the Gambling Commission sits
    revenue_model=RevenueModel.DROP,
    table_rules=tables.table_rules,
    table_options=tables.TABLE_OPTIONS,
    table_defaults=tables.table_defaults,
    wager_limits=tables.WAGER_LIMITS,
    constants=tables.CONSTANTS,
    notes=approvals.NOTES,
    handout=HANDOUT,
    # WAC 230-03-265(2)(b),(3): a dealer at a house-banked card room holds a Class B card room
    # employee licence from the Commission. No held text states it, nor the wager limit's record
    # (shared/regulations/wa-wager-limits.md): the public WAC does, so its citation says it is assumed.
    employee_identifier=EmployeeIdentifier(
        "WSGC card room employee licence number (Class B)", "WAC 230-03-265(3), not in the texts held: assumed"
    ),
    citations=area_citations(
        tables, core, floor, counts, cage, surveillance, tournaments, accounting, compliance, reports, approvals
    ),
)
