"""Demo: the quarterly report (SFN 50901's summary, ND 99-01.3-08-16(1)(g)) of each quarter the
books demo filed, generated as its gaming manager would before the return goes to the state, so
the state's registry receives the quarter's PDF with its package (statefiling.demo, after this).

Idempotent: a quarter whose quarterly report is stored already is not generated again."""

from django.utils import timezone

from accounting import published
from core.periods import Quarter

from .models import ReportFile
from .services import request_report


def extend_demo(demo: dict) -> None:
    gm = demo["people"]["gm"].user
    previous = Quarter.containing(timezone.localdate()).previous()
    filed = published.filings([site.pk for site in demo["sites"].values()], [previous])
    for (site_id, _quarter), filing in sorted(filed.items()):
        stored = ReportFile.objects.filter(
            run__site_id=site_id, run__kind="quarterly", run__start=previous.start, run__end=previous.end
        )
        if not stored.exists():
            request_report(acting_user=gm, kind="quarterly", site=filing.site, quarter=str(previous), at_once=True)
