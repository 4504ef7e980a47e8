"""North Dakota: chapter 99-01.3-08, charitable twenty-one (the primary specification).

Each module holds the citations of one area of the product (rule key -> section); the table
rules and wager limits are in `tables`.
"""

from ..base import Pack, RevenueModel, area_citations
from . import (
    accounting,
    cage,
    chips,
    compliance,
    core,
    counts,
    floor,
    procedures,
    reports,
    surveillance,
    tables,
    tournaments,
)
from .handouts import HANDOUT

PACK = Pack(
    games=("21", "PW"),  # twenty-one and paddlewheels (99-01.3-08)
    code="ND",
    name="North Dakota",
    state="ND",
    state_time_zone="America/Chicago",  # Bismarck, where the Attorney General's Gaming Division sits
    revenue_model=RevenueModel.DROP,
    table_rules=tables.table_rules,
    table_options=tables.TABLE_OPTIONS,
    fixed_options=tables.FIXED_OPTIONS,
    game_names=tables.GAMES,
    wager_limits=tables.WAGER_LIMITS,
    thresholds=compliance.THRESHOLDS,
    chips=chips.LAW,
    tax_brackets=accounting.TAX_BRACKETS,
    revenue_words=accounting.WORDS,
    # Assumed: the texts we hold (08-16(1)(g), SFN 50901) name no due date for the quarterly
    # return; we take it to be the last day of the month after the quarter (2026Q3: October 31),
    # as we understand the attorney general's practice, which no text we hold states.
    return_due_months=1,
    handout=HANDOUT,
    employee_identifier_absent=(
        "North Dakota's chapter 99-01.3-08 names no state-issued number for a dealer or "
        "wheel operator (its forms identify them by their initials, ND 99-01.3-08-05(3)); the cross-organization "
        "dealer view, keyed by such a number, is not offered for North Dakota."
    ),
    constants=tables.CONSTANTS,
    limits=surveillance.LIMITS + tournaments.LIMITS + cage.LIMITS,
    citations=area_citations(
        tables, core, floor, counts, cage, surveillance, tournaments, accounting, compliance, reports, procedures
    ),
)
