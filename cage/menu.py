"""The cage's menu entries, with the roles that may use them."""

from cardroom import navigation

from .rules import CAGE_READERS, INVENTORY_READERS, TIP_ROLES

SECTION = "Cage"

navigation.register(SECTION, "Bank counts", "cage:bank", CAGE_READERS)
navigation.register(SECTION, "IOUs", "cage:ious", CAGE_READERS)
navigation.register(SECTION, "Chip redemptions", "cage:redemptions", CAGE_READERS)
navigation.register(SECTION, "Tips", "cage:tips", CAGE_READERS | TIP_ROLES)
navigation.register(SECTION, "Bank deposits", "cage:deposits", CAGE_READERS)
navigation.register(SECTION, "Chip inventory log", "cage:inventory", INVENTORY_READERS)
