"""Who may do what at the cashier's cage, and its limits, as data, each with its section.

*Assumed* entries are the product's reading where the regulation text we hold does not
settle the point (shared/docs/domain.md); they are kept here and nowhere else.
"""

from cardroom.access import ReadRule
from cardroom.models import Role
from core import limits
from core.rules import HOUSE_CONTROL
from packs import LimitKey, Rule

# --- Rules ---------------------------------------------------------------------------------
# Each rule is cited at a site by its pack (`Rule.at`): North Dakota's chapter 99-01.3-08 and the
# sections of 99-01.3-03 it points to (`packs/nd/cage.py`). The Washington and New York texts we
# hold state the games, not the cage; a WA or NY gaming manager and their state's auditor still
# expect the cage's books kept as below, so each rule keeps applying there as a house control:
#
# - the bank's starting and ending counts, the ideal (imprest) bank, chips redeemed at the value
#   sold, tips declared and redeemed through cash on hand: ordinary cage controls;
# - IOUs (ND 99-01.3-03-06): a loan between two funds recorded with its source, destination,
#   amount, dates and initials, and never repaid twice: a house control; money moving between
#   funds without a record is what an auditor looks for first;
# - the deposit by the third banking day after the gaming date (ND 99-01.3-03-10): kept as a house
#   control (cash does not sit in the cage), so the due date and "late" read the same everywhere;
#   verification against the bank statement likewise;
# - the chip inventory log (ND 99-01.3-03-09(6), on the attorney general's SFN 17930): the house
#   accounts for the chips it owns as a house control; the form's name is printed only where the
#   pack states it (`CHIP_INVENTORY_FORM`).
#
# "Tips before leaving the site" (08-06(3)) is an obligation of ND's law alone: the floor's alert
# (floor.tips) asks whether the site's pack states it.
BANK_RECORDS = Rule("cage.bank_records")  # starting and ending cash and chip banks, IOU records
IDEAL_BANK = Rule("cage.ideal_bank")  # ideal cash bank master records
IOU_RULE = Rule("cage.ious")  # source, destination, amount, dates of loan and repayment, initials
# The banks of a charitable organization's other games (paddlewheel, pull-tabs, bingo) as an IOU's
# source or destination: funds of North Dakota's charitable gaming (99-01.3-03-06), offered only
# where the site's pack states them; elsewhere an IOU moves money between the bank, the reserve
# and the general account.
CHARITABLE_FUNDS = Rule("cage.charitable_funds")
CHIP_VALUES = Rule("core.chip_values")  # only the organization's chip values
REDEMPTION = Rule("cage.redemption")  # a chip is redeemed for cash at the value it was sold for
TIPS = Rule("cage.tips")  # tips redeemed through cash on hand, before leaving the site
TIP_HOLDERS = Rule("cage.tip_holders")  # the tips redeemed are a dealer's and a wheel operator's
DEPOSIT = Rule("cage.deposit")  # deposit by the third banking day after the activity
DEPOSIT_VERIFICATION = Rule("cage.deposit_verification")  # the amount deposited, on a bank statement
CHIP_INVENTORY = Rule("cage.chip_inventory")  # inventory records of the chips the organization owns
CHIP_INVENTORY_FORM = Rule("cage.chip_inventory_form")  # the state's form for them, where it has one
GAMING_DAY_STATE = HOUSE_CONTROL
# Segregation of duties the text does not state: a deposit is verified by someone other than
# who recorded it (08-16(5) asks for the verification, not who does it); a cashier does not
# redeem their own tips (08-06(2) says tips are redeemed through cash on hand); a deposit is
# recorded once the day's books are closed (the product's closed-books control).
DEPOSIT_SEGREGATION = HOUSE_CONTROL
TIP_SEGREGATION = HOUSE_CONTROL
DEPOSIT_AFTER_CLOSE = HOUSE_CONTROL  # a gaming day not yet begun: the product's workflow (floor.rules)
# Tips declared on a day whose books have closed are counted in the books of the gaming day they
# are paid on (08-06(2)-(3) say tips are redeemed through cash on hand before the dealer leaves,
# not which day's books count a redemption made after a day's close): no closed day changes.
TIPS_OF_CLOSED_DAYS = HOUSE_CONTROL


def at_organization(rule: Rule, organization_id: int) -> str:
    """A rule of an organization's records (its chip inventory, its tip policy) cited by the first
    pack of its active sites that states it, else "House control" (`Rule.at_organization`)."""
    return rule.at_organization(organization_id)


# --- Roles ---------------------------------------------------------------------------------

# Domain.md section 1: the chip bank cashier counts the bank, sells and redeems chips and
# redeems dealer tips; the shift manager supervises the cage. *Assumed*: both may record
# every cage transaction at their site; a gaming manager may too, anywhere in the organization.
CAGE_CLERKS = frozenset({Role.CASHIER, Role.SHIFT_MANAGER, Role.GAMING_MANAGER})

# Readers of cage records at a site: the clerks and the auditor (who only reads).
CAGE_READERS = CAGE_CLERKS | {Role.AUDITOR}
# House control (the chapter says what the cage records, not who reads them): the pages that link
# to them (the obligations calendar's deposits) ask this.
CAGE_RECORDS = ReadRule(CAGE_READERS, HOUSE_CONTROL, "see these cage records")

# `IOU_RULE`: each loan and each repayment is initialed by the clerk who makes it.
IOU_SIGNERS = CAGE_CLERKS

# The ideal (imprest) bank amount and the tip-pooling policy are set by the gaming manager.
POLICY_SETTERS = frozenset({Role.GAMING_MANAGER})

# `DEPOSIT_VERIFICATION`: *assumed* the gaming manager verifies a deposit against the bank
# statement, and never the person who recorded it.
DEPOSIT_VERIFIERS = frozenset({Role.GAMING_MANAGER})

# Dealers and wheel operators declare the tip chips they hold (`TIP_HOLDERS`).
TIP_ROLES = frozenset({Role.DEALER, Role.WHEEL_OPERATOR})

# Tip chips are paid out of cash on hand by the cashier (`TIPS`): the dealer is
# present at the window, the cashier records the redemption for that dealer.
TIP_REDEEMERS = frozenset({Role.CASHIER, Role.SHIFT_MANAGER})

# The chip inventory log (`CHIP_INVENTORY`) is the organization's: the gaming manager records
# receipts from the manufacturer, destruction and physical counts; auditors read it.
INVENTORY_KEEPERS = frozenset({Role.GAMING_MANAGER})
INVENTORY_READERS = frozenset({Role.GAMING_MANAGER, Role.AUDITOR, Role.SHIFT_MANAGER, Role.CASHIER})
# House control (08-16(2) says the inventory records are kept, not who reads them).
INVENTORY_LOG = ReadRule(INVENTORY_READERS, HOUSE_CONTROL, "see the chip inventory log")

# --- Limits --------------------------------------------------------------------------------

# US currency and coin values a cash bank is counted in, largest first ($1 bills and coins
# are one line: they are the same money).
CASH_VALUES_CENTS = (10000, 5000, 2000, 1000, 500, 200, 100, 50, 25, 10, 5, 1)

# `DEPOSIT`: banking days after the gaming date within which the deposit is made: the site's pack's
# limit in force on the gaming date (ND's: packs/nd/cage.py, the one source of the cage's due date,
# the daily summary's and the compliance threshold `deposit.banking_days`). Where the site's pack
# states no deadline, the house keeps its own: the third banking day, cited "House control".
DEPOSIT_DAYS = LimitKey("cage.deposit_banking_days", DEPOSIT, house=(3, "the third banking day after the gaming date"))

# A sanity ceiling on one count line: larger numbers are typing mistakes (a house control,
# shared by every line of the system).
MAX_QUANTITY_PER_LINE = limits.MAX_QUANTITY
