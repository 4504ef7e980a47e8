"""The figures of a site's jurisdiction pack beside the drop-based custody (packs):
DROP packs (ND, WA-HB) have their figures in the summaries themselves; a FEES pack (WA-BJ) adds
its table fees collected, counted and over/short, and no hold; a SESSION pack (NY) adds its
games-of-chance sessions' receipts, prizes and net (fees.rules states the assumptions)."""

from datetime import date

from fees import queries as fee_queries
from packs import RevenueModel, pack_for


def pack_figures(site, start: date, end: date) -> dict:
    pack = pack_for(site)
    block = {"code": pack.code, "name": pack.name, "revenue_model": pack.revenue_model,
             "hold_applies": pack.revenue_model == RevenueModel.DROP}
    if pack.revenue_model == RevenueModel.FEES:
        block["fees"] = fee_queries.fee_totals([site.pk], start, end)
    elif pack.revenue_model == RevenueModel.SESSION:
        block["sessions"] = fee_queries.session_totals([site.pk], start, end)
    return block
