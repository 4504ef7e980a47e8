"""North Dakota: chapter 99-01.3-08, charitable twenty-one (the primary specification).

Table rules: the wager limits of 08-09(1) (`WAGER_LIMITS`), four, six or
eight decks dealt from a shoe (08-02(3)), no more than seven betting spaces and the posted
"BLACKJACK PAYS 3 TO 2" (08-02(1)); the dealer may hit soft 17 when posted (08-11).
The one-dealing-method rule (08-10(1)) runs in `Table.clean` for ND sites only.
"""

from ..base import WagerLimits
from ..common import is_twenty_one, wager_errors

DECKS = (4, 6, 8)
DECKS_CITATION = "ND 99-01.3-08-02(3)"
SPACES_MAX = 7
TABLE_CITATION = "ND 99-01.3-08-02(1)"
PAYOUT = "3:2"

# ND 99-01.3-08-09(1): even dollars, $1 to $25, a minimum of not more than $3 on one active
# table before another table may have a higher minimum.
WAGER_LIMITS = (WagerLimits("ND 99-01.3-08-09(1)", 100, 2500, 100, 300),)

CITATIONS = {
    "wagers": "ND 99-01.3-08-09(1)",
    "decks": DECKS_CITATION,
    "dealt_from": DECKS_CITATION,
    "betting_spaces": TABLE_CITATION,
    "blackjack_payout": TABLE_CITATION,
    "handout": "ND 99-01.3-08-13",
}


def table_rules(table) -> dict[str, str]:
    errors = wager_errors(table)
    if not is_twenty_one(table):
        return errors
    if table.decks not in DECKS:
        errors["decks"] = f"{DECKS_CITATION}: the cards must be four, six, or eight decks (got {table.decks})."
    if table.dealt_from != "shoe":
        errors["dealt_from"] = f"{DECKS_CITATION}: the cards must be dealt from a dealing shoe."
    if table.betting_spaces > SPACES_MAX:
        errors["betting_spaces"] = (
            f"{TABLE_CITATION}: a table playing surface displays no more than seven betting spaces "
            f"(got {table.betting_spaces})."
        )
    if table.blackjack_payout != PAYOUT:
        errors["blackjack_payout"] = f"{TABLE_CITATION}: the table displays \"BLACKJACK PAYS 3 TO 2\"."
    return errors
