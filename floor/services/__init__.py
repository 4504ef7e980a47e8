"""Every write to table chip custody: permission-checked, validated, audited, in one transaction.

The API, the browser pages and the demo loader call these; none of them validate on their own.
Each refusal is a ValidationError naming the field and citing its rule, or a PermissionDenied.
One module per kind of change (`from floor import services; services.prepare_fill(...)`):

- gaming_days: open_gaming_day, close_gaming_day, carry_open_items, items_left_open (floor.open_items)
- tray_counts: record_table_inventory
- dealer_shifts: start_dealer_shift, end_dealer_shift
- slips: prepare_fill, prepare_credit, verify_slip, receive_slip, void_slip
- slip_books: register_slip_book
- card_checks: record_card_check (a table's decks approved, its shoe inspected: ND 99-01.3-08-07(1), (2))
- duty: start_duty, end_duty (the duty register, 08-05(5))
- steps: parse_chips, chip_lines (counts or dollar amounts), and the steps the others share
"""

from .card_checks import record_card_check
from .dealer_shifts import end_dealer_shift, start_dealer_shift
from .duty import end_duty, start_duty
from .gaming_days import carry_open_items, close_gaming_day, items_left_open, open_gaming_day
from .slip_books import register_slip_book
from .slips import (
    check_verifier,
    prepare_credit,
    prepare_fill,
    receive_slip,
    receiver_capacity,
    verify_slip,
    void_slip,
)
from .steps import MAX_AMOUNT_LINES, chip_lines, chips_from_amounts, parse_chips
from .tray_counts import record_table_inventory

__all__ = [
    "MAX_AMOUNT_LINES",
    "check_verifier",
    "receiver_capacity",
    "carry_open_items",
    "close_gaming_day",
    "items_left_open",
    "end_dealer_shift",
    "end_duty",
    "open_gaming_day",
    "chip_lines",
    "chips_from_amounts",
    "parse_chips",
    "prepare_credit",
    "prepare_fill",
    "receive_slip",
    "record_card_check",
    "record_table_inventory",
    "register_slip_book",
    "start_dealer_shift",
    "start_duty",
    "verify_slip",
    "void_slip",
]
