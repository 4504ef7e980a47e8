"""Who may close and correct the books, and the rules they cite, as data.

Every books service reads these; each entry carries the section it comes from. *Assumed*
entries are the product's reading where our regulation text does not settle the point
(shared/docs/domain.md).
"""

from cardroom.access import ReadRule
from cardroom.models import Role
from core.rules import HOUSE_CONTROL

# The custody rules the books cite when they refuse to close a day (no gaming day, a table
# without its closer): house controls at every site (plain strings); `BUSINESS_DAY` is a `Rule`,
# cited at the site (`BUSINESS_DAY.at(site)`).
from floor.rules import BUSINESS_DAY, GAMING_DAY_STATE, TRAY_COUNT  # noqa: F401
from packs import RevenueModel, Rule, pack_for

# The site's daily summary (ND 99-01.3-08-16(1)(g)) is final once its books are closed. A WA or NY
# house keeps a daily summary and closes its books just the same: "House control" there.
DAILY_SUMMARY = Rule("accounting.daily_summary")
# Closing a day's books, correcting them only by adjustments, and a filed quarter taking no
# more entries are the product's own controls protecting the summaries 08-16(1)(g) requires;
# the text does not state them, so their refusals say so instead of citing it.
CLOSED_BOOKS = "House control (closed books)"
FILED_QUARTER = "House control (filed quarter)"
# Every drop box counted and the count signed by the team; starting and ending cash bank counts.
# Kept by a WA or NY house as its own controls before it closes a day ("House control" there).
DROP_COUNT = Rule("accounting.drop_count")
BANK_RECORDS = Rule("accounting.bank_records")

# *Assumed*: the gaming manager or a shift manager closes the books of a gaming day.
BOOKS_CLOSERS = frozenset({Role.GAMING_MANAGER, Role.SHIFT_MANAGER})


def books_closers() -> frozenset[str]:
    """Who may close a day's books, asked from below (core.closing.books_closers)."""
    return BOOKS_CLOSERS


# *Assumed*: a correction to closed books is approved by the gaming manager (who answers for
# the quarterly return, 08-16(1)(g)).
ADJUSTMENT_APPROVERS = frozenset({Role.GAMING_MANAGER})

# *Assumed*: the gaming manager marks a site's quarterly summary filed (in North Dakota the
# SFN 50901 return, `reports.form_quarterly`), for the same reason; the summaries of a quarter
# reconcile to the tax return (08-16(1)(g)). Filing a quarter (closing its books) stays a house
# control at a WA or NY site, without ND's form and tax.
QUARTER_FILERS = frozenset({Role.GAMING_MANAGER})
QUARTERLY_SUMMARY = Rule("accounting.quarterly_summary")

# --- Who reads the figures ----------------------------------------------------------------------

# House control: chapter 08 says what the records hold (08-16), not who may read them. The
# figures API, the figures pages and the stored reports holding the same figures all read these.
DAILY_FIGURES = ReadRule(
    frozenset({Role.GAMING_MANAGER, Role.SHIFT_MANAGER, Role.AUDITOR}), HOUSE_CONTROL, "see a site's daily figures"
)
DEALER_FIGURES = ReadRule(DAILY_FIGURES.roles, HOUSE_CONTROL, "see dealers' hold figures")
QUARTER_FIGURES = ReadRule(
    frozenset({Role.GAMING_MANAGER, Role.AUDITOR}), HOUSE_CONTROL, "see a site's quarterly figures"
)

# --- The gaming tax and the other per-pack rules of the books --------------------------------------

# N.D.C.C. 53-06.1-12 taxes the organization's adjusted gross proceeds of all its games for the
# quarter; its brackets are effective-dated data of the pack (`Pack.tax_brackets`). Only the
# sites whose pack states the tax are in it: a Washington or New York site's figures are another
# state's, and their pages, reports and API show no tax (an obligation, not a house control).
GAMING_TAX = Rule("accounting.gaming_tax")
# Percent-of-hold below each game's threshold for a quarter starts a video review (ND
# 99-01.3-08-04(9)): an obligation of the pack's law, shown only where it states it.
LOW_HOLD = Rule("accounting.low_hold")
# The deposit of a day's cash profit, due by the third banking day (ND 99-01.3-03-10): the due
# date and its citation show where the pack states it.
DEPOSIT = Rule("accounting.deposit")
# A combined twenty-one/paddlewheel cash bank allocates its long (short) to twenty-one
# (ND 99-01.3-08-16(4)): shown where the pack states it.
COMBINED_BANK = Rule("accounting.combined_bank")
# Per-dealer (and wheel operator) percent-of-hold records, 12 continuous weeks (ND 99-01.3-08-01(3),
# 08-04(8)): a WA or NY house may track them as its own control ("House control").
DEALER_HOLD = Rule("accounting.dealer_hold")
# Tournament play in the day's and quarter's summaries (ND 99-01.3-08-15; 08-16(1)(e)-(g)).
TOURNAMENT_PLAY = Rule("accounting.tournament_play")
# *Assumed*: the gaming manager (who answers for the quarterly return) records the AGP of the
# organization's other games for a quarter, and reads it with the auditors.
OTHER_GAMES_RECORDERS = frozenset({Role.GAMING_MANAGER})

# The pack's own revenue (accounting.pack_figures): a fees pack's table fees collected on a time
# basis (WAC 230-40-125(1) in Washington blackjack) and a session pack's games-of-chance sessions
# (the game as 9 NYCRR 4620.5 defines it in New York).
TABLE_FEES = Rule("accounting.table_fees")
SESSION_GAME = Rule("accounting.session_game")

# What an adjusting entry to closed books corrects (accounting.services.record_adjustment): a
# table's custody figures count in the day's totals only where the pack's revenue is a drop; where
# it is the table fees (WA-BJ: the fees collected, WAC 230-40-125(1)) or the games-of-chance
# sessions (NY: their receipts and prizes, the game as 9 NYCRR 4620.5 defines it; the record of it
# a session at a time is a house control), the day's figures are those, which no table figure
# enters: a correction is in those figures or in the cash (its cash profit). Like the cash, a fee
# or session figure is the site's day's, not a table's. Each counts in the totals of the day it is
# entered on (accounting.summaries, accounting.pack_figures) with the sign of the figure it
# corrects: receipts up, net up; prizes up, net down; fees up, revenue up.
TABLE_FIGURES = ("drop", "fills", "credits", "opener", "closer")
CASH_FIGURE = "cash"
SESSION_FIGURES = ("receipts", "prizes")
FEE_FIGURES = ("fees",)
# The figures an adjusting entry of each kind corrects in the pack's block of a day (`DailySummary.pack`):
# {field: (block, figure)}; a session block's net is its receipts less its prizes.
PACK_FIGURES = {
    "receipts": ("sessions", "receipts_cents"),
    "prizes": ("sessions", "prizes_cents"),
    "fees": ("fees", "fees_collected_cents"),
}
# A corrected figure in words where its key is not (`AdjustmentLine.figure`: the pages' and reports'
# lists of adjusting entries); a table figure's and the cash's key is its word.
FIGURE_WORDS = {"receipts": "session receipts", "prizes": "session prizes", "fees": "table fees collected"}
# Where a pack block keeps the sum of the adjusting entries counted in each figure, so a page or
# report names them beside it ("Receipts (2 sessions; adjusting entries $25.50)"): present only
# where there is one, so a block without any reads as before.
PACK_ADJUSTED = {
    "receipts": "receipts_adjusted_cents",
    "prizes": "prizes_adjusted_cents",
    "fees": "fees_adjusted_cents",
}
# The figures of the site's day, not of a table: an adjusting entry to them names no table.
SITE_FIGURES = (CASH_FIGURE, *SESSION_FIGURES, *FEE_FIGURES)


def adjustment_fields(site) -> tuple[str, ...]:
    """The figures an adjusting entry may correct at `site` (a Site or a jurisdiction code)."""
    model = pack_for(site).revenue_model
    if model == RevenueModel.DROP:
        return (*TABLE_FIGURES, CASH_FIGURE)
    if model == RevenueModel.SESSION:
        return (*SESSION_FIGURES, CASH_FIGURE)
    return (*FEE_FIGURES, CASH_FIGURE)


def session_basis(rule: str) -> str:
    """What a session pack's figures rest on, said wherever they are shown: its text sets the game
    (9 NYCRR 4620.5), the record of it a session at a time is the product's own (House control)."""
    return f"{rule} sets the game; recording it a session at a time is {HOUSE_CONTROL}"


def adjustment_rule(site, field: str) -> str:
    """The citation an adjusting entry of `field` at `site` rests on: the pack's section for its own
    revenue (the table fees, WAC 230-40-125(1); the sessions, 9 NYCRR 4620.5 with the house's record
    of them), the closed books' house control for a table's figure or the cash."""
    if field in FEE_FIGURES:
        return TABLE_FEES.at(site)
    if field in SESSION_FIGURES:
        return session_basis(SESSION_GAME.at(site))
    return CLOSED_BOOKS


# Whose initials a fill or credit entered on a day sheet carries (ND 99-01.3-08-05(3)(c)); a WA or
# NY house keeps the same control ("House control").
SLIP_INITIALS = Rule("accounting.slip_initials")
