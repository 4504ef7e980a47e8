"""Percent-of-hold over time for the auditor dashboard: weekly points by site, by table and
by dealer, and the table-days that deserve a look.

Hold is the ratio of the sums (shared/docs/domain.md 3) over counted twenty-one table-days
(drop from a signed count, opener and closer recorded), as the dealer comparison uses.
Closed days from their snapshots (accounting.day_figures); a fixed number of queries whatever the number of sites, tables, dealers and weeks."""

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from accounting import published
from accounting.published import Custody
from packs import RevenueWords, pack_for, revenue_words

WEEKS = 13
UNUSUAL_LOW = Decimal("-0.05")  # a single table-day swings from about -5% to +40% (domain.md 8)
UNUSUAL_HIGH = Decimal("0.40")


@dataclass(frozen=True)
class Week:
    start: date
    end: date


def weeks_ending(end: date, count: int = WEEKS) -> list[Week]:
    """`count` seven-day weeks, the last ending on `end`, oldest first."""
    return [
        Week(end - timedelta(days=7 * (count - i) - 1), end - timedelta(days=7 * (count - i - 1))) for i in range(count)
    ]


def _week_index(weeks: list[Week], day: date) -> int:
    return (day - weeks[0].start).days // 7


def _series(totals: dict, weeks: list[Week], words: RevenueWords) -> list[dict]:
    return [_point(totals.get(i, published.ZERO), week, words) for i, week in enumerate(weeks)]


def _point(custody: Custody, week: Week, words: RevenueWords) -> dict:
    """A week's figures keyed in the words of the site's pack (`RevenueWords.gross_key`, `net_key`):
    North Dakota's "gross_proceeds_cents" and "agp_cents", another pack's "drop_cents" and
    "win_cents", never North Dakota's names at a Washington or New York site; the hold's key is the
    trade's at every pack."""
    hold = custody.hold_ratio
    return {
        "start": str(week.start),
        "end": str(week.end),
        words.gross_key: custody.gross_proceeds_cents,
        words.net_key: custody.agp_cents,
        "hold_percent": None if hold is None else published.ratio_string(hold * 100, 2),
    }


def _add(buckets, key, index, custody) -> None:
    buckets[key][index] = buckets[key].get(index, published.ZERO) + custody


def site_trends(sites, end: date, count: int = WEEKS) -> dict:
    """Weekly hold of each site."""
    weeks = weeks_ending(end, count)
    buckets = defaultdict(dict)
    for day in published.snapshot_table_days([s.pk for s in sites], weeks[0].start, end):
        if day.complete and day.game == "21":
            _add(buckets, day.site_id, _week_index(weeks, day.gaming_date), day.custody)
    return {
        "weeks": [{"start": str(w.start), "end": str(w.end)} for w in weeks],
        "sites": [
            {"id": s.pk, "name": s.name, "points": _series(buckets[s.pk], weeks, revenue_words(s))} for s in sites
        ],
    }


def site_detail_trends(site, end: date, count: int = WEEKS) -> dict:
    """Weekly hold of each table and of each dealer (separable shifts) at one site."""
    weeks, words = weeks_ending(end, count), revenue_words(site)
    tables = defaultdict(dict)
    for day in published.snapshot_table_days([site.pk], weeks[0].start, end):
        if day.complete and day.game == "21":
            _add(tables, day.table_number, _week_index(weeks, day.gaming_date), day.custody)
    dealers, names = defaultdict(dict), {}
    for shift in published.shift_figures([site.pk], weeks[0].start, end):
        if shift.custody is not None and shift.game == "21":
            names[shift.dealer_id] = shift.dealer_name
            _add(dealers, shift.dealer_id, _week_index(weeks, shift.gaming_date), shift.custody)
    return {
        "site": {"id": site.pk, "name": site.name},
        "weeks": [{"start": str(w.start), "end": str(w.end)} for w in weeks],
        "tables": [
            {"number": n, "label": f"Table {n}", "points": _series(tables[n], weeks, words)} for n in sorted(tables)
        ],
        "dealers": [
            {"id": d, "name": names[d], "points": _series(dealers[d], weeks, words)}
            for d in sorted(dealers, key=lambda d: names[d])
        ],
    }


@dataclass(frozen=True)
class TableDayException:
    day: published.TableDay
    reasons: tuple[str, ...]


def unusual_table_days(site, start: date, end: date, limit: int = 50) -> list[TableDayException]:
    """Table-days to look at, newest first: not complete, a loss (prizes over gross proceeds, in
    the site's pack's words: `packs.RevenueWords`), or a hold outside the usual swing of a single
    table-day."""
    words, found = pack_for(site).revenue_words, []
    for day in published.snapshot_table_days([site.pk], start, end):
        reasons = []
        if not day.counted:
            reasons.append("drop not counted (no signed count)")
        if not (day.opener_recorded and day.closer_recorded):
            reasons.append("opener or closer missing")
        # A table in play with no closer yet has no loss nor hold to judge: they are not known (House control).
        if day.custody.closer_known and day.custody.agp_cents < 0:
            reasons.append(f"{words.paid} exceeded {words.gross}")
        hold = day.custody.known_hold_ratio
        if hold is not None and day.custody.agp_cents >= 0 and not UNUSUAL_LOW <= hold <= UNUSUAL_HIGH:
            reasons.append("hold outside -5% to 40%")
        if reasons:
            found.append(TableDayException(day, tuple(reasons)))
    found.sort(key=lambda e: (e.day.gaming_date, -e.day.table_number), reverse=True)
    return found[:limit]
