"""Menu entry for table fees, shown to the roles that read their records (fees.rules)."""

from cardroom.navigation import register
from packs import RevenueModel, pack_for

from . import rules


def _fees_pack(jurisdiction: str) -> bool:
    """Only a pack whose revenue is table fees has the table fees page."""
    return pack_for(jurisdiction).revenue_model == RevenueModel.FEES


register("Table fees (WA-BJ)", "Table fees", "fees:page", rules.FEE_RECORDS.roles, offered=_fees_pack)
