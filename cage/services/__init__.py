"""Every write at the cashier's cage: permission-checked, validated, audited, in one transaction.

The API, the browser pages and the demo loader call these; none of them validate on their own.
A refusal is a ValidationError naming the field and citing its rule, or a PermissionDenied.

One module per kind of change (`from cage import services; services.<function>(...)` keeps
working):

- steps: parse_chip_lines, parse_cash_lines
- bank: set_ideal_bank, record_bank_count
- ious: lend_iou, repay_iou
- chip_redemptions: redeem_chips
- tips: record_tip_policy, declare_tips, redeem_tips
- deposits: record_deposit, correct_deposit, verify_deposit
- chip_inventory: receive_chips, destroy_chips, record_chip_inventory_count
"""

from .bank import record_bank_count, set_ideal_bank
from .chip_inventory import destroy_chips, receive_chips, record_chip_inventory_count
from .chip_redemptions import redeem_chips
from .deposits import correct_deposit, record_deposit, verify_deposit
from .ious import lend_iou, repay_iou
from .steps import parse_cash_lines, parse_chip_lines
from .tips import declare_tips, record_tip_policy, redeem_tips

__all__ = [
    "correct_deposit",
    "declare_tips",
    "destroy_chips",
    "lend_iou",
    "parse_cash_lines",
    "parse_chip_lines",
    "receive_chips",
    "record_bank_count",
    "record_chip_inventory_count",
    "record_deposit",
    "record_tip_policy",
    "redeem_chips",
    "redeem_tips",
    "repay_iou",
    "set_ideal_bank",
    "verify_deposit",
]
