"""The frozen figures format: the JSON a closed day (`BooksClose.figures`) and a filed quarter
(`QuarterFiling.figures`) keep, and the SHA-256 of it they keep beside it (ND 99-01.3-08-16(1)(g):
closed and filed figures never change).

This is a legal record, not an API representation. The figures API starts from these
documents and may show figures differently (add, rename or drop fields) without touching a
digest; closing the books, filing a quarter and checking closed or filed books against the
figures now (`accounting.books`) use only this module.

Versioning. `FORMAT_VERSION` is the format written now. Version 1 documents carry no version
key (every snapshot written before this module was version 1, and their digests must still
verify). A change to what is frozen (a field added, renamed or computed differently) is a new
version: its documents carry `"format_version": N`, `version_of` reads it, and the old
version's functions stay here so that old snapshots are still compared in their own format.
Changing a version-1 function below changes the digest of every new snapshot and the
comparison of every old one: tests/accounting/test_frozen_format.py pins a digest.

Version 2 (from 2026-12-04) is version 1 with `"format_version": 2` and, where the site's pack
takes its revenue as table fees (WA-BJ) or games-of-chance sessions (NY), that revenue: a day's
and a quarter's `"pack": {"fees": {...}}` or `{"sessions": {...}}` (`pack`). Version 1 froze none
of it, so "Figures equal the quarterly summary filed" compared nothing of a fees or session
site's revenue. A day's and a quarter's document are compared with the figures now in the
version they were written in (`daily`, `quarter`: `version`); the version key sits in the compared
document itself (a filing's `summary`, a closed day's figures).

Version 3 (from 2026-12-04, after version 2 the same day) is version 2 with `"format_version": 3`
and, where the site's pack takes its revenue as table fees (WA-BJ: its `pack` block holds `fees`),
none of the drop's figures: WAC 230-40-125(1) makes a WA-BJ house's revenue its time fees, its
tables take none of the house's chips (floor.rules.house_chips), so they have no custody, yet
version 2 froze North Dakota's drop blocks beside the fees, all at zero, and they travelled into the
filed return's package and the registry. Left out there (`DROP_DAY_KEYS`, `DROP_CASH_KEYS`,
`DROP_QUARTER_KEYS`, `DROP_QUARTER_DAY_KEYS`): a day's `tables`, `total`, `twenty_one` and
`paddlewheel`, and its cash long (short) and that line's reconciliation (`long_short_cents`,
`chips_outside_change_cents`, `unexplained_cents`: cash profit - AGP, a drop-based AGP); a quarter's
`total`, `twenty_one`, `paddlewheel` and `long_short_cents`, and in each of its day rows the gross
proceeds, prizes, AGP, hold and long (short). Kept: the pack block, the cash profit and the deposit,
the adjustments, the tournaments (where there was play), the books' states and each day's
closed-books digest. A session site (NY) keeps its tables' custody beside its sessions: its tables
take fills and credits, its drop boxes are counted, and those records are what its session figures
answer to, so they stay frozen. Every other site's version 3 is its version 2 with
`"format_version": 3`. Stored documents of versions 1 and 2 are still compared in their own version
(a WA-BJ site's version-2 day keeps its zero drop blocks).

Version 4 (from 2026-12-05) is version 3 with `"format_version": 4` and, on a day with tournament
play, its cash figures with the tournaments in them (`accounting.summaries.cash_figures`): the cash
long (short) is the cash profit less the AGP of all the day's twenty-one activity, the tables' and
the tournaments' (ND 99-01.3-08-15, 08-16(1)(g)), and the cash profit is net of the tournaments'
merchandise prizes (paid from no cash bank); a quarter counts a day of tournament play without a
bank count among its `days_without_bank_count`. Versions 1 to 3 compared the bank's cash, which
holds the tournaments' fees and cash prizes, with the tables' AGP only, leaving the tournaments'
cash an unexplained long; a stored document of those versions is still compared in its own
(`_cash_before_v4`). A day or quarter without tournament play reads the same in versions 3 and 4.

Version 5 (from 2026-12-05, after version 4 the same day) is version 4 with `"format_version": 5`
and a quarter counting among its `days_without_bank_count` a day of a fees or session pack's table
fees (WA-BJ, WAC 230-40-125(1)) or games-of-chance sessions (NY) without a bank count
(`accounting.summaries.played_for_cash`). Their cash is the cash bank's (a day of them closes its
books on a bank count, `accounting.services.cash_at_the_cage`), so such a day's cash profit is not
known and left out of the quarter's, yet version 4 counted only the days of table or tournament
play: a WA-BJ quarter of fees with no bank count read no day without one beside a cash profit not
known. A stored document of versions 1 to 4 is still compared in its own version (`_quarter_cash`:
version 4 counts the days of table or tournament play, versions 1 to 3 those of table play). A day's
document, and a quarter without such a day, reads the same in versions 4 and 5.

Adjusting entries to a fees or session pack's own revenue (from 2026-12-07: the fees collected at
WA-BJ, the sessions' receipts and prizes at NY, `accounting.rules.PACK_FIGURES`) count in the `pack`
block of the day they are recorded on, as a table figure's counts in its `total`, and are listed in
its `adjustments_recorded` as any other. This is no new version: the block is the day's summary's,
and no stored document can hold such an entry (the fields did not exist before), so every document
written before compares as it did and every digest still verifies; a day or quarter without one reads
the same. A closed day's own block never moves: the entries correcting it are listed in its
`adjustments_to_this_day` and counted on the day entered.
"""

import hashlib
import json
from datetime import date

from .figures import Custody, ratio_string

FORMAT_VERSION = 5
VERSION_KEY = "format_version"  # absent in version 1

TAX_LABEL = (
    "ND gaming tax on the AGP recorded here (N.D.C.C. 53-06.1-12): the North Dakota sites' twenty-one and "
    "paddlewheel AGP; the brackets apply to the organization's AGP from all its games, so with the other "
    "games' AGP recorded the tax here is its pro-rata share of the tax on the total."
)


# --- Digest -------------------------------------------------------------------------------------


def digest(figures: dict) -> str:
    """SHA-256 of the figures as canonical JSON (sorted keys, no spaces)."""
    return hashlib.sha256(json.dumps(figures, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def verifies(figures: dict, sha256: str) -> bool:
    """Do stored figures still hash to the digest stored beside them (any version)?"""
    return digest(figures) == sha256


def version_of(figures: dict) -> int:
    return int(figures.get(VERSION_KEY, 1))


# --- Version 1 ----------------------------------------------------------------------------------


def custody(c: Custody) -> dict:
    return {
        "drop_cents": c.drop_cents,
        "fills_cents": c.fills_cents,
        "credits_cents": c.credits_cents,
        "opener_cents": c.opener_cents,
        "closer_cents": c.closer_cents,
        "gross_proceeds_cents": c.gross_proceeds_cents,
        "prizes_cents": c.prizes_cents,
        "agp_cents": c.agp_cents,
        "hold_ratio": ratio_string(c.hold_ratio),
    }


def adjustment(a) -> dict:
    """An `accounting.summaries.AdjustmentLine`."""
    return {
        "id": a.adjustment_id,
        "corrected_date": str(a.corrected_date),
        "recorded_on": str(a.recorded_on),
        "table_number": a.table_number,
        "field": a.field,
        "amount_cents": a.amount_cents,
        "reason": a.reason,
        "recorded_by_initials": a.recorded_by_initials,
        "approved_by_initials": a.approved_by_initials,
        "recorded_at": a.recorded_at.isoformat(),
    }


def tournaments(t) -> dict:
    """{"tournaments": {...}} when there was tournament play, else {} (so the figures of books
    closed before tournaments were recorded compare equal)."""
    if t.is_empty:
        return {}
    return {
        "tournaments": {
            "entries": t.entries,
            "entry_fees_cents": t.entry_fees_cents,
            "rebuys_cents": t.rebuys_cents,
            "add_ons_cents": t.add_ons_cents,
            "gross_proceeds_cents": t.gross_proceeds_cents,
            "cash_prizes_cents": t.cash_prizes_cents,
            "merchandise_prizes_cents": t.merchandise_prizes_cents,
            "prizes_cents": t.prizes_cents,
            "agp_cents": t.agp_cents,
        }
    }


def daily(s, version: int = FORMAT_VERSION) -> dict:
    """A day's figures (an `accounting.summaries.DailySummary`) as the books closed on it keep them,
    in format `version` (the one written now unless a stored document's is given)."""
    document = {**_daily_v1(s, version), **_since_v2(s.pack, version)}
    if version < 3 or "fees" not in (s.pack or {}):
        return document
    return _own_pack_day(document)


def _since_v2(pack_figures: dict, version: int) -> dict:
    """What version 2 adds to a day's or a quarter's document: its version (2 or later), and the
    pack's revenue (fees or sessions) where it has any."""
    if version < 2:
        return {}
    return {VERSION_KEY: version, **({"pack": pack_figures} if pack_figures else {})}


# Version 3: the drop's figures a fees pack's document leaves out (the module docstring).
DROP_DAY_KEYS = frozenset({"tables", "total", "twenty_one", "paddlewheel"})
DROP_CASH_KEYS = frozenset({"long_short_cents", "chips_outside_change_cents", "unexplained_cents"})
DROP_QUARTER_KEYS = frozenset({"total", "twenty_one", "paddlewheel", "long_short_cents"})
DROP_QUARTER_DAY_KEYS = frozenset(
    {"gross_proceeds_cents", "prizes_cents", "agp_cents", "hold_ratio", "long_short_cents"}
)


def _without(document: dict, keys: frozenset) -> dict:
    return {key: value for key, value in document.items() if key not in keys}


def _own_pack_day(document: dict) -> dict:
    """A fees site's day in version 3: its own pack's figures, no drop's."""
    return {**_without(document, DROP_DAY_KEYS), "cash": _without(document["cash"], DROP_CASH_KEYS)}


def _own_pack_quarter(document: dict) -> dict:
    """A fees site's quarter in version 3: its own pack's figures, no drop's."""
    days = [_without(row, DROP_QUARTER_DAY_KEYS) for row in document["days"]]
    return {**_without(document, DROP_QUARTER_KEYS), "days": days}


def drop_figures(s) -> dict:
    """A day's drop-format custody (an `accounting.summaries.DailySummary`'s): each table's, the
    total's and each game's (`DROP_DAY_KEYS`); in every version-1 and version-2 day, and in version
    3 only at a drop pack's site."""
    return {
        "tables": [
            {
                "table_number": t.table_number,
                "game": t.game,
                "counted": t.counted,
                "complete": t.complete,
                **custody(t.custody),
            }
            for t in s.tables
        ],
        "total": custody(s.total),
        "twenty_one": custody(s.twenty_one),
        "paddlewheel": custody(s.paddlewheel),
    }


def _cash_before_v4(cash) -> tuple[int | None, int | None, int | None]:
    """A day's (cash profit, long (short), unexplained) as versions 1 to 3 computed them: the
    tournaments' merchandise prizes not out of the cash profit, the long (short) against the
    tables' AGP only (module docstring, version 4)."""
    if cash.cash_profit_cents is None:
        return None, cash.long_short_cents, cash.unexplained_cents
    back = cash.tournament_agp_cents + cash.prizes_not_in_cash_cents
    unexplained = None if cash.unexplained_cents is None else cash.unexplained_cents + back
    # None on a day in play with a table not closed (its AGP not known); never on closed books.
    long_short = None if cash.long_short_cents is None else cash.long_short_cents + back
    return cash.cash_profit_cents + cash.prizes_not_in_cash_cents, long_short, unexplained


def _cash_in(cash, version: int) -> tuple[int | None, int | None, int | None]:
    """A day's (cash profit, long (short), unexplained) in format `version`."""
    if version < 4:
        return _cash_before_v4(cash)
    return cash.cash_profit_cents, cash.long_short_cents, cash.unexplained_cents


def _daily_v1(s, version: int) -> dict:
    cash = s.cash
    profit, long_short, unexplained = _cash_in(cash, version)
    return {
        **tournaments(s.tournaments),
        "site": s.site_id,
        "gaming_date": str(s.gaming_date),
        "gaming_day_closed": s.gaming_day_closed,
        "books_closed": s.books_closed,
        "adjustments_recorded": [adjustment(a) for a in s.adjustments_recorded],
        "adjustments_to_this_day": [adjustment(a) for a in s.adjustments_to_this_day],
        **drop_figures(s),
        "cash": {
            "cash_profit_cents": profit,
            "long_short_cents": long_short,
            "chips_outside_change_cents": cash.chips_outside_change_cents,
            "unexplained_cents": unexplained,
            "deposit_expected_cents": cash.deposit_expected_cents,
            "deposit_recorded_cents": cash.deposit_recorded_cents,
            "deposited_on": str(cash.deposited_on) if cash.deposited_on else None,
            "deposit_verified": cash.deposit_verified,
            "deposit_due": str(cash.deposit_due),
        },
    }


def quarter(summary, books_sha256: dict[tuple[int, date], str | None], version: int = FORMAT_VERSION) -> dict:
    """The site's quarter (SFN 50901) as a filing freezes it (an `accounting.summaries.QuarterSummary`):
    a row per gaming day with the digest of the books closed on it (`books_sha256`, keyed by
    (site id, gaming date); a day without closed books has none), in format `version`."""
    document = {**_quarter_v1(summary, books_sha256, version), **_since_v2(summary.pack, version)}
    if version < 3 or "fees" not in (summary.pack or {}):
        return document
    return _own_pack_quarter(document)


def _known_sum(values) -> int | None:
    values = [v for v in values if v is not None]
    return sum(values) if values else None


def _days_without_bank_count(summary, version: int) -> int:
    """The quarter's days that took cash without a bank count, in format `version`: from 5 every day
    of table or tournament play, table fees or sessions (`summary.days_without_bank_count`); in 4
    those of table or tournament play; before 4 those of table play (the module docstring)."""
    if version >= 5:
        return summary.days_without_bank_count
    if version == 4:
        return sum(
            1 for d in summary.days if d.cash.cash_profit_cents is None and (d.tables or not d.tournaments.is_empty)
        )
    return sum(1 for d in summary.days if d.cash.cash_profit_cents is None and d.tables)


def _quarter_cash(summary, version: int) -> tuple[int | None, int | None, int, dict]:
    """The quarter's (cash profit, long (short), days without bank count) and each day's (cash
    profit, long (short)) by date, in format `version` (before 4: `_cash_before_v4`; the days
    without a bank count as `_days_without_bank_count` counts them in that version)."""
    without = _days_without_bank_count(summary, version)
    if version >= 4:
        days = {d.gaming_date: (d.cash.cash_profit_cents, d.cash.long_short_cents) for d in summary.days}
        return summary.cash_profit_cents, summary.long_short_cents, without, days
    days = {d.gaming_date: _cash_before_v4(d.cash)[:2] for d in summary.days}
    counted = [days[d.gaming_date] for d in summary.days if d.cash.cash_profit_cents is not None]
    return _known_sum(p for p, _ in counted), _known_sum(ls for _, ls in counted), without, days


def _quarter_v1(summary, books_sha256: dict[tuple[int, date], str | None], version: int) -> dict:
    profit, long_short, without, days = _quarter_cash(summary, version)
    return {
        **tournaments(summary.tournaments),  # only when there was play: earlier filings compare equal
        "site": summary.site_id,
        "quarter": str(summary.quarter),
        "total": custody(summary.total),
        "twenty_one": custody(summary.twenty_one),
        "paddlewheel": custody(summary.paddlewheel),
        "cash_profit_cents": profit,
        "long_short_cents": long_short,
        "days_without_bank_count": without,
        "days": [
            {
                "gaming_date": str(d.gaming_date),
                "gross_proceeds_cents": d.total.gross_proceeds_cents,
                "prizes_cents": d.total.prizes_cents,
                "agp_cents": d.total.agp_cents,
                "hold_ratio": ratio_string(d.total.hold_ratio),
                "cash_profit_cents": days[d.gaming_date][0],
                "long_short_cents": days[d.gaming_date][1],
                "books_sha256": books_sha256.get((d.site_id, d.gaming_date)),
            }
            for d in summary.days
        ],
    }


def tax(t) -> dict:
    """The organization's gaming tax (an `accounting.summaries.TaxFigures`) as a filing freezes it."""
    return {
        "organization": t.organization_id,
        "quarter": str(t.quarter),
        "agp_cents": t.agp_cents,
        "tax_cents": t.tax_cents,
        "tax_label": TAX_LABEL,
        "other_games_agp_cents": t.other_games_agp_cents,
        "organization_agp_cents": t.organization_agp_cents,
        "organization_tax_cents": t.organization_tax_cents,
        "other_jurisdiction_sites": list(t.other_sites),
        "sites": [
            {
                "site": name,
                "gross_proceeds_cents": gp,
                "prizes_cents": prizes,
                "agp_cents": agp,
                "cash_profit_cents": profit,
            }
            for name, gp, prizes, agp, profit in t.sites
        ],
        "brackets": [
            {
                "from_cents": b.lower_cents,
                "rate": str(b.rate),
                "base_cents": b.base_cents,
                "effective_from": str(b.effective_from),
                "citation": b.citation,
            }
            for b in t.brackets
        ],
    }


def filed_quarter(summary, books_sha256, tax_figures=None, filed_sites=()) -> dict:
    """What a filing freezes: `summary` (the site's quarter) and, where the pack taxes the
    quarter, `tax` (the organization's tax as it stands, with the sites filed)."""
    figures = {"summary": quarter(summary, books_sha256)}
    if tax_figures is not None:
        figures["tax"] = {**tax(tax_figures), "filed_sites": list(filed_sites)}
    return figures
