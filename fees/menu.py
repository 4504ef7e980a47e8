"""Menu entries for table fees and games-of-chance sessions, shown to the roles that read their
records (fees.rules)."""

from cardroom.navigation import register

from . import rules

# Only a pack whose revenue is table fees has the table fees page (the pack is asked).
# The fee cash counters (the API's) have it too: a count team member counts there without the records.
register(
    "Table fees", "Table fees", "fees:page", rules.FEE_RECORDS.roles | rules.COUNTERS, offered=rules.keeps_table_fees
)
# Only a pack whose revenue is its games-of-chance sessions has the sessions page.
register(
    "Games of chance",
    "Games-of-chance sessions",
    "fees:sessions",
    rules.SESSION_RECORDS.roles,
    offered=rules.keeps_sessions,
)
