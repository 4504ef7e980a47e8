"""The chips that exist, asked from below: no record holds more chips of a value than that.

The organization's chip inventory log (SFN 17930; in North Dakota 99-01.3-03-09(6), 08-16(2))
says how many chips of each value exist: received from the manufacturer minus destroyed. No
one record, a bank count, a table opener or closer, a fill or credit slip or a tip
declaration, can hold more chips of a value than exist; such a record is a miscount (or chips
received and never logged), refused when entered rather than flagged by the nightly chip float
check (compliance.chip_float). The log is the cage's, an app above the floor: the floor asks
here and the cage registers its answers when its app loads (`cage.apps`), the figure read by
one function (`cage.queries.chips_exist`), and as an expression of the slip's one context
statement (`chips_exist_sql`, floor.queries.slip_context) so a slip reads nothing more.

Where the organization keeps no log yet (no receipt or destruction recorded by the record's
gaming date: a new organization), nothing is refused: there is no figure to hold a count to.
A value the log never received, while others are logged, has 0 chips that exist.
"""

from collections.abc import Callable, Mapping
from datetime import date

from django.core.exceptions import ValidationError

from cardroom.models import ChipDenomination, Site
from core.hooks import CHIPS_EXIST, CHIPS_EXIST_SQL
from core.money import format_money
from core.plurals import plural
from packs import Rule

# The cage's chip inventory rule (cage.rules.CHIP_INVENTORY, the same key: the floor imports no cage
# module), cited at the record's site: the pack's section, or "House control" where it states none.
CHIP_INVENTORY = Rule("cage.chip_inventory")

ChipsExist = Callable[[int, date], dict[int, int] | None]


def register_chips_exist(exist: ChipsExist, expression: Callable[[str], str]) -> None:
    """The cage registers `exist(organization_id, on_date)` and `expression(vendor)` once, when its
    app is ready (as the `chips_exist` and `chips_exist_sql` hooks answer)."""
    CHIPS_EXIST.register(exist)
    CHIPS_EXIST_SQL.register(expression)


def chips_exist(organization_id: int, on_date: date) -> dict[int, int] | None:
    """{value_cents: chips} the organization's inventory log says exist on `on_date`; None where it
    keeps no log yet."""
    return CHIPS_EXIST(organization_id, on_date)


def chips_exist_sql(vendor: str) -> str:
    """`chips_exist` as an SQL expression for the slip's context statement (`CHIPS_EXIST_SQL`)."""
    return CHIPS_EXIST_SQL(vendor)


def refuse_more_than_exist(
    site: Site,
    lines: Mapping[ChipDenomination, int],
    *,
    record: str,
    on_date: date | None = None,
    exist: Mapping[int, int] | None = None,
    field: str = "chips",
) -> None:
    """Refuse, on `field`, a `record` of `site` holding more chips of a value than the inventory log
    says exist on `on_date` (read here) or as given (`exist`, already read: None, no log). Nothing
    is read or refused for a record of no chips."""
    if not lines:
        return
    if exist is None and on_date is not None:
        exist = chips_exist(site.organization_id, on_date)
    if exist is None:
        return  # no log yet: no figure to hold the record to
    held: dict[int, int] = {}
    for chip, quantity in lines.items():
        held[chip.value_cents] = held.get(chip.value_cents, 0) + quantity
    for value, quantity in sorted(held.items(), reverse=True):
        there = exist.get(value, 0)
        if quantity > there:
            raise ValidationError({field: _message(site, value, there, quantity, record)})


def _message(site: Site, value: int, there: int, quantity: int, record: str) -> str:
    chips = plural(max(there, 0), f"{format_money(value)} chip")
    verb = "exists" if there == 1 else "exist"
    return (
        f"{CHIP_INVENTORY.at(site)}: the chip inventory log says {chips} {verb}; {quantity} cannot be in one "
        f"{record}. Recount, or record the chips received in the inventory log first."
    )
