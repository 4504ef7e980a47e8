"""Twenty-one tournaments (ND 99-01.3-08-15) and their records (08-16(1)(e),(f)), as data.

Every service, page and report reads these; no limit or role list is written as a literal
anywhere else. Each entry carries the section it comes from; where chapter 08 does not say
who acts, the entry says "House control".
"""

from cardroom.access import ReadRule
from cardroom.models import Role
from cardroom.rules import HOUSE_CONTROL

# --- Citations ---------------------------------------------------------------------------

# 08-15: a tournament is conducted according to chapter 08 except as 08-15 provides, and its
# rules must be disclosed to players.
TOURNAMENT = "ND 99-01.3-08-15"
DISCLOSURE = "ND 99-01.3-08-15"
# 08-15(1): an entry fee for a fixed number of no-value chips; rebuys and add-ons at most the
# original entry fee; the cumulative fee at most $200 per player; a register of players and fees.
FEES = "ND 99-01.3-08-15(1)"
# 08-15(2): one or two betting spaces; a rotating button moves clockwise one position after each
# hand; the organization sets the time or number of shoes or hands.
PLAY = "ND 99-01.3-08-15(2)"
# 08-15(3): no moving, pausing or transferring chips; a minimum bet (and optional maximum) in chips.
BETTING = "ND 99-01.3-08-15(3)"
# 08-15(4): the most chips wins; prizes per preliminary round; two players may split; cash or
# merchandise prizes.
PRIZES = "ND 99-01.3-08-15(4)"
# 08-16(1)(e): the fees, rebuys and add-ons collected; each player's name; the signature or
# initials of the employee who collected the fee, and the date.
FEE_RECORD = "ND 99-01.3-08-16(1)(e)"
# 08-16(1)(f): the prize register (99-01.3-03-07) and the record of win (99-01.3-03-08).
PRIZE_RECORD = "ND 99-01.3-08-16(1)(f)"
# 08-16(1)(g): the daily summary of gross proceeds, prizes and adjusted gross proceeds.
DAILY_SUMMARY = "ND 99-01.3-08-16(1)(g)"

# --- Limits --------------------------------------------------------------------------------

# 08-15(1): "The cumulative entry fee, including rebuys or add-ons, for an entire tournament
# cannot exceed two hundred dollars per player."
MAX_CUMULATIVE_FEE_CENTS = 20_000
# 08-15(1): "An organization shall charge a player an entry fee": at least one cent.
MIN_ENTRY_FEE_CENTS = 1
# 08-15(2): "An organization may assign a player one or two betting spaces."
BETTING_SPACES = (1, 2)
# House control: a sanity ceiling on the chips issued for one fee or named in a bet limit.
MAX_TOURNAMENT_CHIPS = 1_000_000
# House control: the length of a tournament's name, a player's name, a round's name.
MAX_NAME_LENGTH = 120

# *Assumed* (the text of 99-01.3-03-08 is not in our documents): the record of win of a
# tournament is its fees collected (gross proceeds) less its prizes (cash, and merchandise at
# its cost), i.e. its adjusted gross proceeds, the same reading the table figures use.
RECORD_OF_WIN_ASSUMED = True

# --- Roles (house controls: chapter 08 does not say who runs a tournament) -------------------

# Announce a tournament (its rules and fees), record its prizes and void a mistaken fee or prize.
DIRECTORS = frozenset({Role.GAMING_MANAGER, Role.SHIFT_MANAGER})
DIRECTOR_RULE = HOUSE_CONTROL
# Collect an entry fee, rebuy or add-on: the employees who take cash on the floor. Their
# initials on the record are what 08-16(1)(e) requires; who they are is a house control.
COLLECTORS = frozenset({Role.SHIFT_MANAGER, Role.PIT_BOSS, Role.CASHIER})
COLLECTOR_RULE = HOUSE_CONTROL
# Read the register of players, fees and prizes and the tournament record.
TOURNAMENT_RECORDS = ReadRule(
    frozenset({Role.GAMING_MANAGER, Role.SHIFT_MANAGER, Role.PIT_BOSS, Role.CASHIER, Role.AUDITOR}),
    HOUSE_CONTROL,
    "see the tournament records",
)


# The jurisdiction packs whose sites may record a tournament (packs). The tournament
# register implements ND 99-01.3-08-15 (fees capped at $200, no-value chips, disclosed rules);
# neither the WSGC house-banked rules, WAC 230-40-125 nor 9 NYCRR 4620.5 define a tournament, so
# a Washington or New York site is refused (house control) rather than held to North Dakota's caps.
TOURNAMENT_JURISDICTIONS = frozenset({"ND"})
