"""The cage's menu entries, with the roles that may use them."""

from cardroom import navigation
from floor.rules import house_chips

from .rules import CAGE_READERS, INVENTORY_READERS, TIP_ROLES

SECTION = "Cage"
# Chip redemptions, tip chips declared, the chip inventory and the chip denominations (set up under
# Setup) only where the site's pack has house chips (`floor.rules.house_chips`: not where its
# revenue is fees only, whose pages refuse them).
CHIPS = house_chips
navigation.offer_only_where("setup_list", CHIPS, kind="chips")

navigation.register(SECTION, "Bank counts", "cage:bank", CAGE_READERS)
navigation.register(SECTION, "IOUs", "cage:ious", CAGE_READERS)
navigation.register(SECTION, "Chip redemptions", "cage:redemptions", CAGE_READERS, offered=CHIPS)
navigation.register(SECTION, "Tips", "cage:tips", CAGE_READERS | TIP_ROLES, offered=CHIPS)
navigation.register(SECTION, "Bank deposits", "cage:deposits", CAGE_READERS)
navigation.register(SECTION, "Chip inventory log", "cage:inventory", INVENTORY_READERS, offered=CHIPS)
