"""Menu entry for table fees, shown to the roles that read their records (fees.rules)."""

from cardroom.navigation import register

from . import rules

# Only a pack whose revenue is table fees has the table fees page (the pack is asked).
register("Table fees", "Table fees", "fees:page", rules.FEE_RECORDS.roles, offered=rules.keeps_table_fees)
