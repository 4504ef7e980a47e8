"""Reads of the books used in several places: whether a day's books are closed, adjustments."""

from collections.abc import Collection
from datetime import date

from django.db import connection
from django.db.models import BigIntegerField, Case, Exists, F, Max, OuterRef, Q, QuerySet, Subquery, Value, When
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Greatest

from cardroom.models import Site
from core.periods import Quarter
from fees.queries import collected_dates
from tournaments.queries import figures_by_day

from .models import Adjustment, BooksClose, OtherGamesAgp, QuarterFiling


def books_closed(site: Site, gaming_date: date) -> bool:
    """Are the books of the site's gaming day closed (a BooksClose row)? The cage records a
    day's deposit only then."""
    return books_closed_on(site.pk, gaming_date)


def books_closed_on(site_id: int, gaming_date: date) -> bool:
    """`books_closed` by site id."""
    return BooksClose.objects.filter(site_id=site_id, gaming_date=gaming_date).exists()


def quarter_filing(site_id: int, quarter: Quarter) -> QuarterFiling | None:
    return QuarterFiling.objects.filter(site_id=site_id, quarter=str(quarter)).select_related("filed_by").first()


def last_filed_date(jurisdictions: Collection[str]) -> date | None:
    """The last day of the latest quarter filed at any site of the `jurisdictions` (of every
    organization), or None where none is: the end of the past the state has been told. One query."""
    filed = QuarterFiling.objects.filter(site__jurisdiction__in=list(jurisdictions))
    return filed.aggregate(last=Max("end"))["last"]


_CLOSED_SQL = (
    f'SELECT EXISTS(SELECT 1 FROM "{BooksClose._meta.db_table}" WHERE "site_id" = %s AND "gaming_date" = %s), '
    f'EXISTS(SELECT 1 FROM "{QuarterFiling._meta.db_table}" WHERE "site_id" = %s AND "quarter" = %s)'
)


def closed_reason(site_id: int, gaming_date: date) -> str | None:
    """Why the books of the site's gaming date are closed (its own books, or its quarter's
    summary filed), or None: the answer the books register for the layers below (core.closing).
    One query: every write to a day's records asks it."""
    quarter = Quarter.containing(gaming_date)
    # Plain SQL: the statement runs on every write to a day's records, and building it with
    # the ORM (Exists annotations) cost several times what running it does.
    with connection.cursor() as cursor:
        cursor.execute(_CLOSED_SQL, [site_id, connection.ops.adapt_datefield_value(gaming_date), site_id, str(quarter)])
        found = cursor.fetchone()
    day_closed, quarter_filed = found
    if day_closed:
        return f"the books of {gaming_date} are closed"
    if quarter_filed:
        return f"the quarterly summary of {quarter} is filed"
    return None


def closed_dates(site_id: int, gaming_dates: Collection[date]) -> set[date]:
    """Those of `gaming_dates` whose books are closed at the site, as `closed_reason` says of each
    (the day's own books closed, or its quarter's summary filed): two queries however many dates,
    none for no date (the answer the books register for pages listing several dates, core.closing)."""
    dates = set(gaming_dates)
    if not dates:
        return set()
    quarters = {day: str(Quarter.containing(day)) for day in dates}
    closed = set(
        BooksClose.objects.filter(site_id=site_id, gaming_date__in=dates).values_list("gaming_date", flat=True)
    )
    filed = set(
        QuarterFiling.objects.filter(site_id=site_id, quarter__in=set(quarters.values())).values_list(
            "quarter", flat=True
        )
    )
    return closed | {day for day, quarter in quarters.items() if quarter in filed}


def closed_on() -> Q:
    """True where the books of the outer row's `site_id` and `gaming_date` are closed, as
    `closed_reason` says of one date (its own BooksClose, or a QuarterFiling of the site whose
    quarter, [start, end], holds the date): the answer the books register (core.closing) for a
    lower layer to filter its rows by in its own query."""
    day = BooksClose.objects.filter(site_id=OuterRef("site_id"), gaming_date=OuterRef("gaming_date"))
    filed = QuarterFiling.objects.filter(
        site_id=OuterRef("site_id"), start__lte=OuterRef("gaming_date"), end__gte=OuterRef("gaming_date")
    )
    return Q(Exists(day)) | Q(Exists(filed))


def closed_days(site_ids: Collection[int], start: date, end: date) -> set[tuple[int, date]]:
    """The (site_id, date) in [start, end] with their own books closed (a BooksClose each: close_books
    closes only a day of the books) and no gaming day opened on them, one query; the answer the
    books register (core.closing). The gaming days are read where they are wanted (the cage's
    deposit days): at scale they are nearly every closed day, read here for nothing."""
    from floor.models import GamingDay

    opened = GamingDay.objects.filter(site_id=OuterRef("site_id"), gaming_date=OuterRef("gaming_date"))
    found = BooksClose.objects.filter(site_id__in=list(site_ids), gaming_date__range=(start, end))
    return set(found.filter(~Exists(opened)).values_list("site_id", "gaming_date"))


def collecting_days(site_ids: Collection[int], start: date, end: date) -> set[tuple[int, date]]:
    """Those of `closed_days` that took cash: a fees or session pack's fee or session standing on them
    (`fees.queries.collected_dates`) or tournament play (its fees and cash prizes are the cash bank's);
    not a day whose only records are adjusting entries, or fees, sessions or tournament fees all voided,
    which collected nothing and has nothing to deposit (`accounting.summaries.takes_deposit` says the
    same of the day). The answer the books register (core.closing) for the cage's days that take a
    deposit: four queries at most, one where no day was closed without a gaming day."""
    closed = closed_days(site_ids, start, end)
    if not closed:
        return set()
    sites, first, last = {s for s, _ in closed}, min(d for _, d in closed), max(d for _, d in closed)
    played = {key for key, figures in figures_by_day(sites, first, last).items() if not figures.is_empty}
    return closed & (collected_dates(sites, first, last) | played)


def expected_deposit() -> Subquery:
    """The deposit the closed books of the outer row's `site_id` and `gaming_date` expect, in
    cents: the day's cash profit as its books closed it (`frozen`'s cash `deposit_expected_cents`),
    none (0) on a losing day; null where the day's own books were not closed. The answer the books
    register (core.closing) for the cage's deposits."""
    closed = BooksClose.objects.filter(site_id=OuterRef("site_id"), gaming_date=OuterRef("gaming_date"))
    closed = closed.annotate(raw=Cast(KT("figures__cash__deposit_expected_cents"), BigIntegerField()))
    # Null stays null: PostgreSQL's GREATEST skips a null (it would say 0 expected), SQLite's MAX does not.
    expected = Case(When(raw__isnull=True, then=Value(None)), default=Greatest(F("raw"), Value(0)))
    return Subquery(closed.annotate(expected=expected).values("expected")[:1], output_field=BigIntegerField())


def adjustments_around(site_ids, start: date, end: date) -> QuerySet[Adjustment]:
    """Adjustments recorded on a gaming date in [start, end] or correcting a day in it, with
    what their listing shows, in one query."""
    in_range = Q(recorded_on__range=(start, end)) | Q(books_close__gaming_date__range=(start, end))
    return (
        Adjustment.objects.filter(in_range, books_close__site_id__in=list(site_ids))
        .select_related("books_close", "table", "recorded_by", "approved_by")
        .order_by("recorded_on", "id")
    )


def other_games_agp(organization_id: int, quarter: Quarter) -> OtherGamesAgp | None:
    """The standing record of the organization's other games' AGP for the quarter (the row no
    later row corrects), or None when nothing is recorded."""
    return (
        OtherGamesAgp.objects.filter(organization_id=organization_id, quarter=str(quarter), corrected_by__isnull=True)
        .select_related("recorded_by")
        .first()
    )


def other_games_history(organization_id: int, quarter: Quarter) -> QuerySet[OtherGamesAgp]:
    """Every record of the quarter, the first first: the value and each correction of it."""
    return (
        OtherGamesAgp.objects.filter(organization_id=organization_id, quarter=str(quarter))
        .select_related("recorded_by")
        .order_by("recorded_at", "id")
    )
