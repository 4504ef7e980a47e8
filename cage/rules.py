"""Who may do what at the cashier's cage, and its limits, as data, each with its section.

*Assumed* entries are the product's reading where the regulation text we hold does not
settle the point (shared/docs/domain.md); they are kept here and nowhere else.
"""

from cardroom import limits
from cardroom.access import ReadRule
from cardroom.models import Role
from cardroom.rules import HOUSE_CONTROL

# --- Citations ---------------------------------------------------------------------------

BANK_RECORDS = "ND 99-01.3-08-16(1)(a)"  # starting and ending cash and chip banks, IOU records
IDEAL_BANK = "ND 99-01.3-03-09(5)"  # ideal cash bank master records (08-16(3))
IOU_RULE = "ND 99-01.3-03-06"  # source, destination, amount, dates of loan and repayment, initials
CHIP_VALUES = "ND 99-01.3-08-03(1)"  # only the organization's chip values
REDEMPTION = "ND 99-01.3-08-06(2)"  # a chip is redeemed for cash at the value it was sold for
TIPS = "ND 99-01.3-08-06(2)-(3)"  # tips redeemed through cash on hand, before leaving the site
TIP_HOLDERS = "ND 99-01.3-08-06(2)"  # the tips redeemed are a dealer's and a wheel operator's
DEPOSIT = "ND 99-01.3-03-10"  # deposit by the third banking day after the activity
DEPOSIT_VERIFICATION = "ND 99-01.3-08-16(5)"  # verification of the amount deposited on a bank statement
CHIP_INVENTORY = "ND 99-01.3-03-09(6)"  # inventory records (08-16(2)); SFN 17930
BUSINESS_DAY = "ND 99-01.3-02-01"
GAMING_DAY_STATE = HOUSE_CONTROL
# Segregation of duties the text does not state: a deposit is verified by someone other than
# who recorded it (08-16(5) asks for the verification, not who does it); a cashier does not
# redeem their own tips (08-06(2) says tips are redeemed through cash on hand); a deposit is
# recorded once the day's books are closed (the product's closed-books control).
DEPOSIT_SEGREGATION = HOUSE_CONTROL
TIP_SEGREGATION = HOUSE_CONTROL
DEPOSIT_AFTER_CLOSE = HOUSE_CONTROL  # a gaming day not yet begun: the product's workflow (floor.rules)

# --- Roles ---------------------------------------------------------------------------------

# Domain.md section 1: the chip bank cashier counts the bank, sells and redeems chips and
# redeems dealer tips; the shift manager supervises the cage. *Assumed*: both may record
# every cage transaction at their site; a gaming manager may too, anywhere in the organization.
CAGE_CLERKS = frozenset({Role.CASHIER, Role.SHIFT_MANAGER, Role.GAMING_MANAGER})

# Readers of cage records at a site: the clerks and the auditor (who only reads).
CAGE_READERS = CAGE_CLERKS | {Role.AUDITOR}

# ND 99-01.3-03-06: each loan and each repayment is initialed by the clerk who makes it.
IOU_SIGNERS = CAGE_CLERKS

# The ideal (imprest) bank amount and the tip-pooling policy are set by the gaming manager.
POLICY_SETTERS = frozenset({Role.GAMING_MANAGER})

# ND 99-01.3-08-16(5): *assumed* the gaming manager verifies a deposit against the bank
# statement, and never the person who recorded it.
DEPOSIT_VERIFIERS = frozenset({Role.GAMING_MANAGER})

# Dealers and wheel operators declare the tip chips they hold (ND 99-01.3-08-06(2)).
TIP_ROLES = frozenset({Role.DEALER, Role.WHEEL_OPERATOR})

# Tip chips are paid out of cash on hand by the cashier (ND 99-01.3-08-06(2)): the dealer is
# present at the window, the cashier records the redemption for that dealer.
TIP_REDEEMERS = frozenset({Role.CASHIER, Role.SHIFT_MANAGER})

# The chip inventory log (SFN 17930) is the organization's: the gaming manager records
# receipts from the manufacturer, destruction and physical counts; auditors read it.
INVENTORY_KEEPERS = frozenset({Role.GAMING_MANAGER})
INVENTORY_READERS = frozenset({Role.GAMING_MANAGER, Role.AUDITOR, Role.SHIFT_MANAGER, Role.CASHIER})
# House control (08-16(2) says the inventory records are kept, not who reads them).
INVENTORY_LOG = ReadRule(INVENTORY_READERS, HOUSE_CONTROL, "see the chip inventory log")

# --- Limits --------------------------------------------------------------------------------

# US currency and coin values a cash bank is counted in, largest first ($1 bills and coins
# are one line: they are the same money).
CASH_VALUES_CENTS = (10000, 5000, 2000, 1000, 500, 200, 100, 50, 25, 10, 5, 1)

# ND 99-01.3-03-10: banking days after the gaming date within which the deposit is made.
DEPOSIT_BANKING_DAYS = 3

# A sanity ceiling on one count line: larger numbers are typing mistakes (a house control,
# shared by every line of the system).
MAX_QUANTITY_PER_LINE = limits.MAX_QUANTITY
