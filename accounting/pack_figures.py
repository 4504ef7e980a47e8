"""The figures of a site's jurisdiction pack beside the drop-based custody (packs):
DROP packs (ND, WA-HB) have their figures in the summaries themselves; a FEES pack (WA-BJ) adds
its table fees collected, counted and over/short, and no hold; a SESSION pack (NY) adds its
games-of-chance sessions' receipts, prizes and net (fees.rules states the assumptions); `rule`: the
pack's citation of its own revenue. `hold_applies`: only a drop pack's figures have a hold, so
pages and reports show drop, win and hold only where it is True."""

from datetime import date

from fees import queries as fee_queries
from packs import RevenueModel, pack_for

from .rules import SESSION_GAME, TABLE_FEES


def pack_figures(site, start: date, end: date) -> dict:
    pack = pack_for(site)
    block = {
        "code": pack.code,
        "name": pack.name,
        "revenue_model": pack.revenue_model,
        "hold_applies": pack.revenue_model == RevenueModel.DROP,
    }
    if pack.revenue_model == RevenueModel.FEES:
        block["fees"] = fee_queries.fee_totals([site.pk], start, end)
        block["rule"] = TABLE_FEES.at(pack)
    elif pack.revenue_model == RevenueModel.SESSION:
        block["sessions"] = fee_queries.session_totals([site.pk], start, end)
        block["rule"] = SESSION_GAME.at(pack)
    return block
