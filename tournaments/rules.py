"""Twenty-one tournaments and their records, as data: the rules by key (cited at a site by its
pack: North Dakota's 08-15 and 08-16(1)(e),(f) state them), limits and roles.

Every service, page and report reads these; no limit or role list is written as a literal
anywhere else. Each entry carries the section it comes from; where chapter 08 does not say
who acts, the entry says "House control".
"""

from cardroom.access import ReadRule
from cardroom.models import Role
from core.rules import HOUSE_CONTROL
from packs import LimitKey, Rule

# --- Rules (packs.Rule keys; the ND pack cites them, packs/nd/tournaments.py) ---------------

# 08-15: a tournament is conducted according to chapter 08 except as 08-15 provides, and its
# rules must be disclosed to players. Where a site's pack does not state it, no tournament is
# recorded there (announce_tournament refuses it).
TOURNAMENT = Rule("tournaments.tournament")
DISCLOSURE = Rule("tournaments.disclosure")
# 08-15(1): an entry fee for a fixed number of no-value chips; rebuys and add-ons at most the
# original entry fee; the cumulative fee at most $200 per player; a register of players and fees.
FEES = Rule("tournaments.fees")
# 08-15(2): one or two betting spaces; a rotating button moves clockwise one position after each
# hand; the organization sets the time or number of shoes or hands.
PLAY = Rule("tournaments.play")
# 08-15(3): no moving, pausing or transferring chips; a minimum bet (and optional maximum) in chips.
BETTING = Rule("tournaments.betting")
# 08-15(4): the most chips wins; prizes per preliminary round; two players may split; cash or
# merchandise prizes.
PRIZES = Rule("tournaments.prizes")
# 08-16(1)(e): the fees, rebuys and add-ons collected; each player's name; the signature or
# initials of the employee who collected the fee, and the date.
FEE_RECORD = Rule("tournaments.fee_record")
# 08-16(1)(f): the prize register (99-01.3-03-07) and the record of win (99-01.3-03-08).
PRIZE_RECORD = Rule("tournaments.prize_record")
# 08-16(1)(g): the daily summary of gross proceeds, prizes and adjusted gross proceeds.
DAILY_SUMMARY = Rule("tournaments.daily_summary")

# --- Limits --------------------------------------------------------------------------------

# `FEES`: the cap on a player's cumulative entry fee, rebuys and add-ons for a whole tournament: the
# site's pack's limit in force on the tournament's gaming date (ND 99-01.3-08-15(1), $200:
# packs/nd/tournaments.py). Asked only where the pack states tournaments (`TOURNAMENT.applies`).
MAX_CUMULATIVE_FEE = LimitKey("tournaments.max_cumulative_fee_cents", FEES)
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
