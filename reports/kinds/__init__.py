"""One module per report; importing this package registers them all."""

from . import alerts, chip_inventory, daily, dealer_hold, dealer_shifts, house_rules, quarterly, slip_register  # noqa: F401
