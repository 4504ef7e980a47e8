"""Menu entries for tournaments, shown to the roles that read their records (tournaments.rules)."""

from cardroom.navigation import register

from . import rules

register("Tournaments", "Tournaments", "tournaments:list", rules.TOURNAMENT_RECORDS.roles)
