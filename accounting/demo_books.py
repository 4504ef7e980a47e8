"""Demo books: the previous quarter's quarterly summary (SFN 50901) filed at every demo site,
and one designed amendment, so the figures pages show closed and filed figures and a
correction beside them.

Runs after the cage demo, which closes the books of every finished demo day but the busy
site's last night. The amendment corrects a day of the filed quarter at the busy site: a $20
bill found in a drop box after its count, entered by the gaming manager on that last night
(a night the demo built, in the current quarter), counted there and shown beside the filed
quarter as an amendment; then that night's books are closed (`cage.demo.close_last_night`).

Idempotent: a filed quarter is not filed again, and the amendment is entered once. Never
into a person's day: a quarter holding a gaming day the demo did not build is left for its
people to file, and the amendment is entered on no day but the demo's own last night, never
on today's gaming date.
"""

from django.core.exceptions import ValidationError
from django.utils import timezone

from cage.demo import close_last_night
from core.periods import Quarter

from . import queries, services
from .models import Adjustment, BooksClose

AMENDMENT_REASON = "Drop box recount after the count: a $20 bill found folded in the box's corner."


def extend_demo(demo: dict) -> None:
    """`manage.py load_demo` hook: file the previous quarter at every site, then the amendment."""
    gm = demo["people"]["gm"].user
    previous = Quarter.containing(timezone.localdate()).previous()
    from floor.demo import entered_by_hand

    for site in demo["sites"].values():
        if queries.quarter_filing(site.pk, previous) is not None:
            continue
        if entered_by_hand(site).filter(gaming_date__range=(previous.start, previous.end)).exists():
            continue
        try:
            services.file_quarter(acting_user=gm, site=site, quarter=previous, reference=f"Demo return {previous}")
        except ValidationError:
            continue  # a day of the quarter is still open: the quarter waits, as it would on the floor
    _amendment(demo["sites"]["busy"], gm, previous)
    close_last_night(demo)


def _amendment(site, gm, quarter: Quarter) -> None:
    from floor.demo import built_dates

    if queries.quarter_filing(site.pk, quarter) is None or Adjustment.objects.filter(reason=AMENDMENT_REASON).exists():
        return
    built = built_dates(site)
    recorded_on = max(built) if built else None  # the demo's last night, still open (cage.demo)
    if recorded_on is None or recorded_on <= quarter.end or queries.books_closed(site, recorded_on):
        return
    closed = (
        BooksClose.objects.filter(site=site, gaming_date__range=(quarter.start, quarter.end))
        .order_by("-gaming_date")
        .first()
    )
    tables = (closed.figures.get("tables") or []) if closed else []
    table = site.tables.filter(number=tables[0]["table_number"]).first() if tables else None
    if table is None:
        return
    services.record_adjustment(
        acting_user=gm,
        books_close=closed,
        table=table,
        field=Adjustment.Field.DROP,
        amount_cents=2_000,
        reason=AMENDMENT_REASON,
        recorded_on=recorded_on,
    )
