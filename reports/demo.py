"""Demo: the quarterly report (SFN 50901's summary, ND 99-01.3-08-16(1)(g)) of the previous quarter
at each site the books demo files, generated as its gaming manager would before filing the return
(`load_demo` runs this step before the books'), so the return's package names it and the state's
registry receives it, the return as filed (statefiling.demo). Not once its quarter is filed (its
return's document is then the one it was filed with). A report writes into no day's records.

Idempotent: a quarter whose quarterly report is stored already is not generated again."""

from django.utils import timezone

from accounting import published
from core.periods import Quarter

from .models import ReportFile
from .services import request_report


def extend_demo(demo: dict) -> None:
    gm = demo["people"]["gm"].user
    previous = Quarter.containing(timezone.localdate()).previous()
    sites = list(demo["sites"].values())
    filed = published.filings([site.pk for site in sites], [previous])
    for site in sorted(sites, key=lambda s: s.pk):
        if (site.pk, str(previous)) in filed:
            continue
        stored = ReportFile.objects.filter(
            run__site_id=site.pk, run__kind="quarterly", run__start=previous.start, run__end=previous.end
        )
        if not stored.exists():
            request_report(acting_user=gm, kind="quarterly", site=site, quarter=str(previous), at_once=True)
