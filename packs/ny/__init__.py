"""New York games of chance: 9 NYCRR 4620.5 "Black Jack"."""

from ..base import Pack, RevenueModel, merged
from . import accounting, cage, compliance, core, counts, floor, reports, surveillance, tables, tournaments
from .handouts import HANDOUT

PACK = Pack(
    code="NY",
    name="New York games of chance",
    state="NY",
    revenue_model=RevenueModel.SESSION,
    table_rules=tables.table_rules,
    table_options=tables.TABLE_OPTIONS,
    wager_limits=tables.WAGER_LIMITS,
    handout=HANDOUT,
    employee_identifier_absent=(
        "9 NYCRR 4620.5, the text we hold, names no state-issued identifier for a games-of-chance worker; "
        "the cross-organization dealer view, keyed by such a number, is not offered for New York."
    ),
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
