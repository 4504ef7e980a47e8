"""Washington blackjack (player-banked): WAC 230-40-125 as amended in the 1999 proposal; the house's revenue is its fees."""

from ..base import EmployeeIdentifier, Pack, RevenueModel, area_citations
from . import accounting, cage, compliance, core, counts, floor, reports, surveillance, tables, tournaments
from .handouts import HANDOUT

PACK = Pack(
    code="WA-BJ",
    name="Washington blackjack (player-banked)",
    state="WA",
    state_time_zone="America/Los_Angeles",  # Lacey, where the Gambling Commission sits
    revenue_model=RevenueModel.FEES,
    table_rules=tables.table_rules,
    table_defaults=tables.table_defaults,
    fixed_options=tables.ALLOWED_OPTIONS,
    table_options=tables.TABLE_OPTIONS,
    wager_limits=tables.WAGER_LIMITS,
    constants=tables.CONSTANTS,
    handout=HANDOUT,
    # WAC 230-03-265(2)(b),(4): an employee of a nonhouse-banked card room holds a Class A card room
    # employee licence (the public WAC, not a held text: its citation says it is assumed). A fee game has no
    # percent-of-hold and no house dealer (WAC 230-40-125(2)): the licence identifies the employee.
    employee_identifier=EmployeeIdentifier(
        "WSGC card room employee licence number (Class A)", "WAC 230-03-265(4), not in the texts held: assumed"
    ),
    citations=area_citations(
        tables, core, floor, counts, cage, surveillance, tournaments, accounting, compliance, reports
    ),
)
