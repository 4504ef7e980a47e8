"""One module per report; importing this package registers them all."""

from . import (  # noqa: F401
    alerts,
    chip_inventory,
    count_sheets,
    daily,
    dealer_hold,
    dealer_shifts,
    house_rules,
    quarterly,
    slip_register,
    surveillance_log,
    tournament_record,
)
