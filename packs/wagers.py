"""Table wager limits per jurisdiction (ND 99-01.3-08-09(1) and the other states' limits)."""

from django.core.exceptions import ValidationError

from cardroom.models import Game, Table
from core.money import format_money

from .base import pack_of


def validate_table_wagers(table: Table) -> None:
    """Refuse limits the site's jurisdiction does not allow, naming the field and the rule."""
    limits = pack_of(table.site).wager_limits_on()
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
    _validate_low_minimum_table(table, limits)


def _validate_low_minimum_table(table: Table, limits) -> None:
    ceiling = limits.low_minimum_ceiling_cents
    if ceiling is None:
        return
    others = Table.objects.filter(site_id=table.site_id, game=Game.TWENTY_ONE, active=True).exclude(pk=table.pk)
    site_tables = [(t.min_wager_cents, t.pk) for t in others]
    if table.active:
        site_tables.append((table.min_wager_cents, table.pk))
    high = [pk for minimum, pk in site_tables if minimum > ceiling]
    has_low = any(minimum <= ceiling for minimum, _ in site_tables)
    if high and not has_low:
        field = "min_wager_cents" if table.pk in high or table.pk is None else "active"
        raise ValidationError(
            {
                field: f"{limits.citation}: a minimum wager above {format_money(ceiling)} is allowed only "
                f"when another active twenty-one table at the site has a minimum of "
                f"{format_money(ceiling)} or less."
            }
        )
