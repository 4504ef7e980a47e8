"""Menu entry for table fees, shown to the roles that read their records (fees.rules)."""

from cardroom.navigation import register

from . import rules

register("Table fees (WA-BJ)", "Table fees", "fees:page", rules.FEE_RECORDS.roles)
