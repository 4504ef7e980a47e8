"""Who may do what with table chips, and the limits of custody records, as data.

Every service reads these; no role list or limit is written as a literal anywhere else.
Each entry carries the section it comes from. *Assumed* entries are the product's reading
where our regulation text does not settle the point (shared/docs/domain.md).
"""

from django.db import models

from cardroom.access import ReadRule
from cardroom.models import Game, Role
from cardroom.table_rules import GAME_REFERENCE
from core.rules import HOUSE_CONTROL
from packs import RevenueModel, Rule, game_label, pack_for

# --- Citations ---------------------------------------------------------------------------
# Each rule is named by its key and cited at a site by the site's pack (`RULE.at(site)`):
# North Dakota's chapter 08 states them (packs/nd/floor.py); where a pack's law does not, the
# product keeps the control as its own, cited "House control".

SLIP_MOVEMENT = Rule("floor.slip_movement")  # fill = bank -> table, credit = table -> bank; never table to table
SLIP_NUMBERING = Rule("floor.slip_numbering")  # separate forms, consecutive numbers, used in order, VOID initialed
SLIP_CONTENT = Rule("floor.slip_content")  # preparers; quantity and value by denomination
# A slip's reference to the game by its code, "21" or "PW": North Dakota's 08-05(3)(a) asks for it;
# where a pack's law does not (`applies`), the slip names the game by the pack's own name only.
SLIP_GAME_REFERENCE = Rule(GAME_REFERENCE)
# A slip's purpose "Jar bar": North Dakota's 08-05(1) has a fill and credit slip "temporarily
# transfer a chip tray to or from a table and jar bar"; offered and accepted only where the site's
# pack states it (`slip_purposes`), refused elsewhere (a slip already made keeps its purpose).
SLIP_JAR_BAR = Rule("floor.slip_jar_bar")
SLIP_VERIFICATION = Rule("floor.slip_verification")  # a shift manager or authorized employee not presently dealing
SLIP_RECEIPT = Rule("floor.slip_receipt")  # the dealer initials the fill copy, the cashier the credit copy
SLIP_FORM = Rule("floor.slip_form")  # the two-part form as a whole (the slip PDF)
CHIP_VALUES = Rule("floor.chip_values")  # only the organization's chip values
BUSINESS_DAY = Rule("floor.business_day")  # "business day" (a day may run past midnight)
# Where the house's revenue is its fees (packs.RevenueModel.FEES), chips do not move between
# the house's chip bank and a table, and a table has no house tray: no fill, no credit, no
# opener or closer. Refused where `pack_for(site).revenue_model` is FEES, citing the pack's rule.
FEES_ONLY = Rule("floor.fees_only")


def house_chips(where) -> bool:
    """Do the house's chips move between its chip bank and the tables at `where` (a Site or a
    jurisdiction code)? Not where the pack's revenue is its fees: there the site has no fill or
    credit slip, no slip book and no tray count to offer (services refuse them, menus omit them)."""
    return pack_for(where).revenue_model != RevenueModel.FEES


def no_house_chips(site, consequence: str) -> str:
    """Why a record of house chips is refused at a fees-only `site` (FEES_ONLY); `consequence`
    ends the sentence ("so no tip chips are declared to its cage")."""
    return f"{FEES_ONLY.at(site)}: the house's revenue at {site} is the fees collected at its tables; {consequence}."


# Where the pack's game is played with a player who is both the dealer and banker (Washington
# blackjack: WAC 230-40-125(2) as amended in 1999 strikes the house dealer), the house seats no
# dealer: a dealer shift is refused at its tables, citing the pack's rule, and the pit, the floor
# and the day's sheets show no dealer. Stated by that pack only (`PLAYER_DEALER.applies(site)`).
PLAYER_DEALER = Rule("floor.player_dealer")


def house_dealers(where) -> bool:
    """Does the house seat dealers at `where`'s tables (a Site or a jurisdiction code)? Not where
    the pack's game is dealt and banked by a player (PLAYER_DEALER)."""
    return not PLAYER_DEALER.applies(where)


def floor_needs_a_day(where) -> bool:
    """Does anything on `where`'s floor wait for an open gaming day (a tray count, a slip, a dealer
    seated, verification duty)? Not where the house's chips go to no table and the house seats no
    dealer (a fees room dealt by players, WA-BJ): its fees are recorded by the day without one, and
    its pages offer none to open (one opened all the same is closed as anywhere)."""
    return house_chips(where) or house_dealers(where)


def no_house_dealer(site) -> str:
    """Why a dealer shift is refused at a player-dealt `site` (PLAYER_DEALER)."""
    return (
        f"{PLAYER_DEALER.at(site)}: the game at {site} is played with a player who is both the dealer and "
        "banker (dealer/banker), so the house seats no dealer at its tables."
    )


# Opening and closing gaming days (one open at a time, none before it begins, none at an
# inactive site): the product's workflow around the business day, not a rule of the text.
GAMING_DAY_STATE = HOUSE_CONTROL
# Slips show date and time (08-05(3)(a)); that every custody record carries a zoned time no
# later than now is the product's own control, which 08-05(3)(a) does not state.
RECORD_TIME = HOUSE_CONTROL
# Dealer shift records feed per-dealer percent-of-hold (08-01(3), 08-04(8)) and who conducted
# games (08-14(2) count team, 08-04(9) video reviewer), but the chapter sets no rule on how a
# shift is recorded (one dealer at one table at a time, start before end): house controls.
DEALER_SHIFTS = HOUSE_CONTROL
# The opener and closer of a table enter its win and percent-of-hold; the chapter does not
# prescribe table tray counts (08-16(1)(a) is the chip bank's starting and ending counts):
# the opener/closer sequence is a house control.
TRAY_COUNT = HOUSE_CONTROL
# Whether a table is active, open or closed for the day: the product's own table states.
# 08-05(1) says what slips move (bank to table and back, never table to table), not when a
# table may receive them.
TABLE_STATE = HOUSE_CONTROL


def step_citation(kind: str, where) -> str:
    """The rule a slip's step (verify, receive, void) rests on, cited at `where`'s site."""
    return {"verify": SLIP_VERIFICATION, "receive": SLIP_RECEIPT, "void": SLIP_NUMBERING}[kind].at(where)


def not_a_chip_count(citation: str, chip) -> str:
    """Why a chip's quantity that is no whole number of chips ("5.5", "abc") is refused, citing the
    rule of the record it is on (`citation`, at its site): the service's words (the API's) and the
    chip grid's box's, one sentence for the same mistake."""
    return f"{citation}: the quantity of {chip} must be a whole number of chips."


def not_an_amount(citation: str, chip) -> str:
    """Why a chip's amount that is no dollars and cents is refused, citing the record's rule: the
    service's words (the API's) and the chip grid's dollar box's."""
    return f'{citation}: the amount of {chip} must be dollars and cents, like "125.00".'


# --- Roles ---------------------------------------------------------------------------------
# Read from North Dakota's 08-05. Where a site's pack does not state the slip rules, the same
# separation of duties is kept as the house's control (a Washington or New York gaming manager,
# and their auditor, expect a preparer, a verifier and a receiver who are not one person), and
# the refusals cite "House control" there.

# ND 99-01.3-08-05(3): who may prepare each kind of slip.
FILL_PREPARERS = frozenset({Role.CASHIER, Role.PIT_BOSS, Role.SHIFT_MANAGER})
CREDIT_PREPARERS = frozenset({Role.DEALER, Role.WHEEL_OPERATOR, Role.PIT_BOSS, Role.SHIFT_MANAGER})
PREPARERS = {"fill": FILL_PREPARERS, "credit": CREDIT_PREPARERS}

SLIP_INITIALS = Rule("floor.slip_initials")  # fill: the cashier's initials; credit: the dealer's or wheel operator's
# The same rule as a slip's own line labels print it ("Initials (08-05(3)(c))").
SLIP_INITIALS_SHORT = Rule("floor.slip_initials_short")
# The cashier keeps the fill original; the dealer deposits the credit original.
SLIP_DEPOSIT = Rule("floor.slip_deposit")


class SignedAs(models.TextChoices):
    """The capacity in which someone put their initials on a slip, printed beside them."""

    SHIFT_MANAGER = "shift_manager", "Shift manager"
    PIT_BOSS = "pit_boss", "Pit boss"
    CASHIER = "cashier", "Chip bank cashier"
    DEALER_AS_CASHIER = "dealer_as_cashier", "Dealer acting as cashier"
    DEALER = "dealer", "Dealer"
    WHEEL_OPERATOR = "wheel_operator", "Wheel operator"


# Roles in the order a person holding several acts in them (the most specific capacity first).
SIGNING_ORDER = (Role.SHIFT_MANAGER, Role.PIT_BOSS, Role.CASHIER, Role.DEALER, Role.WHEEL_OPERATOR)

# ND 99-01.3-08-05(3)(c), (4): the dealer of a twenty-one table, the wheel operator of a
# paddlewheel, initials the credit and deposits its original in that table's drop box. So a
# dealer or wheel operator prepares a credit only for the table they are on shift at, in the
# role of its game; a pit boss or shift manager may prepare one for any table (the dealer on
# shift there is the one whose initials it carries).
TABLE_ROLE = {Game.TWENTY_ONE: Role.DEALER, Game.PADDLEWHEEL: Role.WHEEL_OPERATOR}
TABLE_BOUND_CREDIT_PREPARERS = frozenset({Role.DEALER, Role.WHEEL_OPERATOR})

# ND 99-01.3-08-05(3)(c), (4), (6): the fill's initials and the credit copy's receipt are the
# chip bank cashier's "or dealer acting in the capacity of the cashier".
CASHIER_CAPACITY = frozenset({Role.CASHIER, Role.DEALER})

# ND 99-01.3-08-05(5): "a shift manager or authorized employee". *Assumed*: the authorized
# employees are pit bosses (domain.md section 1: the pit boss verifies slips).
VERIFIERS = frozenset({Role.SHIFT_MANAGER, Role.PIT_BOSS})

# ND 99-01.3-08-05(6): the dealer or wheel operator receives the fill copy at the table; the
# cashier receives the credit copy.
# A dealer acting in the capacity of the cashier may receive the credit copy (08-05(6)), when
# not presently dealing (then they are at the bank, not a table) and not its preparer.
RECEIVERS = {"fill": frozenset({Role.DEALER, Role.WHEEL_OPERATOR}), "credit": CASHIER_CAPACITY}

# ND 99-01.3-08-05(2): "Originals and copies of voided fill and credit slips must be marked
# "VOID" and be initialed by the preparer." Only the preparer voids a slip, so the VOID
# initials are always the preparer's. Two further limits are house controls the text does
# not state, protecting the books (ND 99-01.3-08-16(1)(g)): a slip is voided only before it
# is received (the receiving side's initials say the chips moved as written, 08-05(6)) and
# only while its gaming day is open (a closed day's figures are about to be, or are, closed
# books). Past either point, a wrong slip is corrected by a gaming manager's Adjustment to the
# closed books, counted on the day it is entered.
VOID_CITATION = SLIP_NUMBERING
VOID_HOUSE_CONTROL = "House control (closed books)"

# Anyone holding a role at the site may ask; the service then checks that they prepared it.
ALL_SITE_ROLES = frozenset(Role)

# Domain.md section 1: the shift manager opens and closes the gaming day, records table
# openers and closers and the dealer rotations.
FLOOR_SUPERVISORS = frozenset({Role.SHIFT_MANAGER})

# House control: a shift manager (or the gaming manager) carries a gaming day's open item past
# its close with a reason (floor.open_items); the shift manager's capacity is named first.
OPEN_ITEM_CARRIERS = (Role.SHIFT_MANAGER, Role.GAMING_MANAGER)

# Who conducts games: a dealer (twenty-one) or a wheel operator (paddlewheel).
DEALING_ROLES = frozenset({Role.DEALER, Role.WHEEL_OPERATOR})

# Pre-printed paper forms are registered by the gaming manager or a shift manager.
SLIP_BOOK_REGISTRARS = frozenset({Role.GAMING_MANAGER, Role.SHIFT_MANAGER})

# --- Limits --------------------------------------------------------------------------------

# *Assumed*: the copy goes to the receiving side with the chips after verification
# (08-05(5) then 08-05(6)), so a slip is received only once verified, but only "if an
# organization has a shift manager or authorized employee on duty who is not presently
# dealing" (08-05(5)): when nobody eligible is on duty, the slip is received unverified and
# the receipt says so (UNVERIFIED_NOTE).
RECEIPT_REQUIRES_VERIFICATION = True

# "On duty" (08-05(5)) is read from the site's duty register (floor.models.DutyPeriod): a
# shift manager or authorized employee signs in and out at the site. *Assumed*, house
# control: in a gaming day whose register is empty, the shift manager who opened the day is
# presumed on duty (the product cannot prove nobody is), so verification stays required.
DUTY_REGISTER = SLIP_VERIFICATION
DUTY_REGISTRARS = frozenset({Role.SHIFT_MANAGER})  # may sign someone else in or out
# The receipt of a slip received unverified says so, citing the verification rule at the site.
# The words before the citation are the same at every site: they identify such a receipt.
UNVERIFIED_NOTE_START = (
    "Not verified: no shift manager or authorized employee was on duty who was not presently dealing"
)


def unverified_note(where) -> str:
    """The reason a receipt records when nobody who could verify was on duty, cited at `where`."""
    return f"{UNVERIFIED_NOTE_START} ({SLIP_VERIFICATION.at(where)})."


def is_unverified_note(reason: str) -> bool:
    """Is `reason` a receipt's note that nobody who could verify was on duty (at any site)?"""
    return (reason or "").startswith(f"{UNVERIFIED_NOTE_START} (")


# A sanity ceiling on one line of a slip or tray count (a full rack holds 100 chips; a
# tray holds a few racks). Larger numbers are typing mistakes.
MAX_CHIPS_PER_LINE = 10_000

# Input keys that would describe a chip movement between two tables (08-05(1)).
TABLE_TO_TABLE_KEYS = frozenset({"from_table", "to_table", "source_table", "destination_table", "target_table"})

# A dealer shall redeem tips before leaving a site: an obligation only where the site's pack
# states it (`TIPS_BEFORE_LEAVING.applies(site)`). A Washington or New York house keeps its
# tips as its own internal controls say; the floor neither refuses a dealer leaving nor flags
# their tips there (the state's auditor would look for no such record).
TIPS_BEFORE_LEAVING = Rule("floor.tips_before_leaving")

# A table opened with no dealer stationed at it: its chip tray removed or secured with a locking
# cover, its cards and shoe removed or securely covered. Said on the pit board where the site's
# pack states it (`UNSTAFFED_TABLE.applies(site)`: North Dakota's 08-03(4) and 08-07(1), (2)).
UNSTAFFED_TABLE = Rule("floor.unstaffed_table")

# A table's card checks (floor.models.CardCheck), recorded where the site's pack states them
# (`applies`: North Dakota's 08-07(1) and (2)); at another pack's site nothing of them is offered
# and a record is refused. The decks brought to a table are approved by a dealer, again each
# time the cards are brought back (DECKS_APPROVED); each dealing shoe is inspected by a dealer or
# shift manager before each day's activity (SHOE_INSPECTED).
DECKS_APPROVED = Rule("floor.decks_approved")
SHOE_INSPECTED = Rule("floor.shoe_inspected")
CARD_CHECK_RULES = {"decks_approved": DECKS_APPROVED, "shoe_inspected": SHOE_INSPECTED}
# Who does each check, as the text names them: "a dealer shall first approve all decks" (08-07(1));
# "a dealer or shift manager shall inspect each dealing shoe" (08-07(2)).
CARD_CHECKERS = {
    "decks_approved": frozenset({Role.DEALER}),
    "shoe_inspected": frozenset({Role.DEALER, Role.SHIFT_MANAGER}),
}
# Who enters a check: a shift manager (the floor's supervisor) for whoever did it; a dealer for
# their own check only (at a shared terminal, with their badge and PIN). *Assumed*: the text says
# who checks, not who records it.
CARD_CHECK_RECORDERS = FLOOR_SUPERVISORS | {Role.DEALER}


def card_checks_kept(where) -> bool:
    """Are a table's card checks recorded at `where` (a Site or a pack): does its pack state them?"""
    return DECKS_APPROVED.applies(where) or SHOE_INSPECTED.applies(where)


# The site's daily summary, which a closed gaming day's slips enter (the books' rule, accounting.rules).
DAILY_SUMMARY = Rule("floor.daily_summary")

# The slip register lists slip numbers (ND 99-01.3-08-05(2)) with every slip's total and preparer:
# read by those who prepare, verify and register slips and by oversight, not by the dealers at the
# tables nor the count team, whose count stays apart from the chips' movements. House control:
# chapter 08 says what the records hold (08-16), not who may read them.
SLIP_REGISTER = ReadRule(
    VERIFIERS | FILL_PREPARERS | SLIP_BOOK_REGISTRARS | {Role.GAMING_MANAGER, Role.AUDITOR},
    HOUSE_CONTROL,
    "see the slip register",
    pit_station_reads=True,  # the pit's terminal lists the numbers it is writing on
)

# The live pit view (every table's state, dealer and waiting slips): the people who run the
# pit and the chip bank, and oversight. House control: chapter 08 says what the records hold,
# not who watches the floor; a dealer sees their own table on the floor page and slip pages.
PIT_VIEW = ReadRule(
    frozenset({Role.SHIFT_MANAGER, Role.PIT_BOSS, Role.CASHIER, Role.GAMING_MANAGER, Role.AUDITOR}),
    HOUSE_CONTROL,
    "see the live pit view",
)

# --- Citations on pages ----------------------------------------------------------------------

# The rules the floor's pages name in their own words: a template reads `cites.<name>`.
PAGE_RULES = {
    "slip_form": SLIP_FORM,
    "slip_numbering": SLIP_NUMBERING,
    "slip_verification": SLIP_VERIFICATION,
    "slip_receipt": SLIP_RECEIPT,
    "slip_initials": SLIP_INITIALS,
    "slip_initials_short": SLIP_INITIALS_SHORT,
}


def citations_at(where) -> dict[str, str]:
    """The page rules cited at `where` (a site, a table, a pack): no query, the site's pack is
    in memory."""
    return {name: rule.at(where) for name, rule in PAGE_RULES.items()}


# A slip's purposes (floor.models.Slip.Purpose values): a regular fill or credit and a temporary
# chip tray transfer at every site, a jar bar only where the pack states it (SLIP_JAR_BAR).
PURPOSES = ("regular", "tray_transfer")
JAR_BAR = "jar_bar"


def slip_purposes(where) -> tuple[str, ...]:
    """The purposes a fill or credit slip is offered and accepted for at `where` (a Site or a
    jurisdiction code): "jar_bar" only where the pack states it (SLIP_JAR_BAR, ND 99-01.3-08-05(1))."""
    return PURPOSES + ((JAR_BAR,) if SLIP_JAR_BAR.applies(where) else ())


def slip_game(site, code: str) -> str:
    """The game as a fill or credit slip names it at `site`: North Dakota's reference to
    twenty-one (21) or paddlewheels (PW) beside the pack's name, "21 (Twenty-one)"
    (SLIP_GAME_REFERENCE, ND 99-01.3-08-05(3)(a)); elsewhere the pack's name only, "Blackjack"."""
    return slip_game_text(code if SLIP_GAME_REFERENCE.applies(site) else "", game_label(site, code))


def game_column(where, code: str) -> str:
    """A game in a Game column at `where` (the daily page, the daily report's CSV and XLSX): its
    code, "21" or "PW", where the pack asks for that reference (SLIP_GAME_REFERENCE, ND
    99-01.3-08-05(3)(a)); elsewhere the pack's name, "Blackjack" ("" stays "")."""
    return code if not code or SLIP_GAME_REFERENCE.applies(where) else game_label(where, code)


def slip_game_text(reference: str, label: str) -> str:
    """The game in the slip's words: "21 (Twenty-one)" with a reference, "Blackjack" without."""
    return f"{reference} ({label})" if reference else label
