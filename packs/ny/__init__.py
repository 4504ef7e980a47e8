"""New York games of chance: 9 NYCRR 4620.5 "Black Jack"."""

from ..base import Pack, RevenueModel, area_citations
from . import accounting, cage, compliance, core, counts, floor, reports, surveillance, tables, tournaments
from .handouts import HANDOUT

PACK = Pack(
    # Black Jack, the game 9 NYCRR 4620.5 describes: the text held names no paddlewheel, so a New
    # York table deals none here (a wheel of chance would be a pack of its own text).
    games=("21",),
    code="NY",
    name="New York games of chance",
    state="NY",
    state_time_zone="America/New_York",  # Schenectady, where the Gaming Commission sits
    revenue_model=RevenueModel.SESSION,
    table_rules=tables.table_rules,
    table_options=tables.TABLE_OPTIONS,
    fixed_options=tables.FIXED_OPTIONS,
    table_defaults=tables.table_defaults,
    game_names=tables.GAMES,
    wager_limits=tables.WAGER_LIMITS,
    constants=tables.CONSTANTS,
    handout=HANDOUT,
    employee_identifier_absent=(
        "9 NYCRR 4620.5 names no state-issued identifier for a games-of-chance worker; "
        "the cross-organization dealer view, keyed by such a number, is not offered for New York."
    ),
    citations=area_citations(
        tables, core, floor, counts, cage, surveillance, tournaments, accounting, compliance, reports
    ),
)
