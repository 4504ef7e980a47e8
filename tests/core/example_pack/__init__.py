"""A pack defined in the tests, as the README's "Adding a pack" says: a folder with its table
rules and options, its wager limits and the citations of the rules its law states."""

from packs.base import Pack, RevenueModel, WagerLimits, merged
from packs.common import is_twenty_one, wager_errors

CODE = "XX"
DECKS_RULE = "Example Code 4.2(a)"
WAGERS_RULE = "Example Code 4.5"
NUMBERING_RULE = "Example Code 7.1"


def table_rules(table) -> dict[str, str]:
    errors = wager_errors(table)
    if is_twenty_one(table) and table.decks > 2:
        errors["decks"] = f"{DECKS_RULE}: one or two decks (got {table.decks})."
    return errors


PACK = Pack(
    code=CODE,
    name="Example State",
    state="XX",
    state_time_zone="America/Denver",
    revenue_model=RevenueModel.DROP,
    table_rules=table_rules,
    table_options=("decks", "max_players", "blackjack_payout"),
    wager_limits=(WagerLimits(f"{WAGERS_RULE}: whole dollars from $2 to $50", 200, 5000, 100),),
    citations=merged(
        {"table.decks": DECKS_RULE, "table.wagers": WAGERS_RULE}, {"floor.slip_numbering": NUMBERING_RULE}
    ),
)
