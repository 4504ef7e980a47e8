"""The revenue records of the packs whose revenue is not a drop (packs.RevenueModel).

Washington blackjack (WA-BJ, player-banked): WAC 230-40-125(1) (1999 proposed amendment):
"Fees to play Washington blackjack shall only be assessed on a time basis and collected using
the direct collection method as defined in WAC 230-40-050." WAC 230-40-050 is not among the
texts we hold: the direct collection method is taken to be an employee collecting each fee at
the table from the players, recorded collection by collection (assumption, stated in the README).

New York (NY, 9 NYCRR 4620.5): the section defines the game (the organization's bank, bets of at
most $5) but no session accounting. A licensed session's record here (licence number, start and
end, the organization's receipts and the prizes paid, net = receipts - prizes) is an assumption
of what a games-of-chance licensee reports, stated as such in the README.
"""

from datetime import date

from cardroom.access import HOUSE_CONTROL, ReadRule
from cardroom.models import Role
from core import hooks
from packs import RevenueModel, Rule, pack_for

# Which sites keep these records is the site's pack's answer, never a pack code: table fees where
# the pack's revenue is its fees (`RevenueModel.FEES`), sessions where it is a games-of-chance
# session's (`RevenueModel.SESSION`). Each refusal cites the pack's rule at the site: the fees
# rule (Washington blackjack's WAC 230-40-125(1)), the session game (New York's 9 NYCRR 4620.5),
# or "House control" at a site whose pack states neither.
TABLE_FEES = Rule("accounting.table_fees")
SESSION_GAME = Rule("accounting.session_game")


def keeps_table_fees(site) -> bool:
    """Is the house's revenue at the site (or jurisdiction) its table fees?"""
    return pack_for(site).revenue_model == RevenueModel.FEES


def keeps_sessions(site) -> bool:
    """Is the house's revenue at the site (or jurisdiction) its games-of-chance sessions?"""
    return pack_for(site).revenue_model == RevenueModel.SESSION


# House controls: who collects, counts and corrects (the WAC text names none).
COLLECTORS = frozenset({Role.SHIFT_MANAGER, Role.PIT_BOSS, Role.CASHIER})
VOIDERS = frozenset({Role.GAMING_MANAGER, Role.SHIFT_MANAGER})
COUNTERS = frozenset({Role.CASHIER, Role.COUNT_TEAM, Role.SHIFT_MANAGER})
SESSION_RECORDERS = frozenset({Role.GAMING_MANAGER, Role.SHIFT_MANAGER})
ROLE_RULE = HOUSE_CONTROL

FEE_RECORDS = ReadRule(
    frozenset({Role.GAMING_MANAGER, Role.SHIFT_MANAGER, Role.PIT_BOSS, Role.CASHIER, Role.AUDITOR}),
    HOUSE_CONTROL,
    "see the table fee records",
)
SESSION_RECORDS = ReadRule(
    frozenset({Role.GAMING_MANAGER, Role.SHIFT_MANAGER, Role.AUDITOR}),
    HOUSE_CONTROL,
    "see the games-of-chance session records",
)

# Bounds (house controls): a fee per seat or player per period, a period, a day's cash.
MAX_RATE_CENTS = 10_000  # $100 a period
MAX_PERIOD_MINUTES = 240
MAX_COUNT = 9  # seats or players at one table (WSGC rule 1 allows up to nine players)
MAX_DAY_CENTS = 100_000_000  # $1,000,000
MAX_LICENCE_LENGTH = 50
# A session's licence, blank or too long: the service's refusal, and the session form's for a blank one.
SESSION_LICENCE = (
    f"{HOUSE_CONTROL}: a session names its games-of-chance licence (at most {MAX_LICENCE_LENGTH} characters)."
)


def session_licences(site, day: date) -> tuple[list[tuple[str, date]], str | None]:
    """The licences the organization has on file for the site's jurisdiction (number, effective
    date; oldest first) and the number in force on `day` (None: none yet). The licences are the
    approvals app's (answered through `core.hooks.SESSION_LICENCES`). House control: where any is on
    file, a session names the one in force; 9 NYCRR 4620.5 does not say so."""
    return hooks.SESSION_LICENCES(site, day)
