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
    block = _block(pack)
    if pack.revenue_model == RevenueModel.FEES:
        block["fees"] = fee_queries.fee_totals([site.pk], start, end)
    elif pack.revenue_model == RevenueModel.SESSION:
        block["sessions"] = fee_queries.session_totals([site.pk], start, end)
    return block


def pack_days(site, start: date, end: date) -> dict[date, dict]:
    """{gaming date: the pack's figures of that day}, each as `pack_figures(site, day, day)` gives it
    (the daily page's), for the dates of [start, end] with fees or sessions, in a fixed number of
    queries: the daily report's sections, one a day. Empty for a drop pack."""
    pack = pack_for(site)
    if pack.revenue_model == RevenueModel.FEES:
        key, days = "fees", fee_queries.fee_totals_by_day([site.pk], start, end)
    elif pack.revenue_model == RevenueModel.SESSION:
        key, days = "sessions", fee_queries.session_totals_by_day([site.pk], start, end)
    else:
        return {}
    return {day: {**_block(pack), key: figures} for (_, day), figures in days.items()}


def _block(pack) -> dict:
    block = {
        "code": pack.code,
        "name": pack.name,
        "revenue_model": pack.revenue_model,
        "hold_applies": pack.revenue_model == RevenueModel.DROP,
    }
    if pack.revenue_model == RevenueModel.FEES:
        block["rule"] = TABLE_FEES.at(pack)
    elif pack.revenue_model == RevenueModel.SESSION:
        block["rule"] = SESSION_GAME.at(pack)
    return block
