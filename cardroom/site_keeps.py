"""What a site keeps, asked from above.

Whether the house's chips go to a site's tables is the floor's answer (`floor.rules.house_chips`);
a fees room keeps none there (WA-BJ, where the house's revenue is the fees collected at its tables,
WAC 230-40-125(1)). The core's own pages ask here for a role's name (`models.role_label`: a fees
room's cashier keeps fee cash, no chip bank). The floor registers its answer when its app loads
(`floor.apps`): imports keep pointing down.
"""

from collections.abc import Callable

from core.hooks import HOUSE_CHIPS


def register_house_chips(answer: Callable[[object], bool]) -> None:
    HOUSE_CHIPS.register(answer)


def house_chips(site) -> bool:
    """Do the house's chips move between its chip bank and `site`'s tables?"""
    return HOUSE_CHIPS(site)
