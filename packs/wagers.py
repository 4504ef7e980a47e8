"""Table wager limits per jurisdiction (ND 99-01.3-08-09(1) and the other states' limits)."""

from django.core.exceptions import ValidationError

from cardroom.models import Game, Table
from core.money import format_money

from .base import pack_of


def validate_table_wagers(table: Table) -> None:
    """Refuse limits the site's jurisdiction does not allow, naming the field and the rule: the
    limits in force on the site's own day (an effective-dated row, WAC 230-15-140's, begins on a
    date in the state), as an approved game's doubles are judged (`approvals.checks`), never the
    server's date (an API request's zone)."""
    limits = pack_of(table.site).wager_limits_on(table.site.today())
    if limits is None or table.game != Game.TWENTY_ONE:
        return
    errors = {}
    for field, value in (("min_wager_cents", table.min_wager_cents), ("max_wager_cents", table.max_wager_cents)):
        if value is None:
            continue
        too_high = limits.max_cents is not None and value > limits.max_cents
        if value % limits.step_cents or value < limits.min_cents or too_high:
            upper = f" to {format_money(limits.max_cents)}" if limits.max_cents is not None else " up"
            errors[field] = (
                f"{limits.citation}: a wager limit must be a whole dollar amount from "
                f"{format_money(limits.min_cents)}{upper} (got {format_money(value)})."
            )
    if errors:
        raise ValidationError(errors)


# The low-minimum rule (ND 99-01.3-08-09(1): one *active* table at or below the ceiling before
# others above it) concerns the tables in play, a dealer and chips present, not the configuration
# flag: the floor checks it when a dealer is seated and when a table in play changes its minimum
# (`floor.active_tables`). `WagerLimits.low_minimum_ceiling_cents` is the pack's ceiling.
