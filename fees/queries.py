"""The pack figures of WA-BJ and NY sites, summed by the database (a fixed number of queries
whatever the rows): fees collected, fee cash counted and over/short per day; sessions'
receipts, prizes and net."""

from collections import defaultdict
from dataclasses import dataclass
from datetime import date

from django.db.models import Count, Q, Sum

from floor.queries import LateEntry

from .models import FeeCollection, FeeCount, GameSession

# A fee collection that stands: neither a void nor voided (a void is a new row pointing back, `voids`).
STANDING = Q(voids__isnull=True, voided_by__isnull=True)


@dataclass(frozen=True)
class FeeDay:
    site_id: int
    gaming_date: date
    collections: int  # not voided
    collected_cents: int  # net of voids
    counted_cents: int | None  # None: not counted yet

    @property
    def over_short_cents(self) -> int | None:
        return None if self.counted_cents is None else self.counted_cents - self.collected_cents


def fee_days(site_ids, start: date, end: date) -> list[FeeDay]:
    collected = (
        FeeCollection.objects.filter(site_id__in=site_ids, gaming_date__range=(start, end))
        .values("site_id", "gaming_date")
        .annotate(cents=Sum("amount_cents"), n=Count("id", filter=STANDING))
        .order_by()
    )
    counted = FeeCount.objects.filter(
        site_id__in=site_ids, gaming_date__range=(start, end), corrected_by__isnull=True
    ).values_list("site_id", "gaming_date", "counted_cents")
    days: dict = defaultdict(lambda: [0, 0, None])
    for row in collected:
        days[(row["site_id"], row["gaming_date"])][:2] = [row["n"], row["cents"] or 0]
    for site_id, gaming_date, cents in counted:
        days[(site_id, gaming_date)][2] = cents
    return [FeeDay(s, d, n, c, counted) for (s, d), (n, c, counted) in sorted(days.items())]


def fee_totals(site_ids, start: date, end: date) -> dict:
    return _fee_block(fee_days(site_ids, start, end))


def fee_totals_by_day(site_ids, start: date, end: date) -> dict[tuple[int, date], dict]:
    """{(site id, gaming date): its fee totals}, each day's as `fee_totals` gives a one-day period
    (the daily page's), for the days of [start, end] with fees collected or counted, in two queries."""
    return {(row.site_id, row.gaming_date): _fee_block([row]) for row in fee_days(site_ids, start, end)}


def no_fees() -> dict:
    """A fees site's figures where no fee was collected or counted: every figure 0."""
    return _fee_block([])


def _fee_block(rows: list[FeeDay]) -> dict:
    counted = [r for r in rows if r.counted_cents is not None]
    return {
        "fees_collected_cents": sum(r.collected_cents for r in rows),
        "collections": sum(r.collections for r in rows),
        "fees_counted_cents": sum(r.counted_cents for r in counted),
        "over_short_cents": sum(r.over_short_cents for r in counted),
        "days_not_counted": sum(1 for r in rows if r.counted_cents is None and r.collections),
    }


def record_dates(site_ids, start: date, end: date) -> set[tuple[int, date]]:
    """(site id, gaming date) of every fee collection and session in [start, end], voided or not, in
    one query: the days of a fees or session pack's books, whether or not a gaming day was opened on
    them (accounting.summaries, accounting.services.close_books). Those that collected something:
    `collected_dates`."""
    fees = FeeCollection.objects.filter(site_id__in=site_ids, gaming_date__range=(start, end))
    sessions = GameSession.objects.filter(site_id__in=site_ids, gaming_date__range=(start, end))
    return _dates(fees, sessions)


def collected_dates(site_ids, start: date, end: date) -> set[tuple[int, date]]:
    """Those of `record_dates` that collected something, in one query: a fee collection standing
    (`STANDING`) or a session as it stands (`current_sessions`), as the daily figures count them
    (`fee_days`' collections, the sessions' totals). A day whose every fee was voided, or whose
    every session was, holds its records and collected nothing (core.closing.collecting_days)."""
    fees = FeeCollection.objects.filter(STANDING, site_id__in=site_ids, gaming_date__range=(start, end))
    return _dates(fees, current_sessions(site_ids, start, end))


def _dates(fees, sessions) -> set[tuple[int, date]]:
    pairs = (
        fees.values_list("site_id", "gaming_date")
        .order_by()
        .union(sessions.values_list("site_id", "gaming_date").order_by())
    )
    return set(pairs)


def latest_record_date(site_id: int, up_to: date) -> date | None:
    """The latest gaming date up to `up_to` with a fee collection or a session at the site, in one
    query (None: none): a fees or session pack's latest day of the books, where its tables open no
    gaming day (the daily figures page's default date)."""
    fees = FeeCollection.objects.filter(site_id=site_id, gaming_date__lte=up_to).values_list("gaming_date")
    sessions = GameSession.objects.filter(site_id=site_id, gaming_date__lte=up_to).values_list("gaming_date")
    latest = fees.order_by().union(sessions.order_by()).order_by("-gaming_date")[:1]
    return next((day for (day,) in latest), None)


def late_entries(site, start: date, end: date) -> list[LateEntry]:
    """The fee collections, fee cash counts and sessions of gaming dates [start, end] entered past
    the site's late entry threshold (house control, core.moments), as the floor's
    (floor.queries.late_entries): the daily report lists them with its own."""
    period = {"site": site, "gaming_date__range": (start, end), "entered_late": True}
    entries = [
        LateEntry(
            f.gaming_date,
            f"Table fee{' void' if f.voids_id else ''}, table {f.table.number}",
            f.collected_at,
            f.entered_at,
        )
        for f in FeeCollection.objects.filter(**period).select_related("table")
    ]
    entries += [
        LateEntry(c.gaming_date, "Fee cash count", c.counted_at, c.entered_at)
        for c in FeeCount.objects.filter(**period)
    ]
    entries += [
        LateEntry(
            s.gaming_date,
            f"Games-of-chance session{' void' if s.is_void else ''} (licence {s.licence_number})",
            s.ended_at,
            s.entered_at,
        )
        for s in GameSession.objects.filter(**period)
    ]
    return entries


def fees_not_counted(site_id: int, gaming_date: date) -> bool:
    """Fees were collected at the site on the date (one standing: a day whose every fee was voided
    collected nothing, `STANDING`) and their cash has no count standing."""
    collected = FeeCollection.objects.filter(STANDING, site_id=site_id, gaming_date=gaming_date).exists()
    counted = FeeCount.objects.filter(site_id=site_id, gaming_date=gaming_date, corrected_by__isnull=True).exists()
    return collected and not counted


def current_sessions(site_ids, start: date, end: date):
    """The sessions as they stand (a corrected session is replaced by its correction; a voided one
    by its void, which is no session)."""
    return GameSession.objects.filter(
        site_id__in=site_ids, gaming_date__range=(start, end), corrected_by__isnull=True, is_void=False
    ).order_by("gaming_date", "started_at", "id")


SESSION_SUMS = {"n": Count("id"), "receipts": Sum("receipts_cents"), "prizes": Sum("prizes_cents")}


def session_totals(site_ids, start: date, end: date) -> dict:
    return _session_block(current_sessions(site_ids, start, end).aggregate(**SESSION_SUMS))


def session_totals_by_day(site_ids, start: date, end: date) -> dict[tuple[int, date], dict]:
    """{(site id, gaming date): its sessions' totals}, each day's as `session_totals` gives a
    one-day period (the daily page's), for the days of [start, end] with sessions, in one query."""
    days = current_sessions(site_ids, start, end).order_by().values("site_id", "gaming_date").annotate(**SESSION_SUMS)
    return {(row["site_id"], row["gaming_date"]): _session_block(row) for row in days}


def no_sessions() -> dict:
    """A session site's figures where no session was held: every figure 0."""
    return _session_block({"n": 0, "receipts": 0, "prizes": 0})


def _session_block(totals: dict) -> dict:
    receipts, prizes = totals["receipts"] or 0, totals["prizes"] or 0
    return {"sessions": totals["n"], "receipts_cents": receipts, "prizes_cents": prizes, "net_cents": receipts - prizes}


def last_terms(site) -> dict:
    """The basis, period and rate of the site's latest fee standing (not a void, not voided): a
    room charges the same posted rate all night, so the next fee starts from them; {} before any."""
    last = (
        FeeCollection.objects.filter(STANDING, site=site)
        .order_by("-collected_at", "-id")
        .values("basis", "period_minutes", "rate_cents")
        .first()
    )
    return last or {}
