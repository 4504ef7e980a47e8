"""Menu entries for tournaments, shown to the roles that read their records (tournaments.rules)."""

from cardroom.navigation import register

from . import rules

# Offered only where a site's pack states tournaments (North Dakota's 08-15): elsewhere there is none to read.
register(
    "Tournaments", "Tournaments", "tournaments:list", rules.TOURNAMENT_RECORDS.roles, offered=rules.TOURNAMENT.applies
)
