"""Who may close and correct the books, and the rules they cite, as data.

Every books service reads these; each entry carries the section it comes from. *Assumed*
entries are the product's reading where our regulation text does not settle the point
(shared/docs/domain.md).
"""

from cardroom.access import ReadRule
from cardroom.models import Role
from cardroom.rules import HOUSE_CONTROL

# The custody rules the books cite when they refuse to close a day (no gaming day, a table
# without its closer).
from floor.rules import BUSINESS_DAY, GAMING_DAY_STATE, TRAY_COUNT  # noqa: F401

# The site's daily summary (ND 99-01.3-08-16(1)(g)) is final once its books are closed.
DAILY_SUMMARY = "ND 99-01.3-08-16(1)(g)"
# Closing a day's books, correcting them only by adjustments, and a filed quarter taking no
# more entries are the product's own controls protecting the summaries 08-16(1)(g) requires;
# the text does not state them, so their refusals say so instead of citing it.
CLOSED_BOOKS = "House control (closed books)"
FILED_QUARTER = "House control (filed quarter)"
DROP_COUNT = "ND 99-01.3-08-14(4)"  # every drop box counted and the count signed by the team
BANK_RECORDS = "ND 99-01.3-08-16(1)(a)"  # starting and ending cash bank counts

# *Assumed*: the gaming manager or a shift manager closes the books of a gaming day.
BOOKS_CLOSERS = frozenset({Role.GAMING_MANAGER, Role.SHIFT_MANAGER})

# *Assumed*: a correction to closed books is approved by the gaming manager (who answers for
# the quarterly return, 08-16(1)(g)).
ADJUSTMENT_APPROVERS = frozenset({Role.GAMING_MANAGER})

# *Assumed*: the gaming manager marks a site's quarterly summary (SFN 50901) filed, for the
# same reason; the summaries of a quarter reconcile to the tax return (08-16(1)(g)).
QUARTER_FILERS = frozenset({Role.GAMING_MANAGER})
QUARTERLY_SUMMARY = "ND 99-01.3-08-16(1)(g)"

# --- Who reads the figures ----------------------------------------------------------------------

# House control: chapter 08 says what the records hold (08-16), not who may read them. The
# figures API, the figures pages and the stored reports holding the same figures all read these.
DAILY_FIGURES = ReadRule(
    frozenset({Role.GAMING_MANAGER, Role.SHIFT_MANAGER, Role.AUDITOR}), HOUSE_CONTROL, "see a site's daily figures"
)
DEALER_FIGURES = ReadRule(DAILY_FIGURES.roles, HOUSE_CONTROL, "see dealers' percent-of-hold figures")
QUARTER_FIGURES = ReadRule(
    frozenset({Role.GAMING_MANAGER, Role.AUDITOR}), HOUSE_CONTROL, "see a site's quarterly figures and the tax"
)

# --- The ND gaming tax ----------------------------------------------------------------------------

# N.D.C.C. 53-06.1-12 taxes the organization's adjusted gross proceeds of all its games for the
# quarter; its brackets are effective-dated data (accounting.figures.ND_GAMING_TAX). Only the
# sites in North Dakota are in it (Site.jurisdiction): a Washington or New York site's figures
# are another state's.
ND_GAMING_TAX = "N.D.C.C. 53-06.1-12"
# *Assumed*: the gaming manager (who answers for the quarterly return) records the AGP of the
# organization's other games for a quarter, and reads it with the auditors.
OTHER_GAMES_RECORDERS = frozenset({Role.GAMING_MANAGER})
